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
import json
import threading

import oslo_messaging
from oslo_log import log as logging

import nova.conf
from nova import context as nova_context
from nova import exception, manager, objects, placement
from nova.compute import power_state, task_states, vm_states
from nova.compute import utils as compute_utils
from nova.compute.resource_tracker import ResourceTracker
from nova.objects import base as objects_base
from nova.virt import driver as virt_driver

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

BUILD_EVENT = "compute_build_and_run_instance"
TERMINATE_EVENT = "compute_terminate_instance"
# Used when [DEFAULT] update_resources_interval is 0.
DEFAULT_RESOURCES_INTERVAL = 60
CONSOLE_TOKEN_CLEANUP_INTERVAL = 600


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


class ComputeManager(manager.Manager):
    target = oslo_messaging.Target(version="1.1")

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

    # -- service lifecycle -----------------------------------------------

    def init_host(self, service_ref) -> None:
        self.service_ref = service_ref
        self.driver.init_host(self.host)
        context = nova_context.get_admin_context()
        self._recover_instances(context)
        self.rt.update_available_resource(context, service_ref.id)

    def cleanup_host(self) -> None:
        # In-flight builds finish: their instances must not stay BUILDING.
        self._builds.shutdown(wait=True)
        self.driver.cleanup_host(self.host)

    def periodic_tasks(self) -> list[manager.PeriodicTask]:
        interval = CONF.update_resources_interval or DEFAULT_RESOURCES_INTERVAL
        return [
            manager.PeriodicTask(
                "update_available_resource", self._update_resources, interval
            ),
            manager.PeriodicTask(
                "cleanup_expired_console_auth_tokens",
                self._cleanup_expired_console_auth_tokens,
                CONSOLE_TOKEN_CLEANUP_INTERVAL,
            ),
        ]

    def _update_resources(self, context) -> None:
        self.rt.update_available_resource(context, self.service_ref.id)

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
        """Start building; the build runs on the build pool."""
        self._builds.submit(
            self._build,
            context,
            instance,
            image,
            node,
            admin_password,
            injected_files,
            host_list[0] if host_list else None,
        )

    def _build(
        self, context, instance, image, node, admin_password, injected_files, selection
    ) -> None:
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
                        image,
                        node,
                        admin_password,
                        injected_files,
                        selection,
                    )
            except (
                exception.UnexpectedDeletingTaskStateError,
                exception.InstanceNotFound,
            ):
                # Deleted by its user meanwhile: nothing to keep.
                LOG.info("Instance %s was deleted during its build", instance.uuid)
                self._clean_up_guest(context, instance)
            except Exception as exc:  # every failure ends in ERROR with a fault
                LOG.exception("Build of instance %s failed", instance.uuid)
                self._fail_build(context, instance, exc)

    def _build_and_run(
        self, context, instance, image, node, admin_password, injected_files, selection
    ) -> None:
        compute_node = self.rt.compute_nodes.get(node) if node else None
        instance.vm_state = vm_states.BUILDING
        instance.task_state = task_states.SPAWNING
        instance.host = self.host
        instance.node = node or self.host
        instance.launched_on = self.host
        if compute_node is not None:
            instance.compute_id = compute_node.id
        instance.save(expected_task_state=[task_states.SCHEDULING, None])

        allocations = self._allocations(context, instance, selection)
        image_meta = objects.ImageMeta.from_dict(image)
        self.driver.spawn(
            context,
            instance,
            image_meta,
            injected_files or [],
            admin_password,
            allocations,
            network_info=[],
        )
        instance.power_state = self.driver.get_info(instance).state
        instance.vm_state = vm_states.ACTIVE
        instance.task_state = None
        instance.launched_at = objects_base.utcnow()
        instance.save(expected_task_state=task_states.SPAWNING)
        LOG.info("Instance %s is ACTIVE on %s", instance.uuid, self.host)

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
        try:
            compute_utils.add_instance_fault_from_exc(context, instance, exc, self.host)
            instance.vm_state = vm_states.ERROR
            instance.task_state = None
            instance.save()
        except (exception.InstanceNotFound, exception.UnexpectedDeletingTaskStateError):
            LOG.info("Instance %s was deleted during its failed build", instance.uuid)

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
