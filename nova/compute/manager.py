"""nova-compute: runs instances on its host through the virt driver.

nova-compute has no database: every object method it calls runs in its
cell's conductor (``NovaObject.indirection_api``, set by nova-compute's
console script). State changes are compare-and-swap on the task state, so
a delete racing a build wins cleanly.

Builds run on their own pool of ``max_concurrent_builds`` threads, so that
RPC threads stay free for deletes; a stopping service waits for them.
"""

from __future__ import annotations

import collections
import concurrent.futures
import contextlib
import dataclasses
import datetime
import json
import threading
import types

import oslo_messaging
from oslo_log import log as logging

import nova.conf
from nova import context as nova_context
from nova import exception, manager, objects, placement
from nova.compute import build_retry, instance_actions, usage_audit
from nova.compute import utils as compute_utils
from nova.compute.resource_tracker import ResourceTracker
from nova.conductor import rpcapi as conductor_rpcapi
from nova.image import api as image_api
from nova.objects import base as objects_base
from nova.scheduler.filters import affinity_filter, image_props_filter
from nova.states import power_state, task_states, vm_states
from nova.virt import driver as virt_driver

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

BUILD_EVENT = "compute_build_and_run_instance"
TERMINATE_EVENT = "compute_terminate_instance"
REBUILD_EVENT = "compute_rebuild_instance"
# Used when [DEFAULT] update_resources_interval is 0.
DEFAULT_RESOURCES_INTERVAL = 60
CONSOLE_TOKEN_CLEANUP_INTERVAL = 600
# Upstream's default periodic spacing: the audit runs at most once per
# period anyway, the task log says whether it did.
INSTANCE_USAGE_AUDIT_INTERVAL = 60
# A semaphore needs a size; 0 in max_concurrent_snapshots means no limit.
SNAPSHOTS_UNLIMITED = 2**31
# Task states in which a snapshot or backup is under way.
IMAGE_TASK_STATES = [
    task_states.IMAGE_SNAPSHOT_PENDING,
    task_states.IMAGE_SNAPSHOT,
    task_states.IMAGE_BACKUP,
    task_states.IMAGE_PENDING_UPLOAD,
    task_states.IMAGE_UPLOADING,
]
# How often rescued instances are checked against [DEFAULT] rescue_timeout.
RESCUED_POLL_INTERVAL = 60
# System metadata of a shelved instance, gone once it is unshelved.
SHELVED_KEYS = ("shelved_at", "shelved_image_id", "shelved_host")
# The driver's snapshot progress, as a shelve's task states say it.
_SHELVE_IMAGE_TASK_STATES = {
    task_states.IMAGE_PENDING_UPLOAD: task_states.SHELVING_IMAGE_PENDING_UPLOAD,
    task_states.IMAGE_UPLOADING: task_states.SHELVING_IMAGE_UPLOADING,
}
SHELVING_TASK_STATES = [
    task_states.SHELVING,
    task_states.SHELVING_IMAGE_PENDING_UPLOAD,
    task_states.SHELVING_IMAGE_UPLOADING,
]


class _InstanceLocks:
    """One lock per instance uuid: a build and a delete of the same
    instance never interleave on this host."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[str, threading.Lock] = collections.defaultdict(threading.Lock)

    def __call__(self, uuid: str) -> threading.Lock:
        with self._guard:
            return self._locks[uuid]

    def release(self, uuid: str) -> None:
        with self._guard:
            self._locks.pop(uuid, None)


@dataclasses.dataclass
class _BuildRequest:
    """What build_and_run_instance was given, kept for a reschedule."""

    image: dict
    request_spec: object
    filter_properties: dict
    admin_password: str | None
    injected_files: list | None
    requested_networks: object
    security_groups: object
    block_device_mapping: object
    node: str | None
    host_list: list


def _shutdown_timeouts(clean_shutdown: bool) -> tuple[int, int]:
    """The driver's power_off (timeout, retry_interval): by ACPI first
    when ``clean_shutdown``, else at once."""
    if not clean_shutdown:
        return 0, 0
    return CONF.shutdown_timeout, CONF.compute.shutdown_retry_interval


def _mark_offloaded(instance) -> None:
    """Make ``instance`` SHELVED_OFFLOADED: on no host, no guest, no task
    (the caller saves it)."""
    instance.host = None
    instance.node = None
    instance.compute_id = None
    instance.power_state = power_state.NOSTATE
    instance.vm_state = vm_states.SHELVED_OFFLOADED
    instance.task_state = None


def _hard_policy_group(request_spec):
    """The request's server group when its policy is checked on the host."""
    if request_spec is None or "instance_group" not in request_spec:
        return None
    group = request_spec.instance_group
    if group is None or group.policy not in ("affinity", "anti-affinity"):
        return None
    return group


class ComputeManager(manager.Manager):
    target = oslo_messaging.Target(version="1.8")

    def __init__(self, host: str) -> None:
        super().__init__(host, "compute")
        self.driver = virt_driver.load_compute_driver(CONF.compute_driver)
        self.rt = ResourceTracker(host, self.driver)
        self.service_ref = None
        workers = CONF.max_concurrent_builds or None
        self._builds = concurrent.futures.ThreadPoolExecutor(
            max_workers=workers, thread_name_prefix="build"
        )
        self._instance_lock = _InstanceLocks()
        # Per server group: late checks of one group on this host in turn.
        self._group_locks = _InstanceLocks()
        # Snapshots copy whole disks: at most max_concurrent_snapshots at once.
        self._snapshots = threading.BoundedSemaphore(
            CONF.max_concurrent_snapshots or SNAPSHOTS_UNLIMITED
        )
        # Lifecycle events are handled off libvirt's event thread, in order.
        self._events = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="lifecycle"
        )

    # -- service lifecycle -----------------------------------------------

    def init_host(self, service_ref) -> None:
        self.service_ref = service_ref
        self.driver.init_host(self.host)
        self.driver.register_event_listener(self._handle_lifecycle_event)
        context = nova_context.get_admin_context()
        self._recover_instances(context)
        self._update_resources(context)

    def cleanup_host(self) -> None:
        # In-flight builds finish: their instances must not stay BUILDING.
        self._builds.shutdown(wait=True)
        self._events.shutdown(wait=False, cancel_futures=True)
        self.driver.cleanup_host(self.host)

    def periodic_tasks(self) -> list[manager.PeriodicTask]:
        interval = CONF.update_resources_interval or DEFAULT_RESOURCES_INTERVAL
        tasks = [
            manager.PeriodicTask(
                "update_available_resource", self._update_resources, interval
            ),
            manager.PeriodicTask(
                "cleanup_expired_console_auth_tokens",
                self._cleanup_expired_console_auth_tokens,
                CONSOLE_TOKEN_CLEANUP_INTERVAL,
            ),
        ]
        if CONF.sync_power_state_interval > 0:
            tasks.append(
                manager.PeriodicTask(
                    "sync_power_states",
                    self._sync_power_states,
                    CONF.sync_power_state_interval,
                )
            )
        if CONF.instance_usage_audit:
            tasks.append(
                manager.PeriodicTask(
                    "instance_usage_audit",
                    self._instance_usage_audit,
                    INSTANCE_USAGE_AUDIT_INTERVAL,
                    # A compute that was down when a period ended audits
                    # it as soon as it is back.
                    run_immediately=True,
                )
            )
        if CONF.reclaim_instance_interval > 0:
            tasks.append(
                manager.PeriodicTask(
                    "reclaim_queued_deletes",
                    self._reclaim_queued_deletes,
                    CONF.reclaim_instance_interval,
                )
            )
        if CONF.rescue_timeout > 0:
            tasks.append(
                manager.PeriodicTask(
                    "poll_rescued_instances",
                    self._poll_rescued_instances,
                    min(RESCUED_POLL_INTERVAL, CONF.rescue_timeout),
                )
            )
        if CONF.shelved_offload_time > 0 and CONF.shelved_poll_interval > 0:
            tasks.append(
                manager.PeriodicTask(
                    "poll_shelved_instances",
                    self._poll_shelved_instances,
                    CONF.shelved_poll_interval,
                )
            )
        if CONF.image_cache.manager_interval > 0:
            tasks.append(
                manager.PeriodicTask(
                    "manage_image_cache",
                    self._manage_image_cache,
                    CONF.image_cache.manager_interval,
                )
            )
        return tasks

    def _update_resources(self, context) -> None:
        self.rt.update_available_resource(context, self.service_ref.id)
        # The service may have been disabled through the API while this
        # compute could not be told.
        service = objects.Service.get_by_id(context, self.service_ref.id)
        self.rt.set_status_trait(context, service.disabled)

    def set_host_enabled(self, context, enabled: bool) -> str:
        """Reflect the host's enabled flag in Placement now, then tell the
        hypervisor (os-hosts' status update).

        :returns: ``"enabled"`` or ``"disabled"``.
        :raises NotImplementedError: the driver has no such notion.
        """
        self.rt.set_status_trait(context, not enabled)
        return self.driver.set_host_enabled(enabled)

    def host_maintenance_mode(self, context, host: str, mode: bool) -> str:
        """:returns: ``"on_maintenance"`` or ``"off_maintenance"``.

        :raises NotImplementedError: the driver cannot do it.
        """
        return self.driver.host_maintenance_mode(host, mode)

    def host_power_action(self, context, action: str) -> str:
        """:raises NotImplementedError: the driver cannot do it."""
        return self.driver.host_power_action(action)

    def _instance_usage_audit(self, context) -> None:
        usage_audit.audit_host(context, self.host)

    @staticmethod
    def _cleanup_expired_console_auth_tokens(context) -> None:
        # Expired tokens are refused anyway; this only keeps the table small.
        objects.ConsoleAuthToken.clean_expired_console_auths(context)

    def _recover_instances(self, context) -> None:
        """Settle instances a previous run of this service left mid-task.

        A build in progress cannot be resumed: the instance goes to ERROR
        with a fault saying so. A delete in progress is finished.
        """
        instances = objects.InstanceList.get_by_host(context, self.host)
        for instance in instances:
            if instance.task_state == task_states.DELETING:
                LOG.info("Finishing the interrupted delete of %s", instance.uuid)
                self._delete_instance(context, instance)
            elif instance.vm_state == vm_states.BUILDING:
                LOG.warning(
                    "Instance %s was building when %s stopped", instance.uuid, self.host
                )
                self._fail_build(
                    context,
                    instance,
                    exception.BuildAbortException(
                        instance_uuid=instance.uuid,
                        reason="the compute service restarted during the build",
                    ),
                )
            else:
                self._init_instance_power(context, instance)

    # -- build --------------------------------------------------------------

    def build_and_run_instance(
        self,
        context,
        instance,
        image,
        request_spec,
        filter_properties,
        admin_password=None,
        injected_files=None,
        requested_networks=None,
        security_groups=None,
        block_device_mapping=None,
        node=None,
        limits=None,
        host_list=None,
    ) -> None:
        """Start building; the build runs on the build pool.

        ``host_list`` is the scheduler's choice for this host first, then
        the alternates a failed build is rescheduled to.
        """
        build = _BuildRequest(
            image=image,
            request_spec=request_spec,
            filter_properties=dict(filter_properties or {}),
            admin_password=admin_password,
            injected_files=injected_files,
            requested_networks=requested_networks,
            security_groups=security_groups,
            block_device_mapping=block_device_mapping,
            node=node,
            host_list=list(host_list or []),
        )
        self._builds.submit(self._build, context, instance, build)

    def _build(self, context, instance, build: _BuildRequest) -> None:
        # Log lines of this thread carry the request's ids.
        context.update_store()
        with self._instance_lock(instance.uuid):
            try:
                with compute_utils.EventReporter(
                    context, BUILD_EVENT, self.host, instance.uuid
                ):
                    self._build_and_run(
                        context,
                        instance,
                        build.image,
                        build.node,
                        build.admin_password,
                        build.injected_files,
                        build.host_list[0] if build.host_list else None,
                        build.request_spec,
                    )
                self.rt.build_finished(context, build.node, failed=False)
            except (
                exception.UnexpectedDeletingTaskStateError,
                exception.InstanceNotFound,
            ):
                # Deleted by its user meanwhile: nothing to keep.
                LOG.info("Instance %s was deleted during its build", instance.uuid)
                self._clean_up_guest(context, instance)
            except exception.RescheduledException as exc:
                self.rt.build_finished(context, build.node, failed=True)
                self._reschedule(context, instance, build, exc)
            except Exception as exc:  # every failure ends in ERROR with a fault
                LOG.exception("Build of instance %s failed", instance.uuid)
                self.rt.build_finished(context, build.node, failed=True)
                self._fail_build(context, instance, exc)

    def _build_and_run(
        self,
        context,
        instance,
        image,
        node,
        admin_password,
        injected_files,
        selection,
        request_spec=None,
    ) -> None:
        compute_node = self.rt.compute_nodes.get(node) if node else None
        instance.vm_state = vm_states.BUILDING
        instance.task_state = task_states.SPAWNING
        instance.host = self.host
        instance.node = node or self.host
        instance.launched_on = self.host
        if compute_node is not None:
            instance.compute_id = compute_node.id
        group = _hard_policy_group(request_spec)
        if group is None:
            instance.save(expected_task_state=[task_states.SCHEDULING, None])
        else:
            # Taking the host and checking the group in one step, builds of
            # one group on this host see each other (the first one wins).
            with self._group_locks(group.uuid):
                instance.save(expected_task_state=[task_states.SCHEDULING, None])
                self._validate_instance_group_policy(context, instance, group)

        allocations = self._allocations(context, instance, selection)
        image_meta = objects.ImageMeta.from_dict(image)
        try:
            self.driver.spawn(
                context,
                instance,
                image_meta,
                injected_files or [],
                admin_password,
                allocations,
                network_info=[],
            )
        except (
            exception.BuildAbortException,
            exception.UnexpectedDeletingTaskStateError,
            exception.InstanceNotFound,
        ):
            raise
        except Exception as exc:
            # Another host may do better: the build goes to an alternate.
            LOG.warning("Spawn of %s failed on %s: %s", instance.uuid, self.host, exc)
            raise exception.RescheduledException(
                instance_uuid=instance.uuid,
                reason=compute_utils.exception_message(exc),
            ) from exc
        instance.power_state = self.driver.get_info(instance).state
        instance.vm_state = vm_states.ACTIVE
        instance.task_state = None
        instance.launched_at = objects_base.utcnow()
        instance.save(expected_task_state=task_states.SPAWNING)
        LOG.info("Instance %s is ACTIVE on %s", instance.uuid, self.host)

    def _validate_instance_group_policy(self, context, instance, group) -> None:
        """The late check: the scheduler placed this build with what it
        knew then; a concurrent build of the same group may have landed
        here since.

        :raises RescheduledException: this host breaks the group's policy.
        """
        if CONF.workarounds.disable_group_policy_check_upcall:
            return
        try:
            hosts = group.get_hosts(exclude=[instance.uuid])
        except exception.DatabaseNotConfigured:
            # A cell conductor without [api_database] cannot answer; the
            # scheduler's check stands alone, as with the workaround set.
            LOG.warning(
                "Skipping the late server group check of %s: this cell's "
                "conductor has no [api_database] connection (set [workarounds] "
                "disable_group_policy_check_upcall to silence this)",
                instance.uuid,
            )
            return
        if group.policy == "anti-affinity":
            if hosts.count(self.host) >= affinity_filter.max_server_per_host(group):
                raise exception.RescheduledException(
                    instance_uuid=instance.uuid,
                    reason="Anti-affinity instance group policy was violated.",
                )
        elif hosts and self.host not in hosts:
            raise exception.RescheduledException(
                instance_uuid=instance.uuid,
                reason="Affinity instance group policy was violated.",
            )

    def _reschedule(self, context, instance, build: _BuildRequest, exc) -> None:
        """Free this host and hand the build to the cell conductor for the
        next alternate; with none left, ERROR with every attempt named."""
        retry = build_retry.record_attempt(
            build.filter_properties, self.host, build.node, exc.kwargs.get("reason", "")
        )
        alternates = build.host_list[1:]
        if not alternates or not build_retry.attempts_left(build.filter_properties):
            LOG.warning(
                "Build of %s failed on %s; no host left", instance.uuid, self.host
            )
            self._fail_build(
                context,
                instance,
                build_retry.exhausted(instance.uuid, build.filter_properties),
            )
            return
        LOG.info(
            "Rescheduling %s from %s (attempt %d): %s",
            instance.uuid,
            self.host,
            retry["num_attempts"],
            exc.format_message(),
        )
        self._clean_up_guest(context, instance)
        instance.host = None
        instance.node = None
        instance.launched_on = None
        instance.compute_id = None
        instance.task_state = task_states.SCHEDULING
        try:
            instance.save(expected_task_state=task_states.SPAWNING)
        except (exception.InstanceNotFound, exception.UnexpectedDeletingTaskStateError):
            LOG.info("Instance %s was deleted during its build", instance.uuid)
            return
        conductor_rpcapi.ComputeTaskAPI().build_instances(
            context,
            instances=[instance],
            image=build.image,
            filter_properties=build.filter_properties,
            admin_password=build.admin_password,
            injected_files=build.injected_files,
            requested_networks=build.requested_networks,
            security_groups=build.security_groups,
            block_device_mapping=build.block_device_mapping,
            request_spec=build.request_spec,
            host_lists=[alternates],
        )

    @staticmethod
    def _allocations(context, instance, selection) -> dict:
        """What the scheduler claimed for the instance: the selection says,
        saving Placement a request per build; else Placement does."""
        if selection is not None and selection.allocation_request:
            return json.loads(selection.allocation_request)["allocations"]
        return (
            placement.client()
            .get_allocations_for_consumer(instance.uuid, context=context)
            .allocations
        )

    def _fail_build(self, context, instance, exc: BaseException) -> None:
        """ERROR with a fault; the guest and the allocations go."""
        self._clean_up_guest(context, instance)
        self._end_task_with_fault(context, instance, exc, vm_states.ERROR)

    def _clean_up_guest(self, context, instance) -> None:
        try:
            self.driver.destroy(context, instance)
        except Exception:  # the instance's outcome is recorded anyway
            LOG.exception("Could not destroy the guest of %s", instance.uuid)
        self._remove_allocations(context, instance)

    def _remove_allocations(self, context, instance) -> None:
        try:
            placement.client().remove_allocations(instance.uuid, context=context)
        except Exception:  # left for `nova-manage placement audit`
            LOG.exception("Could not remove the allocations of %s", instance.uuid)

    # -- external events ----------------------------------------------------

    def external_instance_event(self, context, instances, events) -> None:
        """Events other services report about instances of this host.

        Nothing here waits for them yet (no network or volume service is
        integrated), so each is recorded in the log.
        """
        for event in events:
            LOG.info(
                "Received event %s (status %s, tag %s) for instance %s",
                event.get("name"),
                event.get("status"),
                event.get("tag"),
                event.get("instance_uuid"),
            )

    # -- consoles -----------------------------------------------------------

    @oslo_messaging.expected_exceptions(
        exception.InstanceNotFound, exception.ConsoleTypeUnavailable
    )
    def get_vnc_console(self, context, instance, console_type: str) -> dict:
        """Where the instance's VNC server listens (``host``, ``port``)."""
        if not CONF.vnc.enabled:
            raise exception.ConsoleTypeUnavailable(console_type=console_type)
        if instance.host != self.host:
            raise exception.InstanceNotFound(instance_id=instance.uuid)
        console = self.driver.get_vnc_console(context, instance)
        return {"host": console["host"], "port": int(console["port"])}

    # -- delete -------------------------------------------------------------

    def terminate_instance(self, context, instance, bdms=None) -> None:
        """Destroy the guest, free the allocations, soft-delete the instance."""
        with self._instance_lock(instance.uuid):
            with compute_utils.EventReporter(
                context, TERMINATE_EVENT, self.host, instance.uuid
            ):
                self._delete_instance(context, instance)
        self._instance_lock.release(instance.uuid)

    def _delete_instance(self, context, instance) -> None:
        self.driver.destroy(context, instance)
        # Its console URLs die with it.
        objects.ConsoleAuthToken.clean_console_auths_for_instance(
            context, instance.uuid
        )
        instance.vm_state = vm_states.DELETED
        instance.task_state = None
        instance.power_state = power_state.NOSTATE
        instance.terminated_at = objects_base.utcnow()
        try:
            instance.save()
            self._remove_allocations(context, instance)
            instance.destroy()
        except exception.InstanceNotFound:
            LOG.info("Instance %s was already deleted", instance.uuid)
            self._remove_allocations(context, instance)
        LOG.info("Instance %s deleted from %s", instance.uuid, self.host)

    # -- soft delete ----------------------------------------------------------

    def soft_delete_instance(self, context, instance) -> None:
        """Power the guest off and keep the instance (and its allocations)
        as SOFT_DELETED until it is restored or reclaimed."""
        with self._power_action(
            context, instance, "soft_delete_instance", task_states.SOFT_DELETING
        ):
            self.driver.power_off(instance)
            self._finish_power_action(
                instance, vm_states.SOFT_DELETED, task_states.SOFT_DELETING
            )

    def restore_instance(self, context, instance) -> None:
        """Power a soft-deleted instance's guest back on."""
        with self._power_action(
            context, instance, "restore_instance", task_states.RESTORING
        ):
            self.driver.power_on(context, instance, [])
            self._finish_power_action(instance, vm_states.ACTIVE, task_states.RESTORING)

    def _reclaim_queued_deletes(self, context) -> None:
        """Delete for good this host's instances soft-deleted longer than
        ``reclaim_instance_interval`` seconds ago."""
        interval = CONF.reclaim_instance_interval
        if interval <= 0:
            return
        instances = objects.InstanceList.get_by_filters(
            context, {"host": self.host, "vm_state": vm_states.SOFT_DELETED}
        )
        deadline = objects_base.utcnow() - datetime.timedelta(seconds=interval)
        for instance in instances:
            deleted_at = instance.deleted_at
            if instance.task_state is not None or (
                deleted_at is not None and deleted_at.replace(tzinfo=None) > deadline
            ):
                continue
            LOG.info("Reclaiming soft-deleted instance %s", instance.uuid)
            try:
                instance.task_state = task_states.DELETING
                instance.save(
                    expected_vm_state=vm_states.SOFT_DELETED, expected_task_state=[None]
                )
            except (exception.InstanceNotFound, exception.InstanceInvalidState):
                continue  # restored or deleted meanwhile
            self.terminate_instance(context, instance)

    # -- power ----------------------------------------------------------------

    @contextlib.contextmanager
    def _power_action(self, context, instance, event: str, expected_task_state):
        """Run one power action on the instance alone, recorded as the
        ``compute_<event>`` event of its action. A failure leaves a fault
        and clears the task, so the user can try again."""
        with self._instance_lock(instance.uuid):
            try:
                with compute_utils.EventReporter(
                    context, f"compute_{event}", self.host, instance.uuid
                ):
                    yield
            except Exception as exc:  # a cast has no caller to tell
                LOG.exception("%s of instance %s failed", event, instance.uuid)
                try:
                    compute_utils.add_instance_fault_from_exc(
                        context, instance, exc, self.host
                    )
                    instance.task_state = None
                    instance.save(expected_task_state=expected_task_state)
                except (exception.InstanceNotFound, exception.InstanceInvalidState):
                    LOG.info("Instance %s changed during its %s", instance.uuid, event)

    def _current_power_state(self, instance) -> int:
        try:
            return self.driver.get_info(instance).state
        except exception.InstanceNotFound:
            return power_state.NOSTATE

    def _finish_power_action(self, instance, vm_state: str, expected_task_state):
        instance.power_state = self._current_power_state(instance)
        instance.vm_state = vm_state
        instance.task_state = None
        instance.save(expected_task_state=expected_task_state)
        LOG.info("Instance %s is %s", instance.uuid, vm_state)

    def stop_instance(self, context, instance, clean_shutdown: bool = True) -> None:
        """Power the guest off, by ACPI first when ``clean_shutdown``."""
        with self._power_action(
            context, instance, "stop_instance", task_states.POWERING_OFF
        ):
            self.driver.power_off(instance, *_shutdown_timeouts(clean_shutdown))
            self._finish_power_action(
                instance, vm_states.STOPPED, task_states.POWERING_OFF
            )

    def start_instance(self, context, instance) -> None:
        with self._power_action(
            context, instance, "start_instance", task_states.POWERING_ON
        ):
            self.driver.power_on(context, instance, [])
            # Unshelving a server not yet offloaded starts it.
            self._forget_shelved_image(context, instance)
            self._finish_power_action(
                instance, vm_states.ACTIVE, task_states.POWERING_ON
            )

    def reboot_instance(
        self, context, instance, block_device_info=None, reboot_type: str = "SOFT"
    ) -> None:
        """Reboot SOFT (ACPI, then hard if the guest ignores it) or HARD."""
        expected = [task_states.REBOOTING, task_states.REBOOTING_HARD]
        with self._power_action(context, instance, "reboot_instance", expected):
            self.driver.reboot(context, instance, [], reboot_type)
            self._finish_power_action(instance, vm_states.ACTIVE, expected)

    def pause_instance(self, context, instance) -> None:
        with self._power_action(
            context, instance, "pause_instance", task_states.PAUSING
        ):
            self.driver.pause(instance)
            self._finish_power_action(instance, vm_states.PAUSED, task_states.PAUSING)

    def unpause_instance(self, context, instance) -> None:
        with self._power_action(
            context, instance, "unpause_instance", task_states.UNPAUSING
        ):
            self.driver.unpause(instance)
            self._finish_power_action(instance, vm_states.ACTIVE, task_states.UNPAUSING)

    def suspend_instance(self, context, instance) -> None:
        with self._power_action(
            context, instance, "suspend_instance", task_states.SUSPENDING
        ):
            self.driver.suspend(context, instance)
            self._finish_power_action(
                instance, vm_states.SUSPENDED, task_states.SUSPENDING
            )

    def resume_instance(self, context, instance) -> None:
        with self._power_action(
            context, instance, "resume_instance", task_states.RESUMING
        ):
            self.driver.resume(context, instance, [])
            self._finish_power_action(instance, vm_states.ACTIVE, task_states.RESUMING)

    # -- rebuild --------------------------------------------------------------

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
    ) -> None:
        """Destroy the guest and spawn it again from ``image_ref``.

        A changed image must suit this host (ImagePropertiesFilter's
        rule): if not, the instance gets its old image back, a fault, and
        keeps its state. A failed spawn leaves the instance in ERROR.
        """
        with self._instance_lock(instance.uuid):
            try:
                with compute_utils.EventReporter(
                    context, REBUILD_EVENT, self.host, instance.uuid
                ):
                    self._rebuild(
                        context,
                        instance,
                        orig_image_ref,
                        image_ref,
                        orig_sys_metadata,
                        injected_files,
                        new_pass,
                    )
            except (
                exception.InstanceNotFound,
                exception.UnexpectedDeletingTaskStateError,
            ):
                LOG.info("Instance %s was deleted during its rebuild", instance.uuid)
            except exception.ImageUnacceptable as exc:
                LOG.warning("Rebuild of %s refused: %s", instance.uuid, exc)
                instance.image_ref = orig_image_ref
                instance.system_metadata = orig_sys_metadata
                self._end_task_with_fault(context, instance, exc, instance.vm_state)
            except Exception as exc:  # the guest is gone: ERROR with a fault
                LOG.exception("Rebuild of instance %s failed", instance.uuid)
                self._end_task_with_fault(context, instance, exc, vm_states.ERROR)

    def _end_task_with_fault(self, context, instance, exc, vm_state: str) -> None:
        """Record ``exc`` as the instance's fault, end its task in
        ``vm_state``; an instance deleted meanwhile is let go."""
        try:
            compute_utils.add_instance_fault_from_exc(context, instance, exc, self.host)
            instance.vm_state = vm_state
            instance.task_state = None
            instance.save()
        except (exception.InstanceNotFound, exception.UnexpectedDeletingTaskStateError):
            LOG.info("Instance %s was deleted meanwhile", instance.uuid)

    def _check_image_fits_host(self, image, instance) -> None:
        """:raises ImageUnacceptable: the host cannot run what the image
        asks for (architecture, hypervisor type, VM mode)."""
        node = instance.node or self.host
        supported = self.driver.get_available_resource(node).get(
            "supported_instances", []
        )
        host_state = types.SimpleNamespace(supported_instances=supported)
        spec = objects.RequestSpec(image=objects.ImageMeta.from_dict(image))
        if not image_props_filter.ImagePropertiesFilter().host_passes(host_state, spec):
            raise exception.ImageUnacceptable(
                image_id=image.get("id"),
                reason=f"host {self.host} cannot run the image's architecture, "
                "hypervisor type or VM mode",
            )

    def _rebuild(
        self,
        context,
        instance,
        orig_image_ref,
        image_ref,
        orig_sys_metadata,
        injected_files,
        new_pass,
    ) -> None:
        image = image_api.get_image_api().show(context, image_ref)
        if image_ref != orig_image_ref:
            self._check_image_fits_host(image, instance)
        was_stopped = instance.vm_state == vm_states.STOPPED
        allocations = self._allocations(context, instance, None)
        self.driver.destroy(context, instance)
        instance.power_state = power_state.NOSTATE
        instance.task_state = task_states.REBUILD_BLOCK_DEVICE_MAPPING
        instance.save(expected_task_state=task_states.REBUILDING)
        instance.task_state = task_states.REBUILD_SPAWNING
        instance.save(expected_task_state=task_states.REBUILD_BLOCK_DEVICE_MAPPING)
        self.driver.spawn(
            context,
            instance,
            objects.ImageMeta.from_dict(image),
            injected_files or [],
            new_pass,
            allocations,
            network_info=[],
            power_on=not was_stopped,
        )
        instance.power_state = self._current_power_state(instance)
        instance.vm_state = vm_states.STOPPED if was_stopped else vm_states.ACTIVE
        instance.task_state = None
        instance.launched_at = objects_base.utcnow()
        instance.save(expected_task_state=task_states.REBUILD_SPAWNING)
        LOG.info("Instance %s rebuilt from image %s", instance.uuid, image_ref)

    # -- snapshots and backups ------------------------------------------------

    def snapshot_instance(self, context, image_id: str, instance) -> None:
        """Upload the guest's root disk as the queued image ``image_id``."""
        self._snapshot(
            context, image_id, instance, "snapshot_instance", task_states.IMAGE_SNAPSHOT
        )

    def backup_instance(
        self, context, image_id: str, instance, backup_type: str, rotation: int
    ) -> None:
        """A snapshot as ``image_id``, then the oldest backups of this
        instance and ``backup_type`` beyond ``rotation`` are deleted."""
        if self._snapshot(
            context, image_id, instance, "backup_instance", task_states.IMAGE_BACKUP
        ):
            self._rotate_backups(context, instance, backup_type, rotation)

    def _snapshot(
        self, context, image_id: str, instance, event: str, task_state: str
    ) -> bool:
        """Whether the image got its data; on failure the half-made image
        goes, the task is cleared and a fault says why."""
        done = False
        with self._power_action(context, instance, event, IMAGE_TASK_STATES):

            def update_task_state(task_state, expected_state=task_state):
                instance.task_state = task_state
                instance.save(expected_task_state=expected_state)

            try:
                update_task_state(
                    task_state, [task_state, task_states.IMAGE_SNAPSHOT_PENDING]
                )
                if self._current_power_state(instance) != power_state.RUNNING:
                    LOG.info("Taking a snapshot of %s while it is not running",
                             instance.uuid)  # fmt: skip
                with self._snapshots:
                    self.driver.snapshot(context, instance, image_id, update_task_state)
            except exception.ImageNotFound:
                # Its owner deleted the image meanwhile: nothing went wrong
                # with the server.
                LOG.info("Image %s was deleted during the snapshot of %s",
                         image_id, instance.uuid)  # fmt: skip
                instance.task_state = None
                instance.save(expected_task_state=IMAGE_TASK_STATES)
                return False
            except BaseException:
                self._delete_unfinished_image(context, image_id)
                raise
            instance.task_state = None
            instance.save(expected_task_state=task_states.IMAGE_UPLOADING)
            done = True
            LOG.info("Instance %s saved as image %s", instance.uuid, image_id)
        return done

    def _delete_unfinished_image(self, context, image_id: str) -> None:
        images = image_api.get_image_api()
        try:
            if images.show(context, image_id).get("status") != "active":
                images.delete(context, image_id)
        except exception.ImageNotFound:
            pass
        except Exception:  # the snapshot's own failure is what matters
            LOG.exception("Could not delete the unfinished image %s", image_id)

    @staticmethod
    def _rotate_backups(context, instance, backup_type: str, rotation: int) -> None:
        images = image_api.get_image_api()
        backups = images.get_all(
            context,
            {
                "instance_uuid": instance.uuid,
                "image_type": "backup",
                "backup_type": backup_type,
                "sort_key": "created_at",
                "sort_dir": "desc",
            },
        )
        for image in backups[rotation:]:
            LOG.info("Deleting backup %s of %s (rotation %d)",
                     image["id"], instance.uuid, rotation)  # fmt: skip
            try:
                images.delete(context, image["id"])
            except exception.ImageNotFound:
                pass

    # -- rescue ---------------------------------------------------------------

    def rescue_instance(
        self,
        context,
        instance,
        rescue_password=None,
        rescue_image_ref=None,
        clean_shutdown: bool = True,
    ) -> None:
        """Boot the guest from the rescue image (the instance's own when
        none is named) with its root disk attached second: RESCUED.

        The rescue clock of ``[DEFAULT] rescue_timeout`` starts now (upstream
        keeps it in ``launched_at``).
        """
        with self._power_action(
            context, instance, "rescue_instance", task_states.RESCUING
        ):
            image_ref = rescue_image_ref or instance.image_ref
            self._power_off_for(instance, clean_shutdown)
            self.driver.rescue(
                context,
                instance,
                [],
                objects.ImageMeta.from_dict({"id": image_ref}),
                rescue_password,
            )
            instance.launched_at = objects_base.utcnow()
            self._finish_power_action(instance, vm_states.RESCUED, task_states.RESCUING)

    def unrescue_instance(self, context, instance) -> None:
        """Boot the guest from its own disk again: ACTIVE."""
        with self._power_action(
            context, instance, "unrescue_instance", task_states.UNRESCUING
        ):
            self.driver.unrescue(context, instance)
            self._finish_power_action(
                instance, vm_states.ACTIVE, task_states.UNRESCUING
            )

    def _poll_rescued_instances(self, context) -> None:
        """Unrescue the instances rescued longer than ``[DEFAULT]
        rescue_timeout`` ago, as their users would."""
        timeout = CONF.rescue_timeout
        if timeout <= 0:
            return
        now = objects_base.utcnow()
        for instance in objects.InstanceList.get_by_host(context, self.host):
            if (
                instance.vm_state != vm_states.RESCUED
                or instance.task_state is not None
                or instance.launched_at is None
                or (now - instance.launched_at.replace(tzinfo=None)).total_seconds()
                < timeout
            ):
                continue
            LOG.info(
                "Unrescuing %s: rescued for more than %d s", instance.uuid, timeout
            )
            instance.task_state = task_states.UNRESCUING
            try:
                instance.save(expected_task_state=[None])
            except (exception.InstanceNotFound, exception.InstanceInvalidState):
                continue
            objects.InstanceAction.action_start(
                context, instance.uuid, instance_actions.UNRESCUE, want_result=False
            )
            self.unrescue_instance(context, instance)

    # -- shelve ---------------------------------------------------------------

    def shelve_instance(
        self, context, instance, image_id: str, clean_shutdown: bool = True
    ) -> None:
        """Power the guest off and upload its root disk as the queued image
        ``image_id``: SHELVED; offloaded at once when
        ``[DEFAULT] shelved_offload_time`` is 0."""
        shelved = False
        with self._power_action(
            context, instance, "shelve_instance", SHELVING_TASK_STATES
        ):
            self._power_off_for(instance, clean_shutdown)

            def update_task_state(task_state, expected_state=None):
                instance.task_state = _SHELVE_IMAGE_TASK_STATES[task_state]
                instance.save(
                    expected_task_state=_SHELVE_IMAGE_TASK_STATES.get(
                        expected_state, task_states.SHELVING
                    )
                )

            try:
                with self._snapshots:
                    self.driver.snapshot(context, instance, image_id, update_task_state)
            except BaseException:
                self._delete_unfinished_image(context, image_id)
                raise
            sysmeta = dict(instance.system_metadata or {})
            sysmeta.update(
                shelved_at=objects_base.utcnow().isoformat(),
                shelved_image_id=image_id,
                shelved_host=self.host,
            )
            instance.system_metadata = sysmeta
            self._finish_power_action(
                instance, vm_states.SHELVED, task_states.SHELVING_IMAGE_UPLOADING
            )
            shelved = True
        if shelved and CONF.shelved_offload_time == 0:
            instance.task_state = task_states.SHELVING_OFFLOADING
            instance.save(expected_task_state=[None])
            self.shelve_offload_instance(context, instance, clean_shutdown=False)

    def shelve_offload_instance(
        self, context, instance, clean_shutdown: bool = True
    ) -> None:
        """Destroy the guest of a SHELVED instance and give its resources
        back: SHELVED_OFFLOADED, on no host."""
        with self._power_action(
            context,
            instance,
            "shelve_offload_instance",
            task_states.SHELVING_OFFLOADING,
        ):
            self._power_off_for(instance, clean_shutdown)
            self.driver.destroy(context, instance)
            self._remove_allocations(context, instance)
            _mark_offloaded(instance)
            instance.save(expected_task_state=task_states.SHELVING_OFFLOADING)
            LOG.info("Instance %s is shelved and offloaded", instance.uuid)

    def unshelve_instance(
        self, context, instance, image, filter_properties=None, node=None,
        request_spec=None,
    ) -> None:  # fmt: skip
        """Boot an offloaded instance here from its shelved image (the
        scheduler has claimed its resources on ``node``): ACTIVE. A failure
        gives the resources back and leaves it SHELVED_OFFLOADED with a
        fault, to be unshelved again."""
        with self._instance_lock(instance.uuid):
            try:
                with compute_utils.EventReporter(
                    context, "compute_unshelve_instance", self.host, instance.uuid
                ):
                    self._unshelve(context, instance, image, node)
            except (
                exception.InstanceNotFound,
                exception.UnexpectedDeletingTaskStateError,
            ):
                LOG.info("Instance %s was deleted during its unshelve", instance.uuid)
                self._clean_up_guest(context, instance)
            except Exception as exc:  # the instance must stay unshelvable
                LOG.exception("Unshelve of %s failed", instance.uuid)
                self._clean_up_guest(context, instance)
                compute_utils.add_instance_fault_from_exc(
                    context, instance, exc, self.host
                )
                _mark_offloaded(instance)
                instance.save()

    def _unshelve(self, context, instance, image, node) -> None:
        compute_node = self.rt.compute_nodes.get(node) if node else None
        instance.host = self.host
        instance.node = node or self.host
        if compute_node is not None:
            instance.compute_id = compute_node.id
        instance.task_state = task_states.SPAWNING
        instance.save(expected_task_state=task_states.UNSHELVING)
        allocations = self._allocations(context, instance, None)
        # The guest's disk comes from the shelved image; the server keeps
        # saying which image it was booted from.
        original_image_ref = instance.image_ref
        instance.image_ref = image["id"]
        try:
            self.driver.spawn(
                context,
                instance,
                objects.ImageMeta.from_dict(image),
                [],
                None,
                allocations,
                network_info=[],
            )
        finally:
            instance.image_ref = original_image_ref
        self._forget_shelved_image(context, instance)
        instance.power_state = self._current_power_state(instance)
        instance.vm_state = vm_states.ACTIVE
        instance.task_state = None
        instance.save(expected_task_state=task_states.SPAWNING)
        LOG.info("Instance %s is unshelved on %s", instance.uuid, self.host)

    def _forget_shelved_image(self, context, instance) -> None:
        """Delete the image a shelve made and the system metadata naming it."""
        sysmeta = dict(instance.system_metadata or {})
        image_id = sysmeta.get("shelved_image_id")
        if not image_id:
            return
        try:
            image_api.get_image_api().delete(context, image_id)
        except exception.ImageNotFound:
            pass
        except Exception:  # the server is back; the image is only litter
            LOG.exception("Could not delete the shelved image %s", image_id)
        for key in SHELVED_KEYS:
            sysmeta.pop(key, None)
        instance.system_metadata = sysmeta

    def _power_off_for(self, instance, clean_shutdown: bool) -> None:
        """Power the guest off before its disk is taken (by ACPI first
        when ``clean_shutdown``); a guest that is gone is off."""
        try:
            self.driver.power_off(instance, *_shutdown_timeouts(clean_shutdown))
        except exception.InstanceNotFound:
            LOG.info("Instance %s has no guest to power off", instance.uuid)

    def _poll_shelved_instances(self, context) -> None:
        """Offload the instances shelved longer than
        ``[DEFAULT] shelved_offload_time`` ago."""
        offload_time = CONF.shelved_offload_time
        if offload_time <= 0:
            return
        now = objects_base.utcnow()
        for instance in objects.InstanceList.get_by_host(context, self.host):
            if instance.vm_state != vm_states.SHELVED or instance.task_state:
                continue
            shelved_at = (instance.system_metadata or {}).get("shelved_at")
            if not shelved_at:
                continue
            age = now - datetime.datetime.fromisoformat(shelved_at).replace(tzinfo=None)
            if age.total_seconds() < offload_time:
                continue
            instance.task_state = task_states.SHELVING_OFFLOADING
            try:
                instance.save(expected_task_state=[None])
            except (exception.InstanceNotFound, exception.InstanceInvalidState):
                continue
            LOG.info("Offloading %s: shelved for %s", instance.uuid, age)
            self.shelve_offload_instance(context, instance, clean_shutdown=False)

    def get_console_output(self, context, instance, tail_length=None) -> str:
        """The guest's console log, its last ``tail_length`` lines if given."""
        output = self.driver.get_console_output(context, instance)
        if tail_length is None:
            return output
        length = int(tail_length)
        if length <= 0:
            return ""
        return "\n".join(output.split("\n")[-length:])

    # -- diagnostics, passwords, crash dumps, uptime -------------------------

    def _check_running(self, instance, method: str) -> None:
        """:raises InstanceInvalidState: the guest is not running."""
        current = self._current_power_state(instance)
        if current != power_state.RUNNING:
            raise exception.InstanceInvalidState(
                instance_uuid=instance.uuid,
                attr="power state",
                state=power_state.STATE_MAP.get(current, current),
                method=method,
            )

    @oslo_messaging.expected_exceptions(
        exception.InstanceInvalidState, NotImplementedError
    )
    def get_diagnostics(self, context, instance) -> dict:
        self._check_running(instance, "get_diagnostics")
        return self.driver.get_diagnostics(instance)

    @oslo_messaging.expected_exceptions(
        exception.InstanceInvalidState, NotImplementedError
    )
    def get_instance_diagnostics(self, context, instance) -> dict:
        self._check_running(instance, "get_instance_diagnostics")
        return self.driver.get_instance_diagnostics(instance)

    def _clear_password_task(self, instance) -> None:
        instance.task_state = None
        instance.save(expected_task_state=task_states.UPDATING_PASSWORD)

    @oslo_messaging.expected_exceptions(
        exception.InstancePasswordSetFailed,
        exception.InstanceAgentNotEnabled,
        exception.SetAdminPasswdNotSupported,
        exception.UnexpectedTaskStateError,
        NotImplementedError,
    )
    def set_admin_password(self, context, instance, new_pass: str) -> None:
        """Set the guest's administrator password. Whatever happens, the
        task is cleared; ``new_pass`` is never logged, nor is an error text
        that might quote it returned."""
        with self._instance_lock(instance.uuid):
            if self._current_power_state(instance) != power_state.RUNNING:
                self._clear_password_task(instance)
                raise exception.InstancePasswordSetFailed(
                    instance=instance.uuid,
                    reason=f"instance {instance.uuid} is not running",
                )
            try:
                self.driver.set_admin_password(instance, new_pass)
            except (
                exception.InstanceAgentNotEnabled,
                exception.SetAdminPasswdNotSupported,
                exception.InstancePasswordSetFailed,
            ):
                self._clear_password_task(instance)
                raise
            except NotImplementedError:
                self._clear_password_task(instance)
                raise NotImplementedError(
                    "set_admin_password is not implemented by this driver "
                    "or guest instance."
                ) from None
            except Exception:
                LOG.exception("Setting the password of %s failed", instance.uuid)
                self._clear_password_task(instance)
                raise exception.InstancePasswordSetFailed(
                    instance=instance.uuid, reason="error setting admin password"
                ) from None
            self._clear_password_task(instance)
        LOG.info("Admin password of instance %s set", instance.uuid)

    def trigger_crash_dump(self, context, instance) -> None:
        """Inject an NMI; a failure is recorded on the action's event (a
        cast has no caller to tell)."""
        try:
            with compute_utils.EventReporter(
                context, "compute_trigger_crash_dump", self.host, instance.uuid
            ):
                self.driver.trigger_crash_dump(instance)
        except Exception as exc:
            LOG.warning("Crash dump of %s failed: %s", instance.uuid, exc)
            compute_utils.add_instance_fault_from_exc(context, instance, exc, self.host)

    @oslo_messaging.expected_exceptions(NotImplementedError)
    def get_host_uptime(self, context) -> str:
        return self.driver.get_host_uptime()

    # -- power-state sync -----------------------------------------------------

    def _handle_lifecycle_event(self, event: virt_driver.LifecycleEvent) -> None:
        self._events.submit(self._sync_from_event, event)

    def _sync_from_event(self, event: virt_driver.LifecycleEvent) -> None:
        context = nova_context.get_admin_context()
        try:
            instance = objects.Instance.get_by_uuid(context, event.uuid)
        except exception.InstanceNotFound:
            return
        if instance.host == self.host:
            self._sync_instance_power_state(context, instance)

    def _sync_power_states(self, context) -> None:
        """Make every instance of this host agree with its guest."""
        for instance in objects.InstanceList.get_by_host(context, self.host):
            try:
                self._sync_instance_power_state(context, instance)
            except Exception:  # one instance must not stop the others
                LOG.exception("Could not sync the power state of %s", instance.uuid)

    def _sync_instance_power_state(self, context, instance) -> None:
        """Record the guest's power state and act on what it means: a guest
        that stopped by itself makes its instance STOPPED, a guest running
        while its instance is STOPPED is powered off. Instances with a task
        running are left to that task (its end records the state)."""
        with self._instance_lock(instance.uuid):
            try:
                instance.refresh()
            except exception.InstanceNotFound:
                return
            if (
                instance.task_state is not None
                or instance.host != self.host
                or instance.vm_state in (vm_states.DELETED, vm_states.BUILDING)
            ):
                return
            vm_power_state = self._current_power_state(instance)
            off = vm_power_state in (
                power_state.SHUTDOWN,
                power_state.CRASHED,
                power_state.NOSTATE,
            )
            vm_state = instance.vm_state
            if vm_state in (vm_states.ACTIVE, vm_states.PAUSED) and off:
                LOG.warning(
                    "Instance %s is %s but its guest is off; it is now stopped",
                    instance.uuid,
                    vm_state,
                )
                instance.vm_state = vm_states.STOPPED
            elif vm_state == vm_states.STOPPED and not off:
                LOG.warning(
                    "Instance %s is stopped but its guest runs; powering it off",
                    instance.uuid,
                )
                self.driver.power_off(instance)
                vm_power_state = self._current_power_state(instance)
            if instance.vm_state != vm_state or instance.power_state != vm_power_state:
                instance.power_state = vm_power_state
                try:
                    instance.save(expected_task_state=[None])
                except (exception.InstanceNotFound, exception.InstanceInvalidState):
                    LOG.info("Instance %s changed while syncing", instance.uuid)

    def _manage_image_cache(self, context) -> None:
        instances = objects.InstanceList.get_by_host(context, self.host)
        self.driver.manage_image_cache(context, list(instances))

    def _init_instance_power(self, context, instance) -> None:
        """Bring an instance a previous run of this service left in a
        power task to a defined state (upstream's init_instance): stops,
        starts and reboots are finished (a reboot as a hard one), other
        interrupted tasks are cleared, then the state is synced."""
        task = instance.task_state
        if task == task_states.POWERING_OFF:
            self.stop_instance(context, instance, clean_shutdown=False)
        elif task == task_states.POWERING_ON:
            self.start_instance(context, instance)
        elif task in (task_states.REBOOTING, task_states.REBOOTING_HARD):
            self.reboot_instance(context, instance, reboot_type="HARD")
        elif task in (
            task_states.PAUSING,
            task_states.UNPAUSING,
            task_states.SUSPENDING,
            task_states.RESUMING,
            *IMAGE_TASK_STATES,
            task_states.RESCUING,
            task_states.UNRESCUING,
            task_states.SHELVING_OFFLOADING,
            *SHELVING_TASK_STATES,
            task_states.REBUILDING,
        ):
            LOG.info("Clearing interrupted task %s of %s", task, instance.uuid)
            instance.task_state = None
            instance.save(expected_task_state=task)
        elif task in (
            task_states.REBUILD_BLOCK_DEVICE_MAPPING,
            task_states.REBUILD_SPAWNING,
        ):
            # The old guest is gone and the new one was never finished.
            self._end_task_with_fault(
                context,
                instance,
                exception.NovaException(
                    "the compute service restarted during the rebuild"
                ),
                vm_states.ERROR,
            )
        elif (
            task is None
            and instance.vm_state == vm_states.ACTIVE
            and CONF.resume_guests_state_on_host_boot
            and self._current_power_state(instance) != power_state.RUNNING
        ):
            LOG.info(
                "Starting %s again, as it was before the host rebooted", instance.uuid
            )
            self.driver.power_on(context, instance, [])
        self._sync_instance_power_state(context, instance)
