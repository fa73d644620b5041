"""Rebuild: re-create a server's guest from an image on the host it is on."""

from __future__ import annotations

from nova.compute.api import base, checks
from nova.policies import servers as server_policies
from nova.states import machine


class RebuildAPI(base.FlowAPI):
    """rebuild."""

    def rebuild(
        self,
        context,
        instance,
        image_href: str,
        admin_password: str | None,
        files_to_inject=None,
        preserve_ephemeral: bool = False,
        **changes,
    ):
        """Re-create the server's guest from ``image_href`` on its host
        (``rebuild``); the instance as it now stands (REBUILD).

        ``changes`` are instance fields the request sets (``display_name``,
        ``metadata``, ``key_name`` with None removing the key, ``user_data``,
        ``hostname``, ...). The image's fitness for the host is checked by
        the compute host when the image changes.
        """
        cctxt, cell_instance = self.on_host(
            context,
            instance,
            machine.REBUILD.action,
            server_policies.SERVERS % "rebuild",
        )
        base.check_lock(cell_instance)
        machine.check(cell_instance, machine.REBUILD)
        image = checks.get_image(self.image_api, context, image_href)
        checks.check_flavor_fits_image(context, cell_instance.flavor, image)
        if "metadata" in changes:
            base.check_metadata_quota(context, changes["metadata"])
        base.check_injected_file_quota(context, files_to_inject)
        if "key_name" in changes:
            changes["key_data"] = checks.key_data(context, changes["key_name"])
        orig_image_ref = cell_instance.image_ref
        orig_sys_metadata = dict(cell_instance.system_metadata)
        if image_href != orig_image_ref:
            # The instance remembers the new image from now on.
            system_metadata = {
                k: v for k, v in orig_sys_metadata.items() if not k.startswith("image_")
            }
            system_metadata.update(checks.image_system_metadata(image))
            cell_instance.system_metadata = system_metadata
            cell_instance.image_ref = image_href
        for name, value in changes.items():
            setattr(cell_instance, name, value)
        cell_instance.progress = 0
        self.claim_task(cell_instance, machine.REBUILD)
        self.record_action(cctxt, cell_instance, machine.REBUILD)
        self._compute_rpcapi().rebuild_instance(
            cctxt,
            cell_instance,
            orig_image_ref=orig_image_ref,
            image_ref=image_href,
            orig_sys_metadata=orig_sys_metadata,
            injected_files=[list(item) for item in files_to_inject or []],
            new_pass=admin_password,
            preserve_ephemeral=preserve_ephemeral,
        )
        return cell_instance
