"""The fault harness: a boot-and-delete load, the invariants every fault
must leave intact, and the report of one fault.

The load plays nova-api in the test process (build requests and deletes
through the compute API) against the boot tests' deployment: conductors,
scheduler and fake computes as separate processes on RabbitMQ, MariaDB
and a real Placement.

After the fault clears, :func:`check_invariants` waits (within a bound) for:

- every accepted server final: ACTIVE, ERROR with a fault naming the
  cause, or deleted (and every server whose delete was accepted deleted);
- no instance left with a task_state;
- Placement's allocations equal the live instances' flavors: no consumer
  that is not a live instance on that provider (a leak), no ACTIVE
  instance without its allocation (a loss). Read straight from Placement's
  REST API, independently of nova's own client and of nova-manage;
- no guest left on a compute for a server whose delete was accepted
  (:func:`settle` adds this to the others).
"""

from __future__ import annotations

import collections
import dataclasses
import re
import signal
import threading
import time
from typing import Any

import requests
from oslo_utils import uuidutils

from nova import context as nova_context
from nova import exception, objects
from nova.compute.api import delete as delete_api
from nova.compute.api import servers as server_api
from nova.states import vm_states

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
PLACEMENT_HEADERS = {
    "x-auth-token": "admin:admin",
    "OpenStack-API-Version": "placement 1.9",
}


@dataclasses.dataclass
class FaultReport:
    """What one fault did to its load."""

    fault: str
    accepted: int = 0
    deletes_accepted: int = 0
    final_states: dict[str, int] = dataclasses.field(default_factory=dict)
    recover_seconds: float | None = None
    leaked_allocations: int = 0
    missing_allocations: int = 0
    problems: list[str] = dataclasses.field(default_factory=list)
    notes: dict[str, Any] = dataclasses.field(default_factory=dict)

    def render(self) -> str:
        recover = (
            "not recovered"
            if self.recover_seconds is None
            else f"{self.recover_seconds:.1f} s"
        )
        states = ", ".join(f"{k} {v}" for k, v in sorted(self.final_states.items()))
        lines = [
            f"fault: {self.fault}",
            f"  requests accepted: {self.accepted} servers, "
            f"{self.deletes_accepted} deletes",
            f"  final states: {states}",
            f"  time to recover (fault cleared -> invariants hold): {recover}",
            f"  leaked allocations: {self.leaked_allocations}, "
            f"missing allocations: {self.missing_allocations}",
        ]
        lines += [f"  {key}: {value}" for key, value in self.notes.items()]
        lines += [f"  PROBLEM: {problem}" for problem in self.problems[:20]]
        return "\n".join(lines)


class BootDeleteLoad:
    """Boot ``total`` servers in requests of ``batch`` (as multi-creates),
    one request every ``interval`` s, and delete every ``delete_every``-th
    accepted server a request later; on a thread of its own."""

    def __init__(
        self,
        deployment,
        user,
        flavor,
        total: int,
        batch: int = 5,
        interval: float = 0.5,
        delete_every: int = 3,
    ) -> None:
        self.deployment = deployment
        self.user = user
        self.flavor = flavor
        self.total = total
        self.batch = batch
        self.interval = interval
        self.delete_every = delete_every
        self.accepted: list[str] = []
        self.deleted: set[str] = set()
        self.refused: dict[str, str] = {}
        self.progress = threading.Event()
        self._thread = threading.Thread(target=self._run, name="load", daemon=True)
        self._servers = server_api.ServersAPI()
        self._deletes = delete_api.DeleteAPI()

    def start(self) -> BootDeleteLoad:
        self._thread.start()
        return self

    def wait(self, timeout: float = 300) -> None:
        self._thread.join(timeout)
        assert not self._thread.is_alive(), "the load did not finish"

    def accepted_count(self) -> int:
        return len(self.accepted)

    def _run(self) -> None:
        to_delete: list[str] = []
        request = 0
        while len(self.accepted) < self.total:
            count = min(self.batch, self.total - len(self.accepted))
            uuids = self.deployment.boot(
                self.user, self.flavor, count=count, name=f"load{request}"
            )
            request += 1
            for uuid in to_delete:
                self._delete(uuid)
            to_delete = [
                uuid
                for index, uuid in enumerate(uuids, start=len(self.accepted))
                if index % self.delete_every == self.delete_every - 1
            ]
            self.accepted += uuids
            self.progress.set()
            time.sleep(self.interval)
        time.sleep(self.interval)
        for uuid in to_delete:
            self._delete(uuid)

    def delete(self, uuid: str) -> None:
        """Delete one accepted server now, as its user would."""
        self._delete(uuid)

    def _delete(self, uuid: str) -> None:
        try:
            self._deletes.delete(self.user, self._servers.get(self.user, uuid))
        except exception.NovaException as exc:
            # A 4xx the user would see (e.g. 409 while busy): not accepted.
            self.refused[uuid] = exc.format_message()
            return
        self.deleted.add(uuid)


def start_two_computes(deployment, name: str, spawn_seconds: float):
    """Every daemon, with two large fake computes whose spawns take
    ``spawn_seconds``; (admin context, a member of a new project)."""
    suffix = uuidutils.generate_uuid()[:8]
    deployment.start_all(
        [f"{name}-a-{suffix}", f"{name}-b-{suffix}"],
        vcpus=128,
        memory_mb=131072,
        local_gb=1000,
        spawn_seconds=spawn_seconds,
    )
    admin = nova_context.get_admin_context()
    deployment.wait_for_computes(admin)
    return admin, make_user(uuidutils.generate_uuid())


def kill_and_restart(deployment, name: str, dead_seconds: float) -> float:
    """``kill -9`` the daemon ``name``, start it again ``dead_seconds``
    later; the time.monotonic() at which the fault cleared."""
    deployment.signal(name, signal.SIGKILL)
    time.sleep(dead_seconds)
    deployment.restart(name)
    return time.monotonic()


def make_user(project: str):
    return nova_context.RequestContext(
        user_id="demo", project_id=project, roles=["member"], overwrite=False
    )


# -- reading the outcome ------------------------------------------------------


class ProcessObserver:
    """What the invariants read of a :mod:`tests.functional.boot`
    deployment: the API and cell databases, and Placement's REST API."""

    def __init__(self, deployment, admin, placement_endpoint: str) -> None:
        self.deployment = deployment
        self.admin = admin
        self.placement_endpoint = placement_endpoint

    def assert_running(self) -> None:
        self.deployment.assert_running()

    def outcome(self, uuid: str) -> tuple[str, str | None]:
        """(state word, fault message or None) of one accepted server."""
        admin = self.admin
        try:
            objects.BuildRequest.get_by_instance_uuid(admin, uuid)
            return "BUILD (not scheduled)", None
        except exception.BuildRequestNotFound:
            pass
        found = self.deployment.find_instance(admin, uuid)
        if found is None:
            # Never reached a cell: deleted while a build request.
            return "deleted", None
        cell, instance = found
        if instance.deleted:
            return "deleted", None
        if instance.task_state is not None:
            return f"{instance.vm_state}/{instance.task_state}", None
        if instance.vm_state == vm_states.ERROR:
            fault = instance.fault
            message = fault.message if fault is not None else None
            return ("ERROR" if message else "ERROR (no fault)"), message
        return instance.vm_state.upper(), None

    def allocation_problems(self) -> tuple[int, int, list[str]]:
        return allocation_problems(self.deployment, self.admin, self.placement_endpoint)


def _final(word: str, uuid: str, deleted: set[str]) -> bool:
    if uuid in deleted:
        return word == "deleted"
    return word in ("ACTIVE", "ERROR")


def wait_until_final(observer, accepted, deleted, cleared_at, bound):
    """Poll until every accepted server is final, at most ``bound`` s after
    ``cleared_at`` (a time.monotonic()); (outcomes, seconds from
    ``cleared_at`` to then, or None when the bound passed)."""
    while True:
        observer.assert_running()
        outcomes = {uuid: observer.outcome(uuid) for uuid in accepted}
        elapsed = time.monotonic() - cleared_at
        if all(_final(word, uuid, deleted) for uuid, (word, _) in outcomes.items()):
            return outcomes, elapsed
        if elapsed > bound:
            return outcomes, None
        time.sleep(1.0)


def _provider_allocations(placement_endpoint: str, provider: str) -> dict:
    response = requests.get(
        f"{placement_endpoint}/resource_providers/{provider}/allocations",
        headers=PLACEMENT_HEADERS,
        timeout=30,
    )
    response.raise_for_status()
    return {
        consumer: body["resources"]
        for consumer, body in response.json()["allocations"].items()
    }


def _flavor_resources(instance) -> dict[str, int]:
    flavor = instance.flavor
    resources = {
        "VCPU": flavor.vcpus,
        "MEMORY_MB": flavor.memory_mb,
        "DISK_GB": flavor.root_gb + flavor.ephemeral_gb,
    }
    return {name: amount for name, amount in resources.items() if amount}


def compare_allocations(
    held: dict[str, tuple[str, dict]],
    live: dict[str, tuple[str | None, str, dict]],
) -> tuple[int, int, list[str]]:
    """Placement's allocations against the live instances: ``held`` maps a
    consumer to (host of its provider, resources); ``live`` an instance to
    (host, vm_state, flavor resources). (leaked, missing, problems)"""
    leaked, missing, problems = 0, 0, []
    for consumer, (host, resources) in held.items():
        instance = live.get(consumer)
        if instance is None:
            leaked += 1
            problems.append(f"allocation of {consumer} on {host}: no live instance")
        elif instance[0] != host:
            leaked += 1
            problems.append(
                f"allocation of {consumer} on {host}, instance on {instance[0]}"
            )
        elif resources != instance[2]:
            problems.append(
                f"allocation of {consumer} is {resources}, flavor {instance[2]}"
            )
    for uuid, (_host, vm_state, _resources) in live.items():
        if vm_state == vm_states.ACTIVE and uuid not in held:
            missing += 1
            problems.append(f"ACTIVE {uuid} holds no allocation")
    return leaked, missing, problems


def allocation_problems(deployment, admin, placement_endpoint) -> tuple:
    """Placement against the cells: every consumer on our computes'
    providers is a live instance of that host holding its flavor, and
    every ACTIVE instance holds its allocation. (leaked, missing, problems)"""
    with nova_context.target_cell(
        admin.elevated(read_deleted="yes"), deployment.cell1
    ) as cctxt:
        nodes = {
            host: objects.ComputeNode.get_by_host_and_nodename(cctxt, host, host)
            for host in deployment.hosts
        }
    with nova_context.target_cell(admin, deployment.cell1) as cctxt:
        live = {
            instance.uuid: (
                instance.host,
                instance.vm_state,
                _flavor_resources(instance),
            )
            for instance in objects.InstanceList.get_by_filters(
                cctxt, {"deleted": False}, expected_attrs=["flavor"]
            )
        }
    held = {
        consumer: (host, resources)
        for host, node in nodes.items()
        for consumer, resources in _provider_allocations(
            placement_endpoint, node.uuid
        ).items()
    }
    return compare_allocations(held, live)


def check_invariants(
    observer, load, report: FaultReport, cleared_at: float, bound: float
) -> FaultReport:
    """Wait (at most ``bound`` s after the fault cleared, at the
    time.monotonic() ``cleared_at``) for every request ``load`` had
    accepted to be final, then check tasks and allocations as ``observer``
    reads them; fills and returns ``report``."""
    report.accepted = len(load.accepted)
    report.deletes_accepted = len(load.deleted)
    outcomes, seconds = wait_until_final(
        observer, load.accepted, load.deleted, cleared_at, bound
    )
    # Placement converges too: what a healer gives back, it gives back
    # within the bound.
    while True:
        leaked, missing, problems = observer.allocation_problems()
        report.notes.setdefault("allocations leaked when the states were final", leaked)
        elapsed = time.monotonic() - cleared_at
        if not problems or elapsed > bound:
            break
        time.sleep(1.0)
    report.leaked_allocations, report.missing_allocations = leaked, missing
    report.problems += problems
    report.recover_seconds = elapsed if seconds is not None and not problems else None
    report.final_states = dict(
        collections.Counter(word for word, _ in outcomes.values())
    )
    for uuid, (word, fault) in outcomes.items():
        if not _final(word, uuid, load.deleted):
            report.problems.append(f"{uuid} is {word}")
        elif word == "ERROR":
            report.notes.setdefault("error faults", set()).add(
                UUID.sub("<uuid>", fault)[:120]
            )
    if "error faults" in report.notes:
        report.notes["error faults"] = sorted(report.notes["error faults"])
    return report


def orphan_guests(deployment, admin, load: BootDeleteLoad) -> list[str]:
    """Servers whose delete was accepted but whose guest still runs on one
    of the computes."""
    deleted = sorted(load.deleted)
    return [
        f"{uuid} on {host}"
        for host in deployment.hosts
        for uuid in deployment.guests_on(admin, host, deleted)
    ]


def settle(
    deployment, admin, load, placement_endpoint, report, cleared_at, bound
) -> FaultReport:
    """:func:`check_invariants`, then the guests of deleted servers, given
    the same bound to go."""
    check_invariants(
        ProcessObserver(deployment, admin, placement_endpoint),
        load,
        report,
        cleared_at,
        bound,
    )
    while True:
        guests = orphan_guests(deployment, admin, load)
        if not guests or time.monotonic() - cleared_at > bound:
            break
        time.sleep(1.0)
    report.notes["guests of deleted servers"] = guests
    report.problems += [f"guest of deleted server {guest}" for guest in guests]
    return report
