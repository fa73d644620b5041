"""Client of the OpenStack Placement API.

nova-compute reports providers, inventories, traits and aggregates through
it; nova-scheduler asks it for allocation candidates and claims them;
conductor moves and removes allocations. Build one with :func:`from_conf`
or ``PlacementClient(adapter)``.
"""

from placement_client.allocation_candidates import (
    AllocationCandidates,
    RequestGroup,
)
from placement_client.allocations import ConsumerAllocations
from placement_client.client import PlacementClient, from_conf
from placement_client.provider_sets import AggregateInfo, InventoryInfo, TraitInfo
from placement_client.resource_providers import ResourceProvider

__all__ = [
    "AggregateInfo",
    "AllocationCandidates",
    "ConsumerAllocations",
    "InventoryInfo",
    "PlacementClient",
    "RequestGroup",
    "ResourceProvider",
    "TraitInfo",
    "from_conf",
]
