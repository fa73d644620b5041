"""Building an instance on this host: claim the host in the instance
record, check the server group's policy late, spawn the guest; a spawn
that fails goes to the next alternate host the scheduler chose.

Builds run on their own pool of ``max_concurrent_builds`` threads, so that
RPC threads stay free for deletes; a stopping service waits for them.
"""

from __future__ import annotations

import concurrent.futures
import threading
from collections.abc import Callable

from oslo_log import log as logging

import nova.conf
from nova import exception, objects
from nova.compute import build_retry, instance_events
from nova.compute import utils as compute_utils
from nova.compute.flows import base
from nova.conductor import rpcapi as conductor_rpcapi
from nova.notifications import instance as instance_notifications
from nova.notifications.payloads import instance as payloads
from nova.objects import base as objects_base
from nova.scheduler.filters import affinity_filter
from nova.states import machine, task_states, vm_states

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

BUILD_EVENT = "compute_build_and_run_instance"
VIF_PLUGGED = "network-vif-plugged"


def _hard_policy_group(request_spec):
    """The request's server group when its policy is checked on the host."""
    if request_spec is None or "instance_group" not in request_spec:
        return None
    group = request_spec.instance_group
    if group is None or group.policy not in ("affinity", "anti-affinity"):
        return None
    return group


def _once(step: Callable[[], None]) -> Callable[[], None]:
    """``step``, done on its first call only."""
    done = threading.Event()

    def run() -> None:
        if not done.is_set():
            done.set()
            step()

    return run


class BuildFlow(base.Flow):
    """build_and_run_instance and its reschedule."""

    def __init__(self, compute: base.ComputeHost) -> None:
        super().__init__(compute)
        workers = CONF.max_concurrent_builds or None
        self.builds = concurrent.futures.ThreadPoolExecutor(
            max_workers=workers, thread_name_prefix="build"
        )
        # Per server group: late checks of one group on this host in turn.
        self._group_locks = base.InstanceLocks()

    def shutdown(self) -> None:
        # In-flight builds finish: their instances must not stay BUILDING.
        self.builds.shutdown(wait=True)

    def build_and_run_instance(
        self, context, instance, request_spec, parameters, node, host_list
    ) -> None:
        """Start building from ``parameters`` (BuildParameters) on ``node``;
        the build runs on the build pool.

        ``host_list`` is the scheduler's choice for this host first, then
        the alternates a failed build is rescheduled to.
        """
        self.builds.submit(
            self._build, context, instance, request_spec, parameters, node, host_list
        )

    def _build(
        self, context, instance, request_spec, parameters, node, host_list
    ) -> None:
        # Log lines of this thread carry the request's ids.
        context.update_store()
        rt = self.compute.rt
        with self.compute.instance_lock(instance.uuid):
            try:
                with (
                    compute_utils.EventReporter(
                        context, BUILD_EVENT, self.host, instance.uuid
                    ),
                    instance_notifications.action(
                        context,
                        instance,
                        self.host,
                        "create",
                        payload_class=payloads.InstanceCreatePayload,
                    ),
                ):
                    self._build_and_run(
                        context, instance, request_spec, parameters, node, host_list
                    )
                rt.build_finished(context, node, failed=False)
            except (
                exception.UnexpectedDeletingTaskStateError,
                exception.InstanceNotFound,
            ):
                # Deleted by its user meanwhile: nothing to keep.
                LOG.info("Instance %s was deleted during its build", instance.uuid)
                self.clean_up_guest(context, instance)
            except exception.RescheduledException as exc:
                rt.build_finished(context, node, failed=True)
                self._reschedule(
                    context, instance, request_spec, parameters, node, host_list, exc
                )
            except Exception as exc:  # every failure ends in ERROR with a fault
                LOG.exception("Build of instance %s failed", instance.uuid)
                rt.build_finished(context, node, failed=True)
                self.fail_build(context, instance, exc)

    def _build_and_run(
        self, context, instance, request_spec, parameters, node, host_list
    ) -> None:
        compute_node = self.compute.rt.compute_nodes.get(node) if node else None
        instance.vm_state = vm_states.BUILDING
        instance.task_state = task_states.SPAWNING
        instance.host = self.host
        instance.node = node or self.host
        instance.launched_on = self.host
        if compute_node is not None:
            instance.compute_id = compute_node.id
        group = _hard_policy_group(request_spec)
        if group is None:
            self._take_instance(instance)
        else:
            # Taking the host and checking the group in one step, builds of
            # one group on this host see each other (the first one wins).
            with self._group_locks(group.uuid):
                self._take_instance(instance)
                self.validate_instance_group_policy(context, instance, group)

        selection = host_list[0] if host_list else None
        allocations = self.allocations(context, instance, selection)
        image_meta = objects.ImageMeta.from_dict(parameters.image)
        try:
            network_info = self.compute.network_api.allocate_for_instance(
                context,
                instance,
                parameters.requested_networks,
                security_groups=parameters.security_groups,
                bind_host_id=self.host,
            )
            instance.info_cache.network_info = network_info
            # Expected before the driver plugs, so an early event is kept.
            plugged = self._expect_vifs_plugged(instance, network_info)
            vifs_plugged = (
                None
                if plugged is None
                else _once(lambda: self._wait_for_vifs_plugged(instance, plugged))
            )
            try:
                # The driver waits once its VIFs are plugged, before the
                # guest runs.
                self.driver.spawn(
                    context,
                    instance,
                    image_meta,
                    parameters.injected_files,
                    parameters.admin_password,
                    allocations,
                    network_info=network_info,
                    vifs_plugged=vifs_plugged,
                )
            except BaseException:
                if plugged is not None:
                    plugged.cancel()
                raise
            if vifs_plugged is not None:
                # A driver that did not wait: the build does.
                vifs_plugged()
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
        instance.launched_at = objects_base.utcnow()
        self.finish(instance, machine.BUILD, expected=[task_states.SPAWNING])
        LOG.info("Instance %s is ACTIVE on %s", instance.uuid, self.host)

    def _expect_vifs_plugged(self, instance, network_info):
        """Expect Neutron's ``network-vif-plugged`` for each port not
        active yet; None when there is none or ``vif_plugging_timeout`` is
        0 (no waiting)."""
        if not CONF.vif_plugging_timeout:
            return None
        keys = [
            instance_events.event_key(VIF_PLUGGED, vif["id"])
            for vif in network_info
            if not vif["active"]
        ]
        if not keys:
            return None
        return self.compute.instance_events.prepare(instance.uuid, keys)

    def _wait_for_vifs_plugged(self, instance, plugged) -> None:
        """Wait up to ``vif_plugging_timeout`` for the ports to be plugged.

        :raises BuildAbortException: an event reported a failure, or (with
            ``vif_plugging_is_fatal``) some never came. Another host would
            not plug better, so there is no rescheduling, as upstream.
        """
        missing, failed = plugged.wait(CONF.vif_plugging_timeout)
        if failed or (missing and CONF.vif_plugging_is_fatal):
            LOG.error(
                "Ports of %s not plugged (failed: %s, timed out: %s)",
                instance.uuid,
                failed,
                missing,
            )
            raise exception.BuildAbortException(
                instance_uuid=instance.uuid,
                reason="Failed to allocate the network(s), not rescheduling.",
            )
        if missing:
            LOG.warning(
                "No network-vif-plugged for %s within %d s; booting anyway: %s",
                instance.uuid,
                CONF.vif_plugging_timeout,
                missing,
            )

    @staticmethod
    def _take_instance(instance) -> None:
        """Record this host in the instance, only if it is still a build
        waiting for one.

        :raises InstanceNotFound: its user deleted it meanwhile (the build
            stops and gives back what was claimed for it).
        """
        instance.save(
            expected_vm_state=list(machine.BUILD.vm_states),
            expected_task_state=list(machine.BUILD.task_states),
        )

    def validate_instance_group_policy(self, context, instance, group) -> None:
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

    def _reschedule(
        self, context, instance, request_spec, parameters, node, host_list, exc
    ) -> None:
        """Free this host and hand the build to the cell conductor for the
        next alternate; with none left, ERROR with every attempt named."""
        attempts = parameters.filter_properties
        retry = build_retry.record_attempt(
            attempts, self.host, node, exc.kwargs.get("reason", "")
        )
        alternates = host_list[1:]
        if not alternates or not build_retry.attempts_left(attempts):
            LOG.warning(
                "Build of %s failed on %s; no host left", instance.uuid, self.host
            )
            self.fail_build(
                context,
                instance,
                build_retry.exhausted(instance.uuid, attempts),
            )
            return
        LOG.info(
            "Rescheduling %s from %s (attempt %d): %s",
            instance.uuid,
            self.host,
            retry["num_attempts"],
            exc.format_message(),
        )
        self.clean_up_guest(context, instance)
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
            request_spec=request_spec,
            build_parameters=parameters,
            host_lists=[alternates],
        )

    def fail_build(self, context, instance, exc: BaseException) -> None:
        """The row's failure state (ERROR) with a fault; the guest and the
        allocations go."""
        self.clean_up_guest(context, instance)
        self.end_task_with_fault(context, instance, exc, machine.BUILD.failure)
