"""Host states: what the scheduler knows about each compute node.

A HostState joins three sources: the compute node and its service from the
cell database (cached, re-read when the node's ``updated_at`` moves), the
usage Placement reported with the allocation candidates of this request,
and the claims this scheduler made that Placement's answer may not include
yet, so that a burst of requests spreads instead of piling on one host.
"""

from __future__ import annotations

import dataclasses
import datetime
import threading
import time
from collections.abc import Iterable, Mapping
from typing import Any

from oslo_log import log as logging

import nova.conf
from nova import context as nova_context
from nova import objects, servicegroup

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

# Resource classes and the HostState attributes they drive.
VCPU, MEMORY_MB, DISK_GB = "VCPU", "MEMORY_MB", "DISK_GB"
# Claims older than this are surely in Placement's answers.
CLAIM_MEMORY_SECONDS = 60.0


class HostState:
    """A compute node as a candidate for one scheduling request."""

    def __init__(self, host: str, nodename: str, uuid: str, cell_uuid: str) -> None:
        self.host = host
        self.nodename = nodename
        self.uuid = uuid
        self.cell_uuid = cell_uuid
        self.service = None
        self.availability_zone = CONF.default_availability_zone
        self.hypervisor_type = None
        self.hypervisor_version = None
        self.supported_instances: list[list[str]] = []
        self.stats: dict[str, Any] = {}
        self.num_instances = 0
        # Instances in an I/O-heavy task state, and builds that failed
        # since the last success, as the compute reports in its stats.
        self.num_io_ops = 0
        self.failed_builds = 0
        self.aggregates: list[objects.Aggregate] = []
        self.node_updated_at = None
        self._running_vms = 0
        # Wall-clock times of builds this scheduler placed here.
        self._builds_placed: list[float] = []
        # Capacity (after reserved and allocation ratios) and use, per
        # resource class, as Placement sees them.
        self.capacity: dict[str, int] = {}
        self.used: dict[str, int] = {}

    def __repr__(self) -> str:
        return f"({self.host}, {self.nodename}) free={self.free}"

    @property
    def free(self) -> dict[str, int]:
        return {rc: self.capacity[rc] - self.used.get(rc, 0) for rc in self.capacity}

    @property
    def free_ram_mb(self) -> int:
        return self.free.get(MEMORY_MB, 0)

    @property
    def free_disk_mb(self) -> int:
        return self.free.get(DISK_GB, 0) * 1024

    @property
    def vcpus_free(self) -> int:
        return self.free.get(VCPU, 0)

    def update_from_compute_node(self, node, service) -> None:
        self.service = service
        self.hypervisor_type = node.hypervisor_type
        self.hypervisor_version = node.hypervisor_version
        self.supported_instances = node.supported_hv_specs
        self.stats = dict(node.stats or {})
        self.failed_builds = int(self.stats.get("failed_builds", 0))
        self._running_vms = node.running_vms or 0
        self.node_updated_at = node.updated_at
        self._reset_counts()

    def _reset_counts(self) -> None:
        # The compute's last report, plus the builds this scheduler placed
        # here since: the compute has not counted those yet.
        reported_at = 0.0
        if self.node_updated_at is not None:
            # Database times are UTC, whether or not the driver says so.
            reported_at = self.node_updated_at.replace(tzinfo=datetime.UTC).timestamp()
        self._builds_placed = [t for t in self._builds_placed if t > reported_at]
        placed = len(self._builds_placed)
        self.num_instances = (
            int(self.stats.get("num_instances", self._running_vms)) + placed
        )
        self.num_io_ops = int(self.stats.get("io_workload", 0)) + placed

    def update_from_provider_summary(self, summary: Mapping[str, Any]) -> None:
        self._reset_counts()
        resources = summary.get("resources", {})
        self.capacity = {rc: r["capacity"] for rc, r in resources.items()}
        self.used = {rc: r["used"] for rc, r in resources.items()}

    def has_room(self, resources: Mapping[str, int]) -> bool:
        """Whether Placement's capacity, less what is used and what this
        scheduler placed since, still fits ``resources``.

        Classes this provider has no inventory of come from other providers
        of its tree or sharing providers, which Placement vouched for.
        """
        free = self.free
        return all(free[rc] >= amount for rc, amount in resources.items() if rc in free)

    def consume_resources(self, resources: Mapping[str, int]) -> None:
        """Count a claim Placement's answer may not show yet."""
        for rc, amount in resources.items():
            if rc in self.capacity:
                self.used[rc] = self.used.get(rc, 0) + amount

    def consume(self, resources: Mapping[str, int]) -> None:
        """Count an instance this scheduler just placed here, until the
        compute's next report includes it."""
        self.consume_resources(resources)
        self._builds_placed.append(time.time())
        self.num_instances += 1
        # A build is I/O work until it finishes.
        self.num_io_ops += 1

    @property
    def is_up(self) -> bool:
        return self.service is not None and servicegroup.service_is_up(self.service)


@dataclasses.dataclass
class _Claim:
    provider_uuid: str
    resources: dict[str, int]
    finished_at: float | None = None


class HostManager:
    """Builds HostStates for the compute nodes Placement proposed."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        # compute node uuid -> HostState, kept between requests.
        self._host_states: dict[str, HostState] = {}
        self._cells: list[objects.CellMapping] | None = None
        self._aggregates_by_host: dict[str, list[objects.Aggregate]] = {}
        self._claims: dict[str, _Claim] = {}

    def reset(self) -> None:
        """Forget cached cells and hosts (configuration reload)."""
        with self._lock:
            self._cells = None
            self._host_states.clear()

    def _enabled_cells(self, context) -> list[objects.CellMapping]:
        if self._cells is None:
            self._cells = [
                cell
                for cell in objects.CellMappingList.get_by_disabled(context, False)
                if not cell.is_cell0()
            ]
        return self._cells

    def get_host_states(
        self,
        context,
        provider_summaries: Mapping[str, Mapping[str, Any]],
        summaries_read_at: float,
    ) -> list[HostState]:
        """The states of the compute nodes among ``provider_summaries``.

        Providers that are no compute node of an enabled cell (sharing
        providers, other services' providers) are left out.
        """
        uuids = list(provider_summaries)
        found: dict[str, HostState] = {}
        for cell in self._enabled_cells(context):
            with nova_context.target_cell(context, cell) as cctxt:
                versions = objects.ComputeNodeList.get_host_and_updated_at_by_uuids(
                    cctxt, uuids
                )
                if not versions:
                    continue
                # Only nodes new to this scheduler or changed since it last
                # read them are loaded in full: at a thousand candidates
                # that is most of a request's time otherwise.
                stale = [
                    uuid
                    for uuid, (_, updated_at) in versions.items()
                    if uuid not in self._host_states
                    or self._host_states[uuid].node_updated_at != updated_at
                ]
                nodes = (
                    {
                        n.uuid: n
                        for n in objects.ComputeNodeList.get_all_by_uuids(cctxt, stale)
                    }
                    if stale
                    else {}
                )
                services = objects.ServiceList.get_compute_status_by_hosts(
                    cctxt, {host for host, _ in versions.values()}
                )
            for uuid, (host, _) in versions.items():
                state = self._host_state(
                    cell, uuid, nodes.get(uuid), services.get(host)
                )
                if state is not None:
                    found[uuid] = state
        self._refresh_aggregates(context)
        pending = self._pending_claims(summaries_read_at)
        states = []
        for uuid, state in found.items():
            state.update_from_provider_summary(provider_summaries[uuid])
            state.aggregates = self._aggregates_by_host.get(state.host, [])
            zones = sorted(
                {agg.availability_zone for agg in state.aggregates} - {None, ""}  # type: ignore[operator]
            )
            # A host in several zoned aggregates shows them all, as upstream.
            state.availability_zone = (
                ",".join(zones) if zones else CONF.default_availability_zone
            )
            for resources in pending.get(uuid, []):
                state.consume_resources(resources)
            states.append(state)
        return states

    def _host_state(self, cell, uuid, node, service) -> HostState | None:
        """The cached state of node ``uuid``, refreshed from ``node`` when
        it was (re)loaded, with the current ``service`` row."""
        with self._lock:
            state = self._host_states.get(uuid)
            if node is not None:
                if state is None:
                    state = HostState(
                        node.host, node.hypervisor_hostname, node.uuid, cell.uuid
                    )
                    self._host_states[uuid] = state
                state.update_from_compute_node(node, service)
            elif state is not None:
                # The service row changes with every heartbeat.
                state.service = service
            return state

    def _refresh_aggregates(self, context) -> None:
        try:
            aggregates = objects.AggregateList.get_all(context)
        except Exception:  # aggregates refine choices; keep the last known
            LOG.exception("Could not read the host aggregates")
            return
        by_host: dict[str, list[objects.Aggregate]] = {}
        for aggregate in aggregates:
            for host in aggregate.hosts or []:
                by_host.setdefault(host, []).append(aggregate)
        self._aggregates_by_host = by_host

    # -- this scheduler's own claims ---------------------------------------

    def claim_started(
        self, consumer_uuid: str, provider_uuid: str, resources: dict[str, int]
    ) -> None:
        with self._lock:
            self._claims[consumer_uuid] = _Claim(provider_uuid, dict(resources))

    def claim_finished(self, consumer_uuid: str, claimed: bool) -> None:
        with self._lock:
            if not claimed:
                self._claims.pop(consumer_uuid, None)
            elif consumer_uuid in self._claims:
                self._claims[consumer_uuid].finished_at = time.monotonic()

    def forget_claims(self, consumer_uuids: Iterable[str]) -> None:
        with self._lock:
            for uuid in consumer_uuids:
                self._claims.pop(uuid, None)

    def _pending_claims(self, read_at: float) -> dict[str, list[dict[str, int]]]:
        """Claims Placement's answer read at ``read_at`` may not include:
        still running, or finished after that read began."""
        now = time.monotonic()
        pending: dict[str, list[dict[str, int]]] = {}
        with self._lock:
            for uuid, claim in list(self._claims.items()):
                finished = claim.finished_at
                if finished is not None and finished < now - CLAIM_MEMORY_SECONDS:
                    del self._claims[uuid]
                elif finished is None or finished > read_at:
                    pending.setdefault(claim.provider_uuid, []).append(claim.resources)
        return pending
