"""What a request spec asks of Placement: the allocation candidates query."""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Collection
from typing import Any

from placement_client.allocation_candidates import RequestGroup

# Flavor extra specs that shape the Placement query: ``resources:<RC>``,
# ``trait:<T>``, their granular forms ``resources<N>:<RC>`` and
# ``trait<N>:<T>`` (one group per suffix N, each served by one provider) and
# ``group_policy`` between those groups.
_GRANULAR_KEY = re.compile(r"^(resources|trait)([A-Za-z0-9_-]{1,64})?:(.+)$")
_GROUP_POLICY = "group_policy"


@dataclasses.dataclass
class GranularGroup:
    """One numbered request group of the flavor's extra specs."""

    resources: dict[str, int] = dataclasses.field(default_factory=dict)
    required_traits: set[str] = dataclasses.field(default_factory=set)
    forbidden_traits: set[str] = dataclasses.field(default_factory=set)


@dataclasses.dataclass
class ResourceRequest:
    """Amounts per resource class and constraints, for one instance.

    ``member_of`` and ``in_tree`` come from the request filters
    (:mod:`nova.scheduler.request_filter`): each ``member_of`` item is an
    aggregate UUID, a collection of alternatives, or a raw Placement value
    such as ``!in:<uuid>,<uuid>``.
    """

    resources: dict[str, int]
    required_traits: set[str] = dataclasses.field(default_factory=set)
    forbidden_traits: set[str] = dataclasses.field(default_factory=set)
    member_of: list[str | Collection[str]] = dataclasses.field(default_factory=list)
    in_tree: str | None = None
    groups: dict[str, GranularGroup] = dataclasses.field(default_factory=dict)
    group_policy: str | None = None

    @classmethod
    def from_request_spec(cls, spec_obj) -> ResourceRequest:
        """VCPU, MEMORY_MB and DISK_GB from the flavor (disk: root unless the
        server boots from a volume, plus ephemeral, plus swap rounded up to
        whole GiB), adjusted by ``resources:<RC>=<amount>`` extra specs
        (0 removes a class); traits from ``trait:<T>=required|forbidden``
        extra specs and the image's required traits; granular groups from
        ``resources<N>:`` and ``trait<N>:`` extra specs."""
        flavor = spec_obj.flavor
        is_bfv = spec_obj.is_bfv if "is_bfv" in spec_obj else False
        disk = (0 if is_bfv else flavor.root_gb) + flavor.ephemeral_gb
        disk += math.ceil(flavor.swap / 1024)
        request = cls(
            {"VCPU": flavor.vcpus, "MEMORY_MB": flavor.memory_mb, "DISK_GB": disk}
        )
        extra_specs = (flavor.extra_specs if "extra_specs" in flavor else None) or {}
        for key, value in extra_specs.items():
            if key == _GROUP_POLICY:
                request.group_policy = value
                continue
            match = _GRANULAR_KEY.match(key)
            if match is None:
                continue
            kind, suffix, name = match.groups()
            target: Any = (
                request
                if suffix is None
                else request.groups.setdefault(suffix, GranularGroup())
            )
            if kind == "resources":
                target.resources[name] = int(value)
            elif value == "required":
                target.required_traits.add(name)
            elif value == "forbidden":
                target.forbidden_traits.add(name)
        image = spec_obj.image if "image" in spec_obj else None
        if image is not None and "properties" in image:
            request.required_traits.update(
                image.properties.get("traits_required") or []
            )
        # Placement refuses zero amounts.
        request.resources = {rc: n for rc, n in request.resources.items() if n > 0}
        for group in request.groups.values():
            group.resources = {rc: n for rc, n in group.resources.items() if n > 0}
        return request

    @property
    def total_resources(self) -> dict[str, int]:
        """What one instance takes, the granular groups included."""
        total = dict(self.resources)
        for group in self.groups.values():
            for rc, amount in group.resources.items():
                total[rc] = total.get(rc, 0) + amount
        return total

    def placement_query(self, limit: int | None = None) -> dict[str, Any]:
        """Keyword arguments of ``get_allocation_candidates``."""
        groups = {
            suffix: RequestGroup(
                group.resources,
                sorted(group.required_traits),
                sorted(group.forbidden_traits),
                # Every provider of the instance obeys the request filters.
                self.member_of,
                self.in_tree,
            )
            for suffix, group in self.groups.items()
        }
        policy = self.group_policy
        if len(groups) > 1 and policy is None:
            # Placement insists on a policy once there are two groups;
            # "none" is what upstream assumes for flavors that give none.
            policy = "none"
        return {
            "resources": self.resources,
            "required_traits": sorted(self.required_traits),
            "forbidden_traits": sorted(self.forbidden_traits),
            "member_of": self.member_of,
            "in_tree": self.in_tree,
            "limit": limit,
            "groups": groups,
            "group_policy": policy,
        }

    def describe(self) -> str:
        amounts = ", ".join(f"{rc}:{n}" for rc, n in sorted(self.resources.items()))
        for suffix, group in sorted(self.groups.items()):
            inner = ", ".join(f"{rc}:{n}" for rc, n in sorted(group.resources.items()))
            amounts += f"; group {suffix}: {inner}"
        return amounts
