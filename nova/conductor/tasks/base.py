"""The base of the conductor's task flows, and the steps they share.

A task is one run of a flow, handed the versioned objects it works on.
``execute`` runs its steps; when one fails, ``rollback`` undoes the steps
already taken and records the failure where the user sees it (a fault, the
instance's state), then the failure goes on to the caller.
"""

from __future__ import annotations

from typing import Any

from oslo_log import log as logging
from oslo_utils import excutils

from nova import exception, objects, placement
from nova.compute import utils as compute_utils
from nova.states import vm_states

LOG = logging.getLogger(__name__)


class TaskBase:
    """One run of a conductor flow."""

    def __init__(self, context) -> None:
        self.context = context

    def execute(self) -> Any:
        """Run the flow; on failure roll back what it did, then re-raise."""
        try:
            return self._execute()
        except Exception as exc:
            # A failing rollback is logged with the failure it undid.
            with excutils.save_and_reraise_exception():
                self.rollback(exc)

    def _execute(self) -> Any:
        raise NotImplementedError

    def rollback(self, exc: Exception) -> None:
        """Undo the steps ``_execute`` took before it failed with ``exc``."""


def remove_allocations(context, instance_uuid: str) -> None:
    """Give back what the instance holds in Placement."""
    try:
        placement.client().remove_allocations(instance_uuid, context=context)
    except Exception:  # left for `nova-manage placement audit`
        LOG.exception("Could not remove the allocations of %s", instance_uuid)


def set_error(context, instance, exc: BaseException) -> None:
    """ERROR, with ``exc`` as the instance's fault; an instance deleted
    meanwhile is let go."""
    try:
        compute_utils.add_instance_fault_from_exc(context, instance, exc)
        instance.vm_state = vm_states.ERROR
        instance.task_state = None
        instance.save()
    except (exception.InstanceNotFound, exception.UnexpectedDeletingTaskStateError):
        LOG.info("Instance %s was deleted meanwhile", instance.uuid)


def forced_destination_node(cell_context, host: str):
    """The compute node of ``host``, a destination the admin forced.

    :raises ComputeHostNotFound: ``host`` has no compute node.
    """
    nodes = objects.ComputeNodeList.get_all_by_host(cell_context, host)
    if not nodes:
        raise exception.ComputeHostNotFound(host=host)
    return nodes[0]


def resources_held(allocations: dict) -> dict[str, int]:
    """The amounts of a consumer's allocations, whatever their providers."""
    total: dict[str, int] = {}
    for alloc in allocations.values():
        for rc, amount in alloc["resources"].items():
            total[rc] = total.get(rc, 0) + amount
    return total


def claim_on_forced_host(
    context, instance, consumer_uuid: str, node, resources: dict[str, int]
) -> None:
    """Claim ``resources`` on ``node`` for ``consumer_uuid``, as the
    scheduler would have, though it did not check the host (a forced
    move); kept alongside what the consumer holds elsewhere.

    :raises NoValidHost: the node lacks the room.
    """
    claimed = placement.client().claim_resources(
        consumer_uuid,
        {"allocations": {node.uuid: {"resources": resources}}},
        instance.project_id,
        instance.user_id,
        context=context,
    )
    if not claimed:
        raise exception.NoValidHost(
            reason=f"Unable to claim {resources} on the forced host "
            f"{node.host} ({node.hypervisor_hostname})"
        )


def set_group_hosts(request_spec, instance_uuids) -> None:
    """Tell the scheduler where the server group's other members are (the
    instances being scheduled left out), so that its (anti-)affinity
    filters count them."""
    group = request_spec.instance_group if "instance_group" in request_spec else None
    if group is not None:
        group.hosts = group.get_hosts(exclude=instance_uuids)
