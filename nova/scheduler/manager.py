"""nova-scheduler: picks hosts for instances and claims them in Placement.

For a request spec: ask Placement for allocation candidates, turn the
compute nodes among them into host states, and for each instance run the
filters, weigh the survivors, claim the best host's allocation request
(moving on to the next host when a concurrent claim got there first) and
return it with alternates from the same cell.
"""

from __future__ import annotations

import random
import time

import oslo_messaging
from oslo_log import log as logging

import nova.conf
import placement_client.exception as placement_exc
from nova import exception, manager, objects, placement
from nova.notifications import events as notification_events
from nova.objects import host_mapping
from nova.scheduler import (
    explain,
    filters,
    host_manager,
    request_filter,
    utils,
    weights,
)

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)


class SchedulerManager(manager.Manager):
    target = oslo_messaging.Target(version="1.0")

    def __init__(self, host: str) -> None:
        super().__init__(host, "scheduler")
        self.host_manager = host_manager.HostManager()
        self._load_plugins()

    def _load_plugins(self) -> None:
        options = CONF.filter_scheduler
        self.filters = filters.enabled_filters(
            options.available_filters, options.enabled_filters
        )
        self.weighers = weights.load_weighers(options.weight_classes)

    def reset(self) -> None:
        self.host_manager.reset()
        self._load_plugins()
        placement.reset()

    def periodic_tasks(self) -> list[manager.PeriodicTask]:
        return [
            manager.PeriodicTask(
                "discover_hosts",
                self._discover_hosts,
                CONF.scheduler.discover_hosts_in_cells_interval,
                run_immediately=True,
            )
        ]

    def _discover_hosts(self, context) -> None:
        mapped = host_mapping.discover_hosts(context)
        if mapped:
            LOG.info("Mapped new compute hosts: %s", [m.host for m in mapped])
            # New hosts may sit in cells this scheduler did not know.
            self.host_manager.reset()

    @oslo_messaging.expected_exceptions(exception.NoValidHost)
    def select_destinations(
        self,
        context,
        spec_obj,
        instance_uuids,
        return_objects=True,
        return_alternates=True,
    ) -> list[list[objects.Selection]]:
        """One list of Selections per instance: the claimed host first, then
        up to ``max_attempts - 1`` alternates of the same cell (none without
        ``return_alternates``).

        :raises NoValidHost: saying which resource Placement lacks or which
            filters removed how many hosts, or that Placement failed. Claims
            made for earlier instances of the request are undone.
        """
        notification_events.select_destinations(context, spec_obj, "start")
        try:
            selections = self._select_destinations(
                context, spec_obj, instance_uuids, return_alternates
            )
        except placement_exc.PlacementClientError as exc:
            # Users read this; Placement's endpoint and details go to the log.
            LOG.error("Placement failed while scheduling: %s", exc)
            raise exception.NoValidHost(
                reason=f"The Placement service failed ({type(exc).__name__})."
            ) from exc
        notification_events.select_destinations(context, spec_obj, "end")
        return selections

    def _select_destinations(
        self, context, spec_obj, instance_uuids, return_alternates
    ) -> list[list[objects.Selection]]:
        request = utils.ResourceRequest.from_request_spec(spec_obj)
        request_filter.process_request(context, spec_obj, request)
        uuids = list(instance_uuids) or [spec_obj.instance_uuid]
        client = placement.client()
        read_at = time.monotonic()
        try:
            candidates = client.get_allocation_candidates(
                **request.placement_query(CONF.scheduler.max_placement_results),
                context=context,
            )
        except placement_exc.PlacementAPIError as exc:
            raise exception.NoValidHost(
                reason=f"Placement refused the request {request.describe()}: {exc}"
            ) from exc
        if not candidates.allocation_requests:
            raise exception.NoValidHost(
                reason=explain.no_allocation_candidates(client, request, context)
            )

        requests_by_provider: dict[str, list[dict]] = {}
        for allocation_request in candidates.allocation_requests:
            for rp_uuid in allocation_request["allocations"]:
                requests_by_provider.setdefault(rp_uuid, []).append(allocation_request)
        summaries = {
            uuid: summary
            for uuid, summary in candidates.provider_summaries.items()
            if uuid in requests_by_provider
        }
        hosts = self.host_manager.get_host_states(context, summaries, read_at)
        hosts = self._restrict_hosts(hosts, spec_obj)
        if not hosts:
            raise exception.NoValidHost(
                reason=f"Placement proposed {len(summaries)} resource providers "
                "but none is an eligible compute node of an enabled cell."
            )

        selections: list[list[objects.Selection]] = []
        claimed: list[str] = []
        try:
            for uuid in uuids:
                if not any(host.has_room(request.total_resources) for host in hosts):
                    raise exception.NoValidHost(
                        reason=f"The {len(hosts)} hosts Placement proposed had "
                        f"room for only {len(claimed)} of the {len(uuids)} "
                        f"instances requested ({request.describe()} each)."
                    )
                selections.append(
                    self._select_one(
                        context,
                        uuid,
                        spec_obj,
                        request,
                        hosts,
                        requests_by_provider,
                        return_alternates,
                    )
                )
                claimed.append(uuid)
        except Exception:
            for uuid in claimed:
                client.remove_allocations(uuid, context=context)
            self.host_manager.forget_claims(claimed)
            raise
        return selections

    def _select_one(
        self,
        context,
        instance_uuid,
        spec_obj,
        request,
        hosts,
        requests_by_provider,
        return_alternates,
    ) -> list[objects.Selection]:
        hosts = [host for host in hosts if host.has_room(request.total_resources)]
        result = filters.run_filters(self.filters, hosts, spec_obj)
        if not result.hosts:
            raise exception.NoValidHost(
                reason=f"There are not enough hosts available: {len(hosts)} hosts "
                f"had room in Placement for {request.describe()}; "
                f"{result.describe()}."
            )
        weighed = [
            host
            for _, host in weights.weigh_hosts(self.weighers, result.hosts, spec_obj)
        ]
        chosen, allocation_request = self._claim(
            context, instance_uuid, spec_obj, request, weighed, requests_by_provider
        )
        chosen.consume(request.total_resources)
        group = spec_obj.instance_group if "instance_group" in spec_obj else None
        if group is not None:
            # Later instances of a multi-create follow the group's policy;
            # one entry per member, so that members per host can be counted.
            group.hosts = [*(group.hosts if "hosts" in group else []), chosen.host]
        selected = [
            objects.Selection.from_host_state(chosen, allocation_request, "1.28")
        ]
        if return_alternates:
            alternates = [
                host
                for host in weighed
                if host is not chosen and host.cell_uuid == chosen.cell_uuid
            ][: CONF.scheduler.max_attempts - 1]
            selected += [
                objects.Selection.from_host_state(
                    host, requests_by_provider[host.uuid][0], "1.28"
                )
                for host in alternates
            ]
        return selected

    def _claim(self, context, instance_uuid, spec_obj, request, weighed, by_rp):
        """Claim on the best host that still has room.

        The first ``host_subset_size`` hosts are tried in random order, so
        that schedulers working at once do not all pick the same one.
        """
        subset = CONF.filter_scheduler.host_subset_size
        best, rest = weighed[:subset], weighed[subset:]
        random.shuffle(best)
        client = placement.client()
        for host in best + rest:
            allocation_request = by_rp[host.uuid][0]
            self.host_manager.claim_started(
                instance_uuid, host.uuid, request.total_resources
            )
            claimed = client.claim_resources(
                instance_uuid,
                allocation_request,
                spec_obj.project_id,
                spec_obj.user_id,
                context=context,
            )
            self.host_manager.claim_finished(instance_uuid, claimed)
            if claimed:
                return host, allocation_request
            LOG.info("Claim of %s on %s lost to a concurrent one", instance_uuid, host)
        raise exception.NoValidHost(
            reason=f"Every host that passed the filters ({len(weighed)}) was "
            "claimed by concurrent requests first."
        )

    def _restrict_hosts(self, hosts, spec_obj) -> list:
        """Apply the hosts and nodes the request names or excludes."""

        def listed(name):
            return (getattr(spec_obj, name) if name in spec_obj else None) or []

        ignore = set(listed("ignore_hosts"))
        force_hosts, force_nodes = (
            set(listed("force_hosts")),
            set(listed("force_nodes")),
        )
        destination = (
            spec_obj.requested_destination
            if "requested_destination" in spec_obj
            else None
        )
        kept = []
        for host in hosts:
            if host.host in ignore:
                continue
            if force_hosts and host.host not in force_hosts:
                continue
            if force_nodes and host.nodename not in force_nodes:
                continue
            if destination is not None:
                wanted_host = destination.host if "host" in destination else None
                wanted_node = destination.node if "node" in destination else None
                if wanted_host and host.host != wanted_host:
                    continue
                if wanted_node and host.nodename != wanted_node:
                    continue
            kept.append(host)
        return kept
