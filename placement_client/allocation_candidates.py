"""Allocation candidates: where could a request's resources come from?"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Iterable, Mapping
from typing import Any, NamedTuple

from placement_client.transport import RequestContext, Transport

# 1.39 covers everything the query builder can express: nested providers
# (1.29), in_tree (1.31), free-form group suffixes (1.33), group mappings in
# allocation requests (1.34) and any-of traits via ``in:`` (1.39).
CANDIDATES_VERSION = "1.39"

_SUFFIX = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


class AllocationCandidates(NamedTuple):
    """Placement's answer, as plain data.

    ``allocation_requests`` are bodies for ``claim_resources``; each maps
    provider UUIDs to ``{"resources": {...}}`` and has ``mappings`` from
    request group suffix to provider UUIDs. ``provider_summaries`` maps every
    provider involved to its ``resources`` (``capacity``/``used``),
    ``traits``, ``parent_provider_uuid`` and ``root_provider_uuid``.
    """

    allocation_requests: list[dict[str, Any]]
    provider_summaries: dict[str, dict[str, Any]]


@dataclasses.dataclass(frozen=True)
class RequestGroup:
    """Constraints on the providers that satisfy one group of resources.

    :param resources: amount per resource class.
    :param required_traits: each item is a trait the provider must have, or
        a collection of traits of which it must have at least one.
    :param forbidden_traits: traits the provider must not have.
    :param member_of: each item is an aggregate UUID the provider must be in,
        or a collection of aggregate UUIDs of which it must be in at least one.
    :param in_tree: only providers in the tree of this provider UUID.
    """

    resources: Mapping[str, int] = dataclasses.field(default_factory=dict)
    required_traits: Iterable[str | Collection[str]] = ()
    forbidden_traits: Iterable[str] = ()
    member_of: Iterable[str | Collection[str]] = ()
    in_tree: str | None = None

    def query(self, suffix: str = "") -> list[tuple[str, str]]:
        """Query parameters for this group, named with ``suffix``."""
        params = []
        if self.resources:
            amounts = ",".join(f"{rc}:{n}" for rc, n in sorted(self.resources.items()))
            params.append((f"resources{suffix}", amounts))
        all_of, any_of = _split_alternatives(self.required_traits, "required_traits")
        forbidden = [f"!{trait}" for trait in _items(self.forbidden_traits)]
        if all_of or forbidden:
            params.append((f"required{suffix}", ",".join(sorted(all_of) + forbidden)))
        params += [(f"required{suffix}", "in:" + ",".join(alt)) for alt in any_of]
        all_of, any_of = _split_alternatives(self.member_of, "member_of")
        params += [(f"member_of{suffix}", agg) for agg in all_of]
        params += [(f"member_of{suffix}", "in:" + ",".join(alt)) for alt in any_of]
        if self.in_tree:
            params.append((f"in_tree{suffix}", self.in_tree))
        return params


def _items(value: Iterable[Any]) -> list[Any]:
    # A bare string would silently turn into one-letter traits.
    if isinstance(value, str):
        raise TypeError(f"expected a collection, got the string {value!r}")
    return list(value)


def _split_alternatives(
    items: Iterable[str | Collection[str]], name: str
) -> tuple[list[str], list[list[str]]]:
    single, alternatives = [], []
    for item in _items(items):
        if isinstance(item, str):
            single.append(item)
        elif item:
            alternatives.append(sorted(item))
        else:
            raise ValueError(f"empty alternative in {name}")
    return single, alternatives


def candidates_query(
    unsuffixed: RequestGroup,
    groups: Mapping[str, RequestGroup],
    limit: int | None,
    group_policy: str | None,
) -> list[tuple[str, str]]:
    """The query string of ``GET /allocation_candidates`` as pairs."""
    params = unsuffixed.query()
    for suffix, group in groups.items():
        if not _SUFFIX.match(suffix):
            raise ValueError(f"invalid request group suffix {suffix!r}")
        params += group.query(suffix)
    if limit is not None:
        params.append(("limit", str(limit)))
    if group_policy is not None:
        params.append(("group_policy", group_policy))
    return params


class AllocationCandidateMethods:
    """Mixed into :class:`placement_client.PlacementClient`."""

    _transport: Transport

    def get_allocation_candidates(
        self,
        resources: Mapping[str, int],
        required_traits: Iterable[str | Collection[str]] = (),
        forbidden_traits: Iterable[str] = (),
        member_of: Iterable[str | Collection[str]] = (),
        in_tree: str | None = None,
        limit: int | None = None,
        groups: Mapping[str, RequestGroup] | None = None,
        group_policy: str | None = None,
        *,
        context: RequestContext | None = None,
    ) -> AllocationCandidates:
        """Ask Placement which providers can satisfy a request.

        The leading arguments form the unsuffixed group, whose resources may
        come from several providers of one tree. ``groups`` adds granular
        groups keyed by suffix (``"1"``, ``"_NET"``), each satisfied by a
        single provider; with more than one, Placement wants ``group_policy``
        (``"none"`` or ``"isolate"``).

        :param limit: at most this many allocation requests (Placement
            shuffles or not according to its ``randomize_allocation_candidates``).
        :raises PlacementAPIError: 400 for a malformed request, e.g. an
            unknown resource class or trait.
        """
        unsuffixed = RequestGroup(
            resources, required_traits, forbidden_traits, member_of, in_tree
        )
        params = candidates_query(unsuffixed, groups or {}, limit, group_policy)
        response = self._transport.request(
            "GET",
            "/allocation_candidates",
            CANDIDATES_VERSION,
            params=params,
            context=context,
        )
        body = response.json()
        return AllocationCandidates(
            body["allocation_requests"], body["provider_summaries"]
        )
