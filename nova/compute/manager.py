"""nova-compute: runs instances on its host through the virt driver.

:class:`ComputeManager` is the service's RPC face: each method it serves
hands the work to the collaborator of its flow (:mod:`nova.compute.flows`:
build, delete, power, images and shelve, rescue, rebuild, guest requests,
the host itself, power-state sync, recovery at start, external events, and
the place for moves).

nova-compute has no database: every object method it calls runs in its
cell's conductor (``NovaObject.indirection_api``, set by nova-compute's
console script). State changes are compare-and-swap on the task state, so
a delete racing a build wins cleanly.
"""

from __future__ import annotations

import json

import oslo_messaging

import nova.conf
from nova import context as nova_context
from nova import exception, manager, objects
from nova.compute.flows import (
    base,
    build,
    delete,
    evacuate,
    events,
    guest,
    images,
    interfaces,
    moves,
    power,
    power_sync,
    rebuild,
    recovery,
    rescue,
    volumes,
)
from nova.compute.flows import host as host_flows
from nova.compute.resource_tracker import ResourceTracker
from nova.virt import driver as virt_driver

CONF = nova.conf.CONF

# Used when [DEFAULT] update_resources_interval is 0.
DEFAULT_RESOURCES_INTERVAL = 60
CONSOLE_TOKEN_CLEANUP_INTERVAL = 600
# Upstream's default periodic spacing: the audit runs at most once per
# period anyway, the task log says whether it did.
INSTANCE_USAGE_AUDIT_INTERVAL = 60
# How often rescued instances are checked against [DEFAULT] rescue_timeout.
RESCUED_POLL_INTERVAL = 60


# What asking for a console may answer instead: the caller's error, not ours.
_CONSOLE_ERRORS = (
    exception.InstanceNotFound,
    exception.ConsoleTypeUnavailable,
    exception.ConsoleTypeInvalid,
)


class ComputeManager(manager.Manager):
    target = oslo_messaging.Target(version="1.16")

    def __init__(self, host: str) -> None:
        super().__init__(host, "compute")
        driver = virt_driver.load_compute_driver(CONF.compute_driver)
        self.compute = base.ComputeHost(
            host=host, driver=driver, rt=ResourceTracker(host, driver)
        )
        self.build = build.BuildFlow(self.compute)
        self.delete = delete.DeleteFlow(self.compute)
        self.power = power.PowerFlow(self.compute)
        self.images = images.ImagesFlow(self.compute)
        self.rescue = rescue.RescueFlow(self.compute)
        self.rebuild = rebuild.RebuildFlow(self.compute)
        self.evacuate = evacuate.EvacuateFlow(self.compute)
        self.guest = guest.GuestFlow(self.compute)
        self.host_flow = host_flows.HostFlow(self.compute)
        self.power_sync = power_sync.PowerSyncFlow(self.compute)
        self.events = events.EventsFlow(self.compute)
        self.moves = moves.MovesFlow(self.compute)
        self.interfaces = interfaces.InterfacesFlow(self.compute)
        self.volumes = volumes.VolumesFlow(self.compute)
        self.recovery = recovery.RecoveryFlow(
            self.compute,
            build=self.build,
            delete=self.delete,
            images=self.images,
            moves=self.moves,
            power=self.power,
            power_sync=self.power_sync,
        )

    @property
    def driver(self) -> virt_driver.ComputeDriver:
        return self.compute.driver

    @property
    def rt(self) -> ResourceTracker:
        return self.compute.rt

    # -- service lifecycle -----------------------------------------------

    def init_host(self, service_ref) -> None:
        self.host_flow.service_ref = service_ref
        self.driver.init_host(self.host)
        self.driver.register_event_listener(self.power_sync.handle_lifecycle_event)
        self.driver.register_instance_event_listener(self.events.handle_driver_event)
        context = nova_context.get_admin_context()
        self.evacuate.destroy_evacuated_instances(context)
        self.recovery.recover_instances(context)
        self.host_flow.update_available_resource(context)

    def cleanup_host(self) -> None:
        self.build.shutdown()
        self.power_sync.shutdown()
        self.driver.cleanup_host(self.host)

    def periodic_tasks(self) -> list[manager.PeriodicTask]:
        interval = CONF.update_resources_interval or DEFAULT_RESOURCES_INTERVAL
        tasks = [
            manager.PeriodicTask(
                "update_available_resource",
                self.host_flow.update_available_resource,
                interval,
            ),
            manager.PeriodicTask(
                "cleanup_expired_console_auth_tokens",
                self.host_flow.cleanup_expired_console_auth_tokens,
                CONSOLE_TOKEN_CLEANUP_INTERVAL,
            ),
        ]
        if CONF.sync_power_state_interval > 0:
            tasks.append(
                manager.PeriodicTask(
                    "sync_power_states",
                    self.power_sync.sync_power_states,
                    CONF.sync_power_state_interval,
                )
            )
        if CONF.heal_instance_info_cache_interval > 0:
            tasks.append(
                manager.PeriodicTask(
                    "heal_instance_info_cache",
                    self.events.heal_instance_info_cache,
                    CONF.heal_instance_info_cache_interval,
                )
            )
        if CONF.instance_usage_audit:
            tasks.append(
                manager.PeriodicTask(
                    "instance_usage_audit",
                    self.host_flow.instance_usage_audit,
                    INSTANCE_USAGE_AUDIT_INTERVAL,
                    # A compute that was down when a period ended audits
                    # it as soon as it is back.
                    run_immediately=True,
                )
            )
        if CONF.running_deleted_instance_poll_interval > 0:
            tasks.append(
                manager.PeriodicTask(
                    "cleanup_running_deleted_instances",
                    self.delete.cleanup_running_deleted_instances,
                    CONF.running_deleted_instance_poll_interval,
                    # Deleted while this service was down: found at start.
                    run_immediately=True,
                )
            )
        if CONF.reclaim_instance_interval > 0:
            tasks.append(
                manager.PeriodicTask(
                    "reclaim_queued_deletes",
                    self.delete.reclaim_queued_deletes,
                    CONF.reclaim_instance_interval,
                )
            )
        if CONF.rescue_timeout > 0:
            tasks.append(
                manager.PeriodicTask(
                    "poll_rescued_instances",
                    self.rescue.poll_rescued_instances,
                    min(RESCUED_POLL_INTERVAL, CONF.rescue_timeout),
                )
            )
        if CONF.shelved_offload_time > 0 and CONF.shelved_poll_interval > 0:
            tasks.append(
                manager.PeriodicTask(
                    "poll_shelved_instances",
                    self.images.poll_shelved_instances,
                    CONF.shelved_poll_interval,
                )
            )
        if CONF.resize_confirm_window > 0:
            tasks.append(
                manager.PeriodicTask(
                    "poll_unconfirmed_resizes",
                    self.moves.poll_unconfirmed_resizes,
                    min(moves.UNCONFIRMED_POLL_INTERVAL, CONF.resize_confirm_window),
                )
            )
        if CONF.image_cache.manager_interval > 0:
            tasks.append(
                manager.PeriodicTask(
                    "manage_image_cache",
                    self.host_flow.manage_image_cache,
                    CONF.image_cache.manager_interval,
                )
            )
        return tasks

    # -- 1.0: build (its parameters one object since 1.9), delete, host flag --

    def build_and_run_instance(
        self,
        context,
        instance,
        request_spec=None,
        build_parameters=None,
        node=None,
        limits=None,
        host_list=None,
        **legacy_kwargs,
    ) -> None:
        """Build and start the instance (its allocations are claimed);
        ``host_list`` is this host first, then the alternates.

        Senders older than 1.9 spell the BuildParameters out as keyword
        arguments (``legacy_kwargs``).
        """
        self.build.build_and_run_instance(
            context,
            instance,
            request_spec,
            objects.BuildParameters.received(build_parameters, legacy_kwargs),
            node,
            list(host_list or []),
        )

    def terminate_instance(self, context, instance, bdms=None) -> None:
        self.delete.terminate_instance(context, instance)

    def set_host_enabled(self, context, enabled: bool) -> str:
        return self.host_flow.set_host_enabled(context, enabled)

    # -- 1.1: external events -------------------------------------------------

    def external_instance_event(self, context, instances, events) -> None:
        self.events.external_instance_event(context, instances, events)

    # -- 1.2: power actions and console output --------------------------------

    def stop_instance(self, context, instance, clean_shutdown: bool = True) -> None:
        self.power.stop_instance(context, instance, clean_shutdown)

    def start_instance(self, context, instance) -> None:
        self.power.start_instance(context, instance)

    def reboot_instance(
        self, context, instance, block_device_info=None, reboot_type: str = "SOFT"
    ) -> None:
        self.power.reboot_instance(context, instance, reboot_type)

    def pause_instance(self, context, instance) -> None:
        self.power.pause_instance(context, instance)

    def unpause_instance(self, context, instance) -> None:
        self.power.unpause_instance(context, instance)

    def suspend_instance(self, context, instance) -> None:
        self.power.suspend_instance(context, instance)

    def resume_instance(self, context, instance) -> None:
        self.power.resume_instance(context, instance)

    def get_console_output(self, context, instance, tail_length=None) -> str:
        return self.guest.get_console_output(context, instance, tail_length)

    # -- 1.3: consoles --------------------------------------------------------

    @oslo_messaging.expected_exceptions(*_CONSOLE_ERRORS)
    def get_vnc_console(self, context, instance, console_type: str) -> dict:
        return self.guest.get_vnc_console(context, instance, console_type)

    # -- 1.10: SPICE and serial consoles -------------------------------------

    @oslo_messaging.expected_exceptions(*_CONSOLE_ERRORS)
    def get_spice_console(self, context, instance, console_type: str) -> dict:
        return self.guest.get_spice_console(context, instance, console_type)

    @oslo_messaging.expected_exceptions(*_CONSOLE_ERRORS)
    def get_serial_console(self, context, instance, console_type: str) -> dict:
        return self.guest.get_serial_console(context, instance, console_type)

    # -- 1.4: diagnostics, passwords, crash dumps, uptime --------------------

    @oslo_messaging.expected_exceptions(
        exception.InstanceInvalidState, NotImplementedError
    )
    def get_diagnostics(self, context, instance) -> dict:
        return self.guest.get_diagnostics(context, instance)

    @oslo_messaging.expected_exceptions(
        exception.InstanceInvalidState, NotImplementedError
    )
    def get_instance_diagnostics(self, context, instance) -> dict:
        return self.guest.get_instance_diagnostics(context, instance)

    @oslo_messaging.expected_exceptions(
        exception.InstancePasswordSetFailed,
        exception.InstanceAgentNotEnabled,
        exception.SetAdminPasswdNotSupported,
        exception.UnexpectedTaskStateError,
        NotImplementedError,
    )
    def set_admin_password(self, context, instance, new_pass: str) -> None:
        self.guest.set_admin_password(context, instance, new_pass)

    def trigger_crash_dump(self, context, instance) -> None:
        self.guest.trigger_crash_dump(context, instance)

    @oslo_messaging.expected_exceptions(NotImplementedError)
    def get_host_uptime(self, context) -> str:
        return self.host_flow.get_host_uptime(context)

    # -- 1.5: snapshots, backups, rebuild -------------------------------------

    def snapshot_instance(self, context, image_id: str, instance) -> None:
        self.images.snapshot_instance(context, image_id, instance)

    def backup_instance(
        self, context, image_id: str, instance, backup_type: str, rotation: int
    ) -> None:
        self.images.backup_instance(context, image_id, instance, backup_type, rotation)

    def rebuild_instance(
        self,
        context,
        instance,
        orig_image_ref,
        image_ref,
        orig_sys_metadata,
        injected_files=None,
        new_pass=None,
        preserve_ephemeral=False,
        recreate=False,
        on_shared_storage=False,
        migration=None,
        scheduled_node=None,
        target_state=None,
    ) -> None:
        if recreate:
            self.evacuate.rebuild_instance(
                context,
                instance,
                new_pass,
                migration,
                scheduled_node,
                target_state,
            )
            return
        self.rebuild.rebuild_instance(
            context,
            instance,
            orig_image_ref,
            image_ref,
            orig_sys_metadata,
            injected_files=injected_files,
            new_pass=new_pass,
            preserve_ephemeral=preserve_ephemeral,
        )

    # -- 1.6: rescue and shelve -----------------------------------------------

    def rescue_instance(
        self,
        context,
        instance,
        rescue_password=None,
        rescue_image_ref=None,
        clean_shutdown: bool = True,
    ) -> None:
        self.rescue.rescue_instance(
            context, instance, rescue_password, rescue_image_ref, clean_shutdown
        )

    def unrescue_instance(self, context, instance) -> None:
        self.rescue.unrescue_instance(context, instance)

    def shelve_instance(
        self, context, instance, image_id: str, clean_shutdown: bool = True
    ) -> None:
        self.images.shelve_instance(context, instance, image_id, clean_shutdown)

    def shelve_offload_instance(
        self, context, instance, clean_shutdown: bool = True
    ) -> None:
        self.images.shelve_offload_instance(context, instance, clean_shutdown)

    def unshelve_instance(
        self, context, instance, image, filter_properties=None, node=None,
        request_spec=None,
    ) -> None:  # fmt: skip
        self.images.unshelve_instance(context, instance, image, node)

    # -- 1.7: the host's maintenance and power --------------------------------

    def host_maintenance_mode(self, context, host: str, mode: bool) -> str:
        return self.host_flow.host_maintenance_mode(context, host, mode)

    def host_power_action(self, context, action: str) -> str:
        return self.host_flow.host_power_action(context, action)

    # -- 1.8: soft delete -----------------------------------------------------

    def soft_delete_instance(self, context, instance) -> None:
        self.delete.soft_delete_instance(context, instance)

    def restore_instance(self, context, instance) -> None:
        self.delete.restore_instance(context, instance)

    # -- 1.11: interfaces -----------------------------------------------------

    @oslo_messaging.expected_exceptions(
        exception.Invalid,
        exception.NotFound,
        exception.Conflict,
        exception.InterfaceAttachFailed,
        exception.NetworkServiceUnavailable,
    )
    def attach_interface(
        self, context, instance, network_id, port_id, requested_ip, tag=None
    ) -> dict:
        vif = self.interfaces.attach_interface(
            context, instance, network_id, port_id, requested_ip, tag
        )
        # The model's parts are dict subclasses the RPC serializer cannot
        # rebuild: the caller gets plain JSON.
        return json.loads(json.dumps(vif))

    def detach_interface(self, context, instance, port_id: str) -> None:
        self.interfaces.detach_interface(context, instance, port_id)

    # -- 1.14: volumes --------------------------------------------------------

    def attach_volume(self, context, instance, bdm) -> None:
        self.volumes.attach_volume(context, instance, bdm)

    def detach_volume(self, context, instance, bdm) -> None:
        self.volumes.detach_volume(context, instance, bdm)

    # -- 1.12: resize and cold migration -------------------------------------

    def prep_resize(
        self,
        context,
        instance,
        flavor,
        migration,
        request_spec=None,
        node=None,
        clean_shutdown: bool = True,
    ) -> None:
        self.moves.prep_resize(
            context, instance, flavor, migration, node, clean_shutdown
        )

    def resize_instance(
        self, context, instance, migration, flavor, clean_shutdown: bool = True
    ) -> None:
        self.moves.resize_instance(context, instance, migration, flavor, clean_shutdown)

    def finish_resize(self, context, instance, migration, disk_info) -> None:
        self.moves.finish_resize(context, instance, migration, disk_info)

    def confirm_resize(self, context, instance, migration) -> None:
        self.moves.confirm_resize(context, instance, migration)

    def revert_resize(self, context, instance, migration) -> None:
        self.moves.revert_resize(context, instance, migration)

    def finish_revert_resize(self, context, instance, migration) -> None:
        self.moves.finish_revert_resize(context, instance, migration)

    # -- 1.13: live migration --------------------------------------------------

    @oslo_messaging.expected_exceptions(exception.NovaException)
    def check_can_live_migrate_destination(
        self, context, instance, block_migration, disk_over_commit
    ) -> dict:
        return self.moves.check_can_live_migrate_destination(
            context, instance, block_migration, disk_over_commit
        )

    def live_migration(
        self, context, instance, dest, block_migration, migration, migrate_data
    ) -> None:
        self.moves.live_migration(
            context, instance, dest, block_migration, migration, migrate_data
        )

    @oslo_messaging.expected_exceptions(exception.NovaException)
    def pre_live_migration(
        self, context, instance, block_migration, migrate_data
    ) -> dict:
        return self.moves.pre_live_migration(
            context, instance, block_migration, migrate_data
        )

    def post_live_migration_at_destination(
        self, context, instance, block_migration, migration
    ) -> None:
        self.moves.post_live_migration_at_destination(
            context, instance, block_migration, migration
        )

    def rollback_live_migration_at_destination(
        self, context, instance, migrate_data
    ) -> None:
        self.moves.rollback_live_migration_at_destination(
            context, instance, migrate_data
        )

    # -- 1.15: live migration, force_complete and abort ----------------------

    def live_migration_force_complete(self, context, instance, migration) -> None:
        self.moves.live_migration_force_complete(context, instance, migration)

    def live_migration_abort(self, context, instance, migration_id) -> None:
        self.moves.live_migration_abort(context, instance, migration_id)
