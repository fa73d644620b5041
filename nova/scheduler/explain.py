"""Why Placement had no allocation candidate, in words a user can act on.

Placement answers an impossible query with an empty list. To say which
part of the request no provider satisfies, the scheduler asks again with
one constraint at a time (``limit=1``, only on this failure path): each
resource class alone, then all resources together, then each trait,
aggregate and tree restriction added to them.
"""

from __future__ import annotations

from nova.placement import COMPUTE_STATUS_DISABLED
from nova.scheduler.utils import ResourceRequest

_PREFIX = "Placement found no allocation candidate: "


def no_allocation_candidates(client, request: ResourceRequest, context=None) -> str:
    """The first part of ``request`` that no resource provider satisfies."""

    def found(probe: ResourceRequest) -> bool:
        answer = client.get_allocation_candidates(
            **probe.placement_query(limit=1), context=context
        )
        return bool(answer.allocation_requests)

    total = request.total_resources
    missing = [
        f"{rc} (requested {amount})"
        for rc, amount in sorted(total.items())
        if not found(ResourceRequest({rc: amount}))
    ]
    if missing:
        return f"{_PREFIX}no resource provider has enough free {', '.join(missing)}."
    if not found(ResourceRequest(dict(total))):
        return (
            f"{_PREFIX}no resource provider has room for {request.describe()} at once."
        )
    room = f"no resource provider with room for {request.describe()}"
    required = set(request.required_traits)
    forbidden = set(request.forbidden_traits)
    for group in request.groups.values():
        required |= group.required_traits
        forbidden |= group.forbidden_traits
    for trait in sorted(required):
        if not found(ResourceRequest(dict(total), required_traits={trait})):
            return f"{_PREFIX}{room} has the required trait {trait}."
    for trait in sorted(forbidden):
        if not found(ResourceRequest(dict(total), forbidden_traits={trait})):
            if trait == COMPUTE_STATUS_DISABLED:
                return f"{_PREFIX}{room} belongs to an enabled compute service."
            return f"{_PREFIX}{room} lacks the forbidden trait {trait}."
    for item in request.member_of:
        if not found(ResourceRequest(dict(total), member_of=[item])):
            shown = item if isinstance(item, str) else "in:" + ",".join(item)
            return (
                f"{_PREFIX}{room} is in the aggregates the request is limited "
                f"to (member_of={shown}: availability zone, project isolation "
                "or requested aggregates)."
            )
    if request.in_tree and not found(
        ResourceRequest(dict(total), in_tree=request.in_tree)
    ):
        return (
            f"{_PREFIX}the requested host or node (provider {request.in_tree}) "
            f"has no room for {request.describe()}."
        )
    if request.groups:
        return (
            f"{_PREFIX}no set of providers satisfies the request groups "
            f"({request.describe()}, group_policy={request.group_policy})."
        )
    return f"{_PREFIX}no resource provider meets all of its constraints at once."
