"""The superconductor's build of a create request.

The scheduler chooses a host for every instance of the request and claims
its resources in Placement; each instance is then created in its host's
cell from its build request and handed to that host. What cannot be
scheduled, or fails before its cell holds it, is buried in cell0 in ERROR
with the reason; a server its user deleted meanwhile stays deleted.
"""

from __future__ import annotations

import traceback

import oslo_messaging
from oslo_log import log as logging

from nova import context as nova_context
from nova import exception, objects
from nova.compute import instance_actions
from nova.compute import utils as compute_utils
from nova.conductor.tasks import base
from nova.notifications import events as notification_events
from nova.states import vm_states

LOG = logging.getLogger(__name__)

# The instance action event recording the outcome of scheduling.
SCHEDULE_EVENT = "conductor_schedule_and_build_instances"


class ScheduleAndBuildTask(base.TaskBase):
    """Schedule the build requests of one create request, then build each
    instance where it landed (:class:`BuildInCellTask`)."""

    def __init__(
        self,
        context,
        build_requests,
        request_specs,
        build_parameters,
        scheduler_client,
        compute_rpcapi,
        host: str,
    ) -> None:
        super().__init__(context)
        self.build_requests = build_requests
        self.request_specs = request_specs
        self.build_parameters = build_parameters
        self.scheduler_client = scheduler_client
        self.compute_rpcapi = compute_rpcapi
        self.host = host

    def _execute(self) -> None:
        self._drop_deleted()
        if not self.build_requests:
            return
        builds = list(
            zip(
                self.build_requests,
                self.request_specs,
                self._select_destinations(),
                strict=True,
            )
        )
        cells_by_host: dict[str, objects.CellMapping] = {}
        for build_request, request_spec, host_list in builds:
            task = BuildInCellTask(
                self.context,
                build_request,
                request_spec,
                self.build_parameters,
                host_list,
                cells_by_host,
                self.compute_rpcapi,
                self.host,
            )
            try:
                task.execute()
            except Exception:  # rolled back alone: one must not sink the others
                LOG.exception(
                    "Failed to build instance %s", build_request.instance_uuid
                )

    def _drop_deleted(self) -> None:
        """Forget the servers deleted since the request was accepted (their
        build requests are gone), so that nothing is claimed for them. One
        deleted later is caught when its build request is retired."""
        kept = []
        for build_request, request_spec in zip(
            self.build_requests, self.request_specs, strict=True
        ):
            try:
                objects.BuildRequest.get_by_instance_uuid(
                    self.context, build_request.instance_uuid
                )
            except exception.BuildRequestNotFound:
                LOG.info(
                    "Instance %s was deleted before it was scheduled",
                    build_request.instance_uuid,
                )
                continue
            kept.append((build_request, request_spec))
        self.build_requests = [build_request for build_request, _ in kept]
        self.request_specs = [request_spec for _, request_spec in kept]

    def _select_destinations(self) -> list[list]:
        """A host list (the chosen host, then alternates) per instance,
        their resources claimed in Placement."""
        instance_uuids = [br.instance_uuid for br in self.build_requests]
        base.set_group_hosts(self.request_specs[0], instance_uuids)
        try:
            return self.scheduler_client.select_destinations(
                self.context,
                self.request_specs[0],
                instance_uuids,
                return_objects=True,
                return_alternates=True,
            )
        except oslo_messaging.MessagingTimeout as exc:
            raise exception.NoValidHost(
                reason="nova-scheduler did not answer in time."
            ) from exc

    def rollback(self, exc: Exception) -> None:
        """Scheduling failed (each instance's build rolls back on its own):
        every instance goes to cell0 with the reason."""
        bury_in_cell0(self.context, self.build_requests, exc, self.host)
        notification_events.build_instances_error(self.context, self.request_specs, exc)


class BuildInCellTask(base.TaskBase):
    """Create one scheduled instance in its host's cell from its build
    request, and have the host build it."""

    def __init__(
        self,
        context,
        build_request,
        request_spec,
        build_parameters,
        host_list,
        cells_by_host: dict,
        compute_rpcapi,
        host: str,
    ) -> None:
        super().__init__(context)
        self.build_request = build_request
        self.request_spec = request_spec
        self.build_parameters = build_parameters
        self.host_list = host_list
        self.cells_by_host = cells_by_host
        self.compute_rpcapi = compute_rpcapi
        self.host = host
        # The instance once created in its cell, and whether it has taken
        # over from its build request as the server the user sees.
        self.instance = None
        self.handed_over = False

    def _execute(self) -> None:
        selection = self.host_list[0]
        uuid = self.build_request.instance_uuid
        cell = self._cell_of_host(selection.service_host)
        with nova_context.target_cell(self.context, cell) as cctxt:
            instance = self.build_request.get_new_instance(cctxt)
            instance.create()
            self.instance = instance
            mapping = objects.InstanceMapping.get_by_instance_uuid(self.context, uuid)
            mapping.cell_mapping = cell
            mapping.save()
            try:
                self.build_request.destroy()
            except exception.BuildRequestNotFound:
                # The user deleted the server while it was being scheduled:
                # our claim and the instance just created go.
                LOG.info("Instance %s was deleted before its build", uuid)
                try:
                    instance.destroy()
                except exception.InstanceNotFound:
                    pass  # the delete found it in its cell first
                base.remove_allocations(self.context, uuid)
                return
            self.handed_over = True
            parameters = self.build_parameters.obj_clone()
            parameters.block_device_mapping = self._create_block_devices(cctxt)
            objects.InstanceAction.action_start(
                cctxt, uuid, instance_actions.CREATE, want_result=False
            )
            LOG.info(
                "Instance %s goes to %s (%s) in cell %s",
                uuid,
                selection.service_host,
                selection.nodename,
                cell.identity,
            )
            self.compute_rpcapi.build_and_run_instance(
                cctxt,
                instance=instance,
                host=selection.service_host,
                request_spec=self.request_spec,
                build_parameters=parameters,
                node=selection.nodename,
                limits=selection.limits,
                host_list=self.host_list,
            )

    def _cell_of_host(self, host: str) -> objects.CellMapping:
        if host not in self.cells_by_host:
            mapping = objects.HostMapping.get_by_host(self.context, host)
            self.cells_by_host[host] = mapping.cell_mapping
        return self.cells_by_host[host]

    def _create_block_devices(self, cctxt):
        """The build request's disks, created in the instance's cell."""
        bdms = objects.BlockDeviceMappingList(objects=[])
        for requested in self.build_request.block_device_mappings:
            bdm = objects.BlockDeviceMapping(
                cctxt,
                **{
                    name: getattr(requested, name)
                    for name in requested.fields
                    if name in requested and name not in ("id", "instance_uuid")
                },
            )
            bdm.instance_uuid = self.build_request.instance_uuid
            bdm.create()
            bdms.objects.append(bdm)
        return bdms

    def rollback(self, exc: Exception) -> None:
        """The claim goes back to Placement. Once the instance has taken
        over from its build request it ends in ERROR in its cell; before,
        its cell's row goes and cell0 gets it, as when scheduling fails."""
        uuid = self.build_request.instance_uuid
        base.remove_allocations(self.context, uuid)
        if self.handed_over:
            base.set_error(self.instance._context, self.instance, exc)
            return
        if self.instance is not None:
            try:
                self.instance.destroy()
            except exception.InstanceNotFound:
                pass
        bury_in_cell0(self.context, [self.build_request], exc, self.host)


def bury_in_cell0(context, build_requests, exc: BaseException, host: str) -> None:
    """Create the instances in cell0 in ERROR, with a fault and a failed
    action event saying why, give back their claims and retire their build
    requests."""
    cell0 = objects.CellMapping.get_by_uuid(context, objects.CellMapping.CELL0_UUID)
    message = compute_utils.exception_message(exc)
    tb = "".join(traceback.format_exception(exc))
    for build_request in build_requests:
        uuid = build_request.instance_uuid
        base.remove_allocations(context, uuid)
        with nova_context.target_cell(context, cell0) as cctxt:
            instance = build_request.get_new_instance(cctxt)
            instance.vm_state = vm_states.ERROR
            instance.task_state = None
            try:
                instance.create()
            except exception.InstanceExists:
                # Buried by an earlier attempt at this same message.
                continue
            objects.InstanceAction.action_start(
                cctxt, uuid, instance_actions.CREATE, want_result=False
            )
            objects.InstanceActionEvent.event_start(
                cctxt, uuid, SCHEDULE_EVENT, want_result=False, host=host
            )
            objects.InstanceActionEvent.event_finish_with_failure(
                cctxt, uuid, SCHEDULE_EVENT, exc_val=message, exc_tb=tb
            )
            compute_utils.add_instance_fault_from_exc(cctxt, instance, exc)
            mapping = objects.InstanceMapping.get_by_instance_uuid(context, uuid)
            mapping.cell_mapping = cell0
            mapping.save()
            try:
                build_request.destroy()
            except exception.BuildRequestNotFound:
                # Deleted by its user meanwhile: it stays deleted.
                instance.destroy()
        LOG.warning("Instance %s is in ERROR in cell0: %s", uuid, message)
