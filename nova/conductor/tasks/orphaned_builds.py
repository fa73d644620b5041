"""Builds left behind by a conductor or scheduler that died mid-build.

A build request lives from the API's accept until the superconductor
creates its instance in a cell; that instance then waits in BUILDING with
no host until its compute takes it (again after a failed host hands it to
the cell conductor for an alternate). Killed in between, a conductor or
scheduler leaves the server in BUILD for good, holding its claim in
Placement. Once such a build has waited longer than ``[conductor]
orphaned_build_timeout``, no process will carry it on: it ends in ERROR
with a fault saying why, and its claim goes back. A server deleted while
its conductor died may still hold a claim made for it: that goes back
too.
"""

from __future__ import annotations

import datetime

from oslo_log import log as logging

import nova.conf
from nova import context as nova_context
from nova import exception, objects
from nova.compute import utils as compute_utils
from nova.conductor.tasks import base
from nova.conductor.tasks.schedule_and_build import bury_in_cell0
from nova.objects import base as objects_base
from nova.states import vm_states

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)


def _naive(moment: datetime.datetime | None) -> datetime.datetime | None:
    return moment.replace(tzinfo=None) if moment is not None else None


class OrphanedBuildsTask(base.TaskBase):
    """Find and end the builds nobody carries on: the superconductor's
    build requests (with ``[api_database]``), and this conductor's cell's
    instances waiting for a host."""

    def __init__(self, context, timeout: int, host: str) -> None:
        super().__init__(context)
        self.timeout = timeout
        self.host = host

    def _execute(self) -> int:
        cutoff = objects_base.utcnow() - datetime.timedelta(seconds=self.timeout)
        ended = 0
        if CONF.api_database.connection:
            ended += self._bury_build_requests(cutoff)
            self._release_claims_of_deleted_servers(cutoff)
        return ended + self._fail_instances_without_host(cutoff)

    def _release_claims_of_deleted_servers(self, cutoff) -> None:
        """A server deleted while its build was in a conductor's hands may
        keep a claim when that conductor dies: the scheduler claims for a
        conductor that is gone, or the conductor dies between dropping the
        deleted instance and giving its claim back. Every server deleted
        within the last few timeouts whose instance is gone (or never
        reached a cell) gives its claim back, however late it was made (a
        scheduler call expires after ``rpc_response_timeout``)."""
        since = cutoff - datetime.timedelta(seconds=self.timeout * 2)
        by_cell: dict[str, tuple] = {}
        gone = []
        for mapping in objects.InstanceMappingList.get_queued_for_delete_since(
            self.context, since
        ):
            cell = mapping.cell_mapping
            if cell is None:
                gone.append(mapping.instance_uuid)
            else:
                by_cell.setdefault(cell.uuid, (cell, []))[1].append(
                    mapping.instance_uuid
                )
        for cell, uuids in by_cell.values():
            with nova_context.target_cell(self.context, cell) as cctxt:
                live = {
                    instance.uuid
                    for instance in objects.InstanceList.get_by_filters(
                        cctxt, {"uuid": uuids, "deleted": False, "soft_deleted": True}
                    )
                }
            gone += [uuid for uuid in uuids if uuid not in live]
        for uuid in gone:
            base.remove_allocations(self.context, uuid)

    def _bury_build_requests(self, cutoff: datetime.datetime) -> int:
        """Build requests older than ``cutoff``: one whose server never
        reached a cell is buried in cell0; one whose server did (its
        conductor died before retiring it) is retired."""
        buried = 0
        for build_request in objects.BuildRequestList.get_all(self.context):
            if _naive(build_request.created_at) > cutoff:
                continue
            uuid = build_request.instance_uuid
            try:
                mapping = objects.InstanceMapping.get_by_instance_uuid(
                    self.context, uuid
                )
            except exception.InstanceMappingNotFound:
                mapping = None
            if mapping is not None and mapping.cell_mapping is not None:
                LOG.warning(
                    "Retiring the build request of %s, left behind once its "
                    "instance was in its cell",
                    uuid,
                )
                try:
                    build_request.destroy()
                except exception.BuildRequestNotFound:
                    pass
                continue
            LOG.warning(
                "Build request of %s is %d s old and was never scheduled: "
                "burying it in cell0",
                uuid,
                self.timeout,
            )
            bury_in_cell0(
                self.context,
                [build_request],
                exception.BuildAbortException(
                    instance_uuid=uuid,
                    reason=(
                        f"it waited more than {self.timeout} s to be "
                        "scheduled: the conductor or scheduler handling it "
                        "stopped mid-build, or lost its message queue or "
                        "database"
                    ),
                ),
                self.host,
            )
            buried += 1
        return buried

    def _fail_instances_without_host(self, cutoff: datetime.datetime) -> int:
        """Instances of this conductor's cell BUILDING with no host since
        before ``cutoff``: ERROR, only if nothing took them meanwhile."""
        failed = 0
        building = objects.InstanceList.get_by_filters(
            self.context, {"vm_state": vm_states.BUILDING, "deleted": False}
        )
        for instance in building:
            waiting_since = _naive(instance.updated_at or instance.created_at)
            if instance.host is not None or waiting_since > cutoff:
                continue
            task_state = instance.task_state
            instance.vm_state = vm_states.ERROR
            instance.task_state = None
            try:
                instance.save(
                    expected_vm_state=[vm_states.BUILDING],
                    expected_task_state=[task_state],
                )
            except (
                exception.InstanceNotFound,
                exception.UnexpectedTaskStateError,
                exception.UnexpectedVMStateError,
            ):
                continue  # a host took it, or it was deleted, meanwhile
            LOG.warning(
                "Instance %s waited more than %d s for a host: ERROR",
                instance.uuid,
                self.timeout,
            )
            compute_utils.add_instance_fault_from_exc(
                self.context,
                instance,
                exception.BuildAbortException(
                    instance_uuid=instance.uuid,
                    reason=(
                        f"no host took it within {self.timeout} s: the "
                        "conductor handing it to one stopped mid-build"
                    ),
                ),
            )
            base.remove_allocations(self.context, instance.uuid)
            failed += 1
        return failed
