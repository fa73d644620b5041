"""Missing allocations: instances on a host that Placement holds nothing for.

An instance on a compute node consumes that node's resources; when
Placement has no allocations for it (they were lost, or removed by hand),
the scheduler hands its resources to others. Healing allocates what the
instance's flavor asks for against the node's resource provider.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import placement_client.exception as placement_exc
from nova import exception, objects
from nova.scheduler.utils import ResourceRequest

PAGE_SIZE = 50


class ComputeNodeMissing(exception.NovaException):
    msg_fmt = (
        "Unable to find the compute node %(node)s of host %(host)s "
        "for instance %(instance_uuid)s"
    )


class AllocationRefused(exception.NovaException):
    msg_fmt = (
        "Unable to create allocations for instance %(instance_uuid)s against "
        "resource provider %(provider_uuid)s: %(reason)s"
    )


@dataclasses.dataclass(frozen=True)
class Healed:
    instance_uuid: str
    provider_uuid: str
    resources: dict[str, int]


def flavor_resources(context, instance) -> dict[str, int]:
    """What the instance's current flavor asks Placement for."""
    try:
        spec = objects.RequestSpec.get_by_instance_uuid(context, instance.uuid)
    except exception.RequestSpecNotFound:
        spec = objects.RequestSpec(context)
    spec.flavor = instance.flavor
    resources = ResourceRequest.from_request_spec(spec).resources
    return {rc: amount for rc, amount in resources.items() if amount}


def heal_instance(
    context, client, instance, force: bool = False, dry_run: bool = False
) -> Healed | None:
    """Allocate the instance's flavor against its node, unless Placement
    already holds allocations for it (``force`` replaces them) or it is not
    settled on a host. What was (or, with ``dry_run``, would be) allocated.

    :param context: targeted at the instance's cell.
    :raises ComputeNodeMissing: the instance's node has no record.
    :raises AllocationRefused: Placement refused the allocations.
    """
    if instance.task_state is not None or not instance.host or not instance.node:
        return None
    current = client.get_allocations_for_consumer(instance.uuid)
    if current.allocations and not force:
        return None
    try:
        node = objects.ComputeNode.get_by_host_and_nodename(
            context, instance.host, instance.node
        )
    except exception.ComputeHostNotFound as exc:
        raise ComputeNodeMissing(
            node=instance.node, host=instance.host, instance_uuid=instance.uuid
        ) from exc
    healed = Healed(instance.uuid, node.uuid, flavor_resources(context, instance))
    if dry_run:
        return healed
    try:
        client.put_allocations(
            instance.uuid,
            {node.uuid: {"resources": healed.resources}},
            instance.project_id,
            instance.user_id,
            current.consumer_generation,
        )
    except placement_exc.PlacementAPIError as exc:
        raise AllocationRefused(
            instance_uuid=instance.uuid, provider_uuid=node.uuid, reason=exc.detail
        ) from exc
    return healed


def instances_of(context) -> Iterator:
    """Every live instance of the cell ``context`` targets, oldest first."""
    marker = None
    while True:
        page = objects.InstanceList.get_page_oldest_first(context, PAGE_SIZE, marker)
        yield from page
        if len(page) < PAGE_SIZE:
            return
        marker = page[-1].uuid
