"""Client side of nova-compute's RPC API (topic ``compute``, server = host).

Messages go to the message queue of the cell the context targets (see
:mod:`nova.rpc`): nova-api and the superconductor target the instance's
cell, a cell conductor uses its own queue.

Version history:
  1.0 - build_and_run_instance, terminate_instance, set_host_enabled
  1.1 - external_instance_event
  1.2 - stop_instance, start_instance, reboot_instance, pause_instance,
        unpause_instance, suspend_instance, resume_instance,
        get_console_output
  1.3 - get_vnc_console
  1.4 - get_diagnostics, get_instance_diagnostics, set_admin_password,
        trigger_crash_dump, get_host_uptime
  1.5 - snapshot_instance, backup_instance, rebuild_instance
  1.6 - rescue_instance, unrescue_instance, shelve_instance,
        shelve_offload_instance, unshelve_instance
  1.7 - host_power_action, host_maintenance_mode
  1.8 - soft_delete_instance, restore_instance
  1.9 - build_and_run_instance takes the build's BuildParameters
        (build_parameters) instead of image, filter_properties,
        admin_password, injected_files, requested_networks, security_groups
        and block_device_mapping
  1.10 - get_spice_console, get_serial_console
  1.11 - attach_interface, detach_interface
  1.12 - prep_resize, resize_instance, finish_resize, confirm_resize,
         revert_resize, finish_revert_resize
  1.13 - check_can_live_migrate_destination, live_migration,
         pre_live_migration, post_live_migration_at_destination,
         rollback_live_migration_at_destination
  1.14 - rebuild_instance takes recreate (evacuate to ``host``), with
         on_shared_storage, migration, scheduled_node and target_state
  1.15 - live_migration_force_complete, live_migration_abort
  1.16 - attach_volume, detach_volume

Every version is also a service version (objects.service.SERVICE_VERSION_HISTORY).
"""

from __future__ import annotations

import oslo_messaging

import nova.conf
from nova import exception, rpc
from nova.objects import build_parameters as build_parameters_obj

CONF = nova.conf.CONF

# A console log is read from a local file: a host that does not answer
# within this is not going to.
CONSOLE_OUTPUT_TIMEOUT = 60
# Putting one trait on a host's providers is a few Placement requests; the
# operator disabling the host waits for it, but not for a wedged compute.
SET_HOST_ENABLED_TIMEOUT = 30


def _compute_host(host: str | None, instance) -> str:
    host = host or instance.host
    if not host:
        raise exception.NovaException(
            f"Instance {instance.uuid} has no host to send the request to"
        )
    return host


class ComputeAPI(rpc.RPCAPI):
    TOPIC = "compute"
    VERSION = "1.16"
    UPGRADE_LEVEL = "compute"
    # ``[upgrade_levels] compute = auto``: what the oldest nova-compute speaks.
    AUTO_CAP = ("nova-compute", "compute_rpc")

    def build_and_run_instance(
        self,
        context,
        instance,
        host: str,
        request_spec,
        build_parameters,
        node: str | None = None,
        limits=None,
        host_list=None,
    ) -> None:
        """Build and start the instance on ``host`` (its allocations are
        already claimed in Placement) from ``build_parameters`` (a
        BuildParameters); ``host_list`` holds the alternates.

        A compute older than 1.9 gets the parameters one by one.
        """
        current = self.can_send_version("1.9", context)
        self.prepare(
            context,
            server=_compute_host(host, instance),
            version="1.9" if current else "1.0",
        ).cast(
            context,
            "build_and_run_instance",
            instance=instance,
            request_spec=request_spec,
            node=node,
            limits=limits,
            host_list=host_list,
            **build_parameters.message_kwargs(
                current, build_parameters_obj.LEGACY_BUILD_KWARGS
            ),
        )

    def terminate_instance(self, context, instance, bdms=None) -> None:
        """Destroy the guest, free its allocations and soft-delete the
        instance, on the instance's host."""
        self.prepare(context, server=_compute_host(None, instance), version="1.0").cast(
            context, "terminate_instance", instance=instance, bdms=bdms
        )

    def set_host_enabled(self, context, host: str, enabled: bool) -> str:
        """Have ``host`` add or remove the COMPUTE_STATUS_DISABLED trait on
        its providers; returns ``"enabled"`` or ``"disabled"``.

        A call: the caller learns whether the compute got the message. When
        no compute ever consumed from the host's queue the broker says so
        at once (``MessageUndeliverable``) instead of a timeout.
        """
        return self.prepare(
            context,
            server=host,
            version="1.0",
            timeout=SET_HOST_ENABLED_TIMEOUT,
            transport_options=oslo_messaging.TransportOptions(at_least_once=True),
        ).call(context, "set_host_enabled", enabled=enabled)

    def external_instance_event(self, context, instances, events, host: str) -> None:
        """Tell ``host`` about events of its instances (``events`` are dicts
        with ``name``, ``instance_uuid``, ``status`` and ``tag``).

        A compute older than 1.1 does not know them: they are dropped, as
        they would be by a compute that cannot act on them.
        """
        if not self.can_send_version("1.1", context):
            return
        self.prepare(context, server=host, version="1.1").cast(
            context, "external_instance_event", instances=instances, events=events
        )

    def _cast_to_host(self, context, method: str, instance, **kwargs) -> None:
        self.prepare(context, server=_compute_host(None, instance), version="1.2").cast(
            context, method, instance=instance, **kwargs
        )

    def stop_instance(self, context, instance, clean_shutdown: bool = True) -> None:
        """Power the guest off (by ACPI first when ``clean_shutdown``)."""
        self._cast_to_host(
            context, "stop_instance", instance, clean_shutdown=clean_shutdown
        )

    def start_instance(self, context, instance) -> None:
        self._cast_to_host(context, "start_instance", instance)

    def reboot_instance(
        self, context, instance, block_device_info=None, reboot_type: str = "SOFT"
    ) -> None:
        self._cast_to_host(
            context,
            "reboot_instance",
            instance,
            block_device_info=block_device_info,
            reboot_type=reboot_type,
        )

    def pause_instance(self, context, instance) -> None:
        self._cast_to_host(context, "pause_instance", instance)

    def unpause_instance(self, context, instance) -> None:
        self._cast_to_host(context, "unpause_instance", instance)

    def suspend_instance(self, context, instance) -> None:
        self._cast_to_host(context, "suspend_instance", instance)

    def resume_instance(self, context, instance) -> None:
        self._cast_to_host(context, "resume_instance", instance)

    def get_console_output(self, context, instance, tail_length=None) -> str:
        """The guest's console log (its last ``tail_length`` lines)."""
        return self.prepare(
            context,
            server=_compute_host(None, instance),
            version="1.2",
            timeout=CONSOLE_OUTPUT_TIMEOUT,
        ).call(
            context, "get_console_output", instance=instance, tail_length=tail_length
        )

    def get_vnc_console(self, context, instance, console_type: str) -> dict:
        """``{"host", "port"}`` of the instance's VNC server, as the console
        proxy reaches it, asked of the instance's host."""
        return self.prepare(
            context, server=_compute_host(None, instance), version="1.3"
        ).call(context, "get_vnc_console", instance=instance, console_type=console_type)

    # -- 1.10 -----------------------------------------------------------------

    def get_spice_console(self, context, instance, console_type: str) -> dict:
        """``{"host", "port"[, "tls_port"]}`` of the instance's SPICE
        server, as the console proxy reaches it."""
        return self.prepare(
            context, server=_compute_host(None, instance), version="1.10"
        ).call(
            context, "get_spice_console", instance=instance, console_type=console_type
        )

    def get_serial_console(self, context, instance, console_type: str) -> dict:
        """``{"host", "port"}`` of the instance's serial port listener."""
        return self.prepare(
            context, server=_compute_host(None, instance), version="1.10"
        ).call(
            context, "get_serial_console", instance=instance, console_type=console_type
        )

    # -- 1.4 ------------------------------------------------------------------

    def _call_host(self, context, method: str, instance, **kwargs):
        return self.prepare(
            context, server=_compute_host(None, instance), version="1.4"
        ).call(context, method, instance=instance, **kwargs)

    def get_diagnostics(self, context, instance) -> dict:
        """The driver's free-form diagnostics of the running guest."""
        return self._call_host(context, "get_diagnostics", instance)

    def get_instance_diagnostics(self, context, instance) -> dict:
        """Diagnostics of the running guest in the standard shape."""
        return self._call_host(context, "get_instance_diagnostics", instance)

    def set_admin_password(self, context, instance, new_pass: str) -> None:
        """Set the guest's administrator password; a call, so the caller
        learns whether the guest took it."""
        self._call_host(context, "set_admin_password", instance, new_pass=new_pass)

    def trigger_crash_dump(self, context, instance) -> None:
        self.prepare(context, server=_compute_host(None, instance), version="1.4").cast(
            context, "trigger_crash_dump", instance=instance
        )

    def get_host_uptime(self, context, host: str) -> str:
        """The output of ``uptime`` on ``host``."""
        return self.prepare(context, server=host, version="1.4").call(
            context, "get_host_uptime"
        )

    # -- 1.5 ------------------------------------------------------------------

    def snapshot_instance(self, context, instance, image_id: str) -> None:
        """Upload the instance's root disk as the queued image ``image_id``."""
        self.prepare(context, server=_compute_host(None, instance), version="1.5").cast(
            context, "snapshot_instance", instance=instance, image_id=image_id
        )

    def backup_instance(
        self, context, instance, image_id: str, backup_type: str, rotation: int
    ) -> None:
        """A snapshot as ``image_id``, keeping the newest ``rotation``
        backups of ``backup_type``."""
        self.prepare(context, server=_compute_host(None, instance), version="1.5").cast(
            context,
            "backup_instance",
            instance=instance,
            image_id=image_id,
            backup_type=backup_type,
            rotation=rotation,
        )

    def rebuild_instance(
        self,
        context,
        instance,
        orig_image_ref: str | None,
        image_ref: str,
        orig_sys_metadata: dict,
        injected_files=None,
        new_pass: str | None = None,
        preserve_ephemeral: bool = False,
        recreate: bool = False,
        on_shared_storage: bool = False,
        host: str | None = None,
        migration=None,
        scheduled_node: str | None = None,
        target_state: str | None = None,
    ) -> None:
        """Destroy the guest and spawn it again from ``image_ref`` on the
        instance's host; a changed image is first checked against the host
        (``orig_*`` restore the instance if it does not fit). With
        ``recreate`` (an evacuation, 1.14) the guest is spawned on ``host``
        instead, the instance's own host being down."""
        evacuation = {}
        if recreate:
            evacuation = {
                "recreate": True,
                "on_shared_storage": on_shared_storage,
                "migration": migration,
                "scheduled_node": scheduled_node,
                "target_state": target_state,
            }
        self.prepare(
            context,
            server=_compute_host(host, instance),
            version="1.14" if recreate else "1.5",
        ).cast(
            context,
            "rebuild_instance",
            instance=instance,
            orig_image_ref=orig_image_ref,
            image_ref=image_ref,
            orig_sys_metadata=orig_sys_metadata,
            injected_files=injected_files,
            new_pass=new_pass,
            preserve_ephemeral=preserve_ephemeral,
            **evacuation,
        )

    # -- 1.6 ------------------------------------------------------------------

    def rescue_instance(
        self,
        context,
        instance,
        rescue_password: str | None = None,
        rescue_image_ref: str | None = None,
        clean_shutdown: bool = True,
    ) -> None:
        """Boot the guest from the rescue image (its own image when
        ``rescue_image_ref`` is None), its root disk attached second."""
        self.prepare(context, server=_compute_host(None, instance), version="1.6").cast(
            context,
            "rescue_instance",
            instance=instance,
            rescue_password=rescue_password,
            rescue_image_ref=rescue_image_ref,
            clean_shutdown=clean_shutdown,
        )

    def unrescue_instance(self, context, instance) -> None:
        self.prepare(context, server=_compute_host(None, instance), version="1.6").cast(
            context, "unrescue_instance", instance=instance
        )

    def shelve_instance(
        self, context, instance, image_id: str, clean_shutdown: bool = True
    ) -> None:
        """Snapshot the guest into the queued image ``image_id`` and stop it."""
        self.prepare(context, server=_compute_host(None, instance), version="1.6").cast(
            context,
            "shelve_instance",
            instance=instance,
            image_id=image_id,
            clean_shutdown=clean_shutdown,
        )

    def shelve_offload_instance(
        self, context, instance, clean_shutdown: bool = True
    ) -> None:
        self.prepare(context, server=_compute_host(None, instance), version="1.6").cast(
            context,
            "shelve_offload_instance",
            instance=instance,
            clean_shutdown=clean_shutdown,
        )

    def unshelve_instance(
        self,
        context,
        instance,
        host: str,
        image,
        request_spec=None,
        filter_properties=None,
        node: str | None = None,
    ) -> None:
        """Boot the offloaded instance on ``host`` from its shelved image."""
        self.prepare(context, server=host, version="1.6").cast(
            context,
            "unshelve_instance",
            instance=instance,
            image=image,
            filter_properties=filter_properties,
            node=node,
            request_spec=request_spec,
        )

    # -- 1.7 ------------------------------------------------------------------

    def host_power_action(self, context, host: str, action: str) -> str:
        """Have ``host`` start up, shut down or reboot itself (``action``
        is ``"startup"``, ``"shutdown"`` or ``"reboot"``)."""
        return self.prepare(context, server=host, version="1.7").call(
            context, "host_power_action", action=action
        )

    def host_maintenance_mode(self, context, host: str, mode: bool) -> str:
        """Put ``host`` into maintenance mode or take it out of it."""
        return self.prepare(context, server=host, version="1.7").call(
            context, "host_maintenance_mode", host=host, mode=mode
        )

    # -- 1.8 ------------------------------------------------------------------

    def soft_delete_instance(self, context, instance) -> None:
        """Power the guest off and mark the instance SOFT_DELETED; its
        resources stay claimed until the host reclaims it."""
        self.prepare(context, server=_compute_host(None, instance), version="1.8").cast(
            context, "soft_delete_instance", instance=instance
        )

    def restore_instance(self, context, instance) -> None:
        """Power a soft-deleted instance's guest back on; ACTIVE again."""
        self.prepare(context, server=_compute_host(None, instance), version="1.8").cast(
            context, "restore_instance", instance=instance
        )

    # -- 1.11 -----------------------------------------------------------------

    def attach_interface(
        self,
        context,
        instance,
        network_id: str | None,
        port_id: str | None,
        requested_ip: str | None,
        tag: str | None = None,
    ) -> dict:
        """Hot-plug a port (``port_id``, or a new one on ``network_id``) into
        the guest; the new VIF. Waits for the host, which answers once the
        guest has the interface."""
        return self.prepare(
            context, server=_compute_host(None, instance), version="1.11"
        ).call(
            context,
            "attach_interface",
            instance=instance,
            network_id=network_id,
            port_id=port_id,
            requested_ip=requested_ip,
            tag=tag,
        )

    def detach_interface(self, context, instance, port_id: str) -> None:
        """Hot-unplug the port ``port_id`` from the guest and give it back."""
        self.prepare(
            context, server=_compute_host(None, instance), version="1.11"
        ).cast(context, "detach_interface", instance=instance, port_id=port_id)

    # -- 1.12: resize and cold migration ------------------------------------

    def _move(self, context, host: str, method: str, **kwargs) -> None:
        # Below the cap nothing is sent (RPCPinnedToOldVersion): a compute
        # older than 1.12 cannot take part in a move at all.
        self.prepare(context, server=host, version="1.12").cast(
            context, method, **kwargs
        )

    def prep_resize(
        self,
        context,
        instance,
        flavor,
        migration,
        request_spec,
        host: str,
        node: str | None,
        clean_shutdown: bool = True,
    ) -> None:
        """On the destination ``host``: take the move (its resources are
        claimed on ``node``), then have the source send the guest."""
        self._move(
            context,
            host,
            "prep_resize",
            instance=instance,
            flavor=flavor,
            migration=migration,
            request_spec=request_spec,
            node=node,
            clean_shutdown=clean_shutdown,
        )

    def resize_instance(
        self, context, instance, migration, flavor, clean_shutdown: bool = True
    ) -> None:
        """On the source: stop the guest and send its disks to the
        destination."""
        self._move(
            context,
            migration.source_compute,
            "resize_instance",
            instance=instance,
            migration=migration,
            flavor=flavor,
            clean_shutdown=clean_shutdown,
        )

    def finish_resize(self, context, instance, migration, disk_info: str) -> None:
        """On the destination: make the guest from the disks sent."""
        self._move(
            context,
            migration.dest_compute,
            "finish_resize",
            instance=instance,
            migration=migration,
            disk_info=disk_info,
        )

    def confirm_resize(self, context, instance, migration) -> None:
        """On the source: delete what is left of the guest there."""
        self._move(
            context,
            migration.source_compute,
            "confirm_resize",
            instance=instance,
            migration=migration,
        )

    def revert_resize(self, context, instance, migration) -> None:
        """On the destination: destroy the new guest, then have the
        source bring the old one back."""
        self._move(
            context,
            migration.dest_compute,
            "revert_resize",
            instance=instance,
            migration=migration,
        )

    def finish_revert_resize(self, context, instance, migration) -> None:
        """On the source: the guest back, with its old flavor."""
        self._move(
            context,
            migration.source_compute,
            "finish_revert_resize",
            instance=instance,
            migration=migration,
        )

    # -- 1.13: live migration -----------------------------------------------

    def check_can_live_migrate_destination(
        self, context, instance, destination: str, block_migration: bool,
        disk_over_commit: bool,
    ) -> dict:  # fmt: skip
        """Ask ``destination`` whether it can take the running guest; its
        driver's record of the migration (``migrate_data``)."""
        return self.prepare(
            context, server=destination, version="1.13", timeout=CONF.long_rpc_timeout
        ).call(
            context,
            "check_can_live_migrate_destination",
            instance=instance,
            block_migration=block_migration,
            disk_over_commit=disk_over_commit,
        )

    def live_migration(
        self, context, instance, dest: str, block_migration: bool, migration,
        migrate_data: dict,
    ) -> None:  # fmt: skip
        """On the source: move the running guest to ``dest``."""
        self.prepare(context, server=migration.source_compute, version="1.13").cast(
            context,
            "live_migration",
            instance=instance,
            dest=dest,
            block_migration=block_migration,
            migration=migration,
            migrate_data=migrate_data,
        )

    def pre_live_migration(
        self, context, instance, block_migration: bool, host: str, migrate_data
    ) -> dict:
        """On the destination ``host``: prepare for the guest (a call)."""
        return self.prepare(
            context, server=host, version="1.13", timeout=CONF.long_rpc_timeout
        ).call(
            context,
            "pre_live_migration",
            instance=instance,
            block_migration=block_migration,
            migrate_data=migrate_data,
        )

    def post_live_migration_at_destination(
        self, context, instance, block_migration: bool, host: str, migration
    ) -> None:
        """On the destination ``host``: the guest has arrived."""
        self.prepare(context, server=host, version="1.13").cast(
            context,
            "post_live_migration_at_destination",
            instance=instance,
            block_migration=block_migration,
            migration=migration,
        )

    def rollback_live_migration_at_destination(
        self, context, instance, host: str, migrate_data
    ) -> None:
        """On the destination ``host``: undo its preparation."""
        self.prepare(context, server=host, version="1.13").cast(
            context,
            "rollback_live_migration_at_destination",
            instance=instance,
            migrate_data=migrate_data,
        )

    # -- 1.15: live migration, force_complete and abort ----------------------

    def live_migration_force_complete(self, context, instance, migration) -> None:
        """On the source: make the running live migration finish now."""
        self.prepare(context, server=migration.source_compute, version="1.15").cast(
            context,
            "live_migration_force_complete",
            instance=instance,
            migration=migration,
        )

    def live_migration_abort(self, context, instance, migration_id: int) -> None:
        """On the instance's (source) host: stop the live migration."""
        self.prepare(
            context, server=_compute_host(None, instance), version="1.15"
        ).cast(
            context,
            "live_migration_abort",
            instance=instance,
            migration_id=migration_id,
        )

    # -- 1.16: volumes ---------------------------------------------------------

    def attach_volume(self, context, instance, bdm) -> None:
        """Connect the volume ``bdm`` reserved to the host and give it to
        the guest; a failure rolls the reservation back."""
        self.prepare(
            context, server=_compute_host(None, instance), version="1.16"
        ).cast(context, "attach_volume", instance=instance, bdm=bdm)

    def detach_volume(self, context, instance, bdm) -> None:
        """Take the volume of ``bdm`` from the guest and drop its
        attachment."""
        self.prepare(
            context, server=_compute_host(None, instance), version="1.16"
        ).cast(context, "detach_volume", instance=instance, bdm=bdm)
