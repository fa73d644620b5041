"""The superconductor's evacuation.

The API recorded an ``evacuation`` migration and set the server
REBUILDING. Here the destination is found: the host the admin forced (its
resources claimed for the instance straight from what it holds on the
source), else the scheduler's choice (never the source), which claims it.
The instance keeps its source allocation too, until the source compute
comes back and frees it. The destination is then told to rebuild the
server. A failure up to there leaves the server as it was on its dead
host, with a fault saying why, and the migration ``error``.
"""

from __future__ import annotations

import dataclasses

from oslo_log import log as logging

from nova import context as nova_context
from nova import exception, objects, placement
from nova.compute import utils as compute_utils
from nova.conductor.tasks import base
from nova.states import task_states

LOG = logging.getLogger(__name__)

EVACUATE_EVENT = "rebuild_server"


@dataclasses.dataclass
class RebuildRequest:
    """What the destination rebuilds the server from."""

    orig_image_ref: str | None
    image_ref: str
    orig_sys_metadata: dict
    on_shared_storage: bool
    new_pass: str | None
    target_state: str | None


class EvacuateTask(base.TaskBase):
    """Evacuate ``instance`` (task state REBUILDING, set by the API) to
    ``host`` when forced, else where ``request_spec`` allows."""

    def __init__(
        self,
        context,
        instance,
        rebuild: RebuildRequest,
        host: str | None,
        request_spec,
        migration,
        scheduler_client,
        compute_rpcapi,
        conductor_host: str,
    ) -> None:
        super().__init__(context)
        self.instance = instance
        self.rebuild = rebuild
        self.forced_host = host
        self.request_spec = request_spec
        self.migration = migration
        self.scheduler_client = scheduler_client
        self.compute_rpcapi = compute_rpcapi
        self.conductor_host = conductor_host
        self.cell_context = None
        # The destination provider claimed for the instance, once claimed.
        self.claimed_provider: str | None = None

    def _execute(self) -> None:
        uuid = self.instance.uuid
        mapping = objects.InstanceMapping.get_by_instance_uuid(self.context, uuid)
        with nova_context.target_cell(self.context, mapping.cell_mapping) as cctxt:
            self.instance = objects.Instance.get_by_uuid(
                cctxt, uuid, expected_attrs=["flavor", "system_metadata"]
            )
            self.migration = objects.Migration.get_by_id_and_instance(
                cctxt, self.migration.id, uuid
            )
        self.cell_context = cctxt
        with compute_utils.EventReporter(
            cctxt, EVACUATE_EVENT, self.conductor_host, uuid
        ):
            if self.forced_host:
                host = self.forced_host
                node = self._claim_forced_host(host)
            else:
                host, node = self._schedule()
            self.migration.dest_compute = host
            self.migration.dest_node = node
            self.migration.save()
        LOG.info("Evacuating %s from %s to %s (migration %s)", uuid,
                 self.instance.host, host, self.migration.uuid)  # fmt: skip
        rebuild = self.rebuild
        self.compute_rpcapi.rebuild_instance(
            cctxt,
            self.instance,
            orig_image_ref=rebuild.orig_image_ref,
            image_ref=rebuild.image_ref,
            orig_sys_metadata=rebuild.orig_sys_metadata,
            new_pass=rebuild.new_pass,
            recreate=True,
            on_shared_storage=rebuild.on_shared_storage,
            host=host,
            migration=self.migration,
            scheduled_node=node,
            target_state=rebuild.target_state,
        )

    def _schedule(self) -> tuple[str, str]:
        spec = self.request_spec
        spec.flavor = self.instance.flavor
        spec.num_instances = 1
        base.set_group_hosts(spec, [self.instance.uuid])
        [host_list] = self.scheduler_client.select_destinations(
            self.context,
            spec,
            [self.instance.uuid],
            return_objects=True,
            return_alternates=False,
        )
        selection = host_list[0]
        self.claimed_provider = selection.compute_node_uuid
        return selection.service_host, selection.nodename

    def _claim_forced_host(self, host: str) -> str:
        """Claim on ``host``, unchecked by the scheduler, what the instance
        holds on its source; the node claimed on."""
        node = base.forced_destination_node(self.cell_context, host)
        held = placement.client().get_allocations_for_consumer(
            self.instance.uuid, context=self.context
        )
        resources = base.resources_held(held.allocations)
        base.claim_on_forced_host(
            self.context, self.instance, self.instance.uuid, node, resources
        )
        self.claimed_provider = node.uuid
        return node.hypervisor_hostname

    def rollback(self, exc: Exception) -> None:
        """The destination's claim dropped, the migration ``error``, the
        server as it was, with the fault."""
        if self.claimed_provider is not None:
            placement.remove_provider_from_allocations(
                self.context, self.instance.uuid, self.claimed_provider
            )
        if self.cell_context is None:
            return
        try:
            self.migration.status = "error"
            self.migration.save()
            compute_utils.add_instance_fault_from_exc(
                self.cell_context, self.instance, exc
            )
            self.instance.task_state = None
            self.instance.save(expected_task_state=task_states.REBUILDING)
        except (
            exception.InstanceNotFound,
            exception.UnexpectedTaskStateError,
            exception.UnexpectedDeletingTaskStateError,
        ):
            LOG.info("Instance %s changed during its evacuation", self.instance.uuid)
