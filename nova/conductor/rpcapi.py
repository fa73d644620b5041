"""Client side of nova-conductor's RPC APIs (topic ``conductor``).

Two APIs share the topic. ``ConductorAPI`` is the database proxy of
services that have no database (nova-compute): it runs remotable object
methods in the cell conductor. ``ComputeTaskAPI`` (namespace
``compute_task``) starts task flows: builds and unshelves on the
superconductor, reschedules on the cell conductor of the failed host.
"""

from __future__ import annotations

from typing import Any

import nova.conf
from nova import rpc
from nova.objects import build_parameters as build_parameters_obj

CONF = nova.conf.CONF

# Both APIs are capped by [upgrade_levels] conductor; conductors are
# upgraded first, so ``auto`` means no cap.
#
# ConductorAPI version history:
#   1.0 - object_class_action_versions, object_action,
#         object_backport_versions
#
# ComputeTaskAPI version history:
#   1.0 - schedule_and_build_instances, build_and_run_instance (the relay of
#         a scheduled build to its host; still served, no longer sent: the
#         superconductor casts to the compute itself)
#   1.1 - build_instances (a reschedule to the alternates in host_lists)
#   1.2 - unshelve_instance
#   1.3 - schedule_and_build_instances and build_instances take the build's
#         BuildParameters (build_parameters) instead of image,
#         admin_password, injected_files, requested_networks, security_groups,
#         block_device_mapping, filter_properties and tags
#   1.4 - migrate_server (resize and cold migration; a call)
#   1.5 - live_migrate_instance
#   1.6 - rebuild_instance (evacuate: recreate on another host)
#   1.7 - live_migrate_instance takes host (a destination forced past the
#         scheduler)


class ConductorAPI(rpc.RPCAPI):
    """Object indirection: ``NovaObject.indirection_api`` in nova-compute."""

    TOPIC = "conductor"
    VERSION = "1.0"
    UPGRADE_LEVEL = "conductor"

    def object_class_action_versions(
        self,
        context,
        objname: str,
        objmethod: str,
        object_versions: dict[str, str],
        args: tuple,
        kwargs: dict[str, Any],
    ):
        return self.prepare(context).call(
            context,
            "object_class_action_versions",
            objname=objname,
            objmethod=objmethod,
            object_versions=object_versions,
            args=args,
            kwargs=kwargs,
        )

    def object_action(self, context, objinst, objmethod: str, args, kwargs):
        return self.prepare(context).call(
            context,
            "object_action",
            objinst=objinst,
            objmethod=objmethod,
            args=args,
            kwargs=kwargs,
        )

    def object_backport_versions(self, context, objinst, object_versions):
        return self.prepare(context).call(
            context,
            "object_backport_versions",
            objinst=objinst,
            object_versions=object_versions,
        )


class ComputeTaskAPI(rpc.RPCAPI):
    """Task flows run by conductors."""

    TOPIC = "conductor"
    NAMESPACE = "compute_task"
    VERSION = "1.7"
    UPGRADE_LEVEL = "conductor"

    def schedule_and_build_instances(
        self, context, build_requests, request_specs, build_parameters
    ) -> None:
        """To the superconductor: schedule the build requests and build
        each instance where it lands, from ``build_parameters`` (the
        request's BuildParameters). A superconductor older than 1.3 gets
        the parameters one by one."""
        current = self.can_send_version("1.3", context)
        self.prepare(context, version="1.3" if current else "1.0").cast(
            context,
            "schedule_and_build_instances",
            build_requests=build_requests,
            request_specs=request_specs,
            **build_parameters.message_kwargs(
                current, build_parameters_obj.LEGACY_SCHEDULE_KWARGS
            ),
        )

    def build_instances(
        self, context, instances, request_spec, build_parameters, host_lists
    ) -> None:
        """To the conductor of the compute's cell: build each instance on
        the first alternate of its host list that can still be claimed,
        from ``build_parameters`` (with the attempts made so far). A
        conductor older than 1.3 gets the parameters one by one."""
        current = self.can_send_version("1.3", context)
        self.prepare(context, version="1.3" if current else "1.1").cast(
            context,
            "build_instances",
            instances=instances,
            request_spec=request_spec,
            host_lists=host_lists,
            **build_parameters.message_kwargs(
                current, build_parameters_obj.LEGACY_BUILD_KWARGS
            ),
        )

    def unshelve_instance(self, context, instance, request_spec=None) -> None:
        """To the superconductor: power on a SHELVED instance, or schedule
        a SHELVED_OFFLOADED one and have it booted where it lands."""
        self.prepare(context, version="1.2").cast(
            context,
            "unshelve_instance",
            instance=instance,
            request_spec=request_spec,
        )

    def migrate_server(
        self, context, instance, flavor, request_spec, clean_shutdown: bool = True
    ) -> None:
        """To the superconductor: choose a destination for the instance
        with ``flavor`` and start the move there; returns once it started
        (raises why it could not, NoValidHost for one)."""
        self.prepare(context, version="1.4", timeout=CONF.long_rpc_timeout).call(
            context,
            "migrate_server",
            instance=instance,
            flavor=flavor,
            request_spec=request_spec,
            clean_shutdown=clean_shutdown,
        )

    def live_migrate_instance(
        self,
        context,
        instance,
        request_spec,
        block_migration: bool,
        disk_over_commit: bool,
        host: str | None = None,
    ) -> None:
        """To the superconductor: live-migrate the instance to ``host``
        (forced, unchecked by the scheduler), else where ``request_spec``
        allows (a cast)."""
        forced = {"host": host} if host else {}
        self.prepare(context, version="1.7" if host else "1.5").cast(
            context,
            "live_migrate_instance",
            instance=instance,
            request_spec=request_spec,
            block_migration=block_migration,
            disk_over_commit=disk_over_commit,
            **forced,
        )

    def rebuild_instance(
        self,
        context,
        instance,
        orig_image_ref: str | None,
        image_ref: str,
        orig_sys_metadata: dict,
        on_shared_storage: bool,
        new_pass: str | None,
        host: str | None,
        request_spec,
        migration,
        target_state: str | None = None,
    ) -> None:
        """To the superconductor: rebuild the instance of a dead host on
        ``host`` (forced), else where the scheduler puts it (a cast).
        Only evacuations go this way: a rebuild in place goes straight to
        the instance's host."""
        self.prepare(context, version="1.6").cast(
            context,
            "rebuild_instance",
            instance=instance,
            orig_image_ref=orig_image_ref,
            image_ref=image_ref,
            orig_sys_metadata=orig_sys_metadata,
            on_shared_storage=on_shared_storage,
            new_pass=new_pass,
            host=host,
            request_spec=request_spec,
            migration=migration,
            target_state=target_state,
        )
