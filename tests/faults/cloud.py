"""Faults of the services behind nova-api: a whole local cloud (real
Keystone, Placement, Glance, nova-api over HTTP, scheduler, conductors, two
fake computes) on a RabbitMQ and a MariaDB of its own
(:mod:`tests.faults.private_services`), so that the broker can be stopped
and the database server killed without touching the machine's shared ones.

:class:`HttpLoad` boots and deletes servers through the Compute API as a
user would, counting what was accepted (202/204) and what was refused
(503, which must carry a Retry-After, or a 4xx); any other 5xx is a
problem. :class:`CloudObserver` reads the outcome of every accepted
request through the API and Placement's allocations through Placement's
REST API, for :func:`tests.faults.harness.check_invariants`.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import os
import signal
import threading
import time
import uuid
from pathlib import Path

from tests.faults import harness
from tests.faults.private_services import PrivateMariaDB, PrivateRabbitMQ
from tests.fixtures.local_cloud import LocalCloud, start_local_cloud
from tests.fixtures.openstack_services import _handle

MICROVERSION = "2.96"
# Requests that may take a while on a loaded machine (and that wait out a
# broker's retries before a 503).
REQUEST_TIMEOUT = 120


@dataclasses.dataclass
class FaultCloud:
    cloud: LocalCloud
    rabbitmq: PrivateRabbitMQ
    mariadb: PrivateMariaDB
    flavor: dict
    image: dict

    def compute(self, credentials=None):
        return self.cloud.compute(credentials, microversion=MICROVERSION)

    def process(self, name: str):
        return self.cloud.process(name)


def _more_options(_settings) -> dict:
    return {
        "DEFAULT": {
            # One API worker: the token cache of keystonemiddleware (no
            # memcached here) is per process, and fault 6 counts on it.
            "osapi_compute_workers": 1,
            # Calls of a daemon whose peer is gone give up within a test.
            "rpc_response_timeout": 30,
        },
        "conductor": {"orphaned_build_timeout": 30},
    }


def _project(cloud: LocalCloud, name: str):
    """An admin session scoped to a new project with unlimited quota."""
    from keystoneauth1 import adapter

    identity = adapter.Adapter(
        cloud.services.session(), service_type="identity", interface="public"
    )
    project = identity.post(
        "/projects", json={"project": {"name": name, "domain_id": "default"}}
    ).json()["project"]
    user = identity.get("/users", params={"name": "admin"}).json()["users"][0]
    role = identity.get("/roles", params={"name": "admin"}).json()["roles"][0]
    identity.put(f"/projects/{project['id']}/users/{user['id']}/roles/{role['id']}")
    admin = cloud.services.admin
    credentials = type(admin)(admin.username, admin.password, name)
    response = cloud.compute().put(
        f"/os-quota-sets/{project['id']}",
        json={"quota_set": {"instances": -1, "cores": -1, "ram": -1}},
    )
    assert response.status_code == 200, response.text
    return credentials


def _image(cloud: LocalCloud) -> dict:
    from keystoneauth1 import adapter

    glance = adapter.Adapter(
        cloud.services.session(),
        service_type="image",
        interface="public",
        region_name=cloud.services.region,
    )
    created = glance.post(
        "/v2/images",
        json={
            "name": "faults-image",
            "disk_format": "raw",
            "container_format": "bare",
            "visibility": "public",
        },
    ).json()
    glance.put(
        f"/v2/images/{created['id']}/file",
        data=b"\0" * 65536,
        headers={"Content-Type": "application/octet-stream"},
    )
    return created


def _flavor(cloud: LocalCloud) -> dict:
    response = cloud.compute().post(
        "/flavors",
        json={"flavor": {"name": "faults-tiny", "vcpus": 1, "ram": 64, "disk": 1}},
    )
    assert response.status_code == 200, response.text
    return response.json()["flavor"]


@contextlib.contextmanager
def fault_cloud(directory: Path):
    """A local cloud on a private RabbitMQ and MariaDB, with a flavor, an
    image and a project of unlimited quota; everything stopped at the end."""
    from nova.launcher.deployment import Deployment

    rabbit = PrivateRabbitMQ(directory / "rabbitmq")
    mariadb = PrivateMariaDB(directory / "mariadb")
    saved = {name: os.environ.get(name) for name in rabbit.environment}
    state_dir = directory / "cloud"
    try:
        rabbit.start()
        mariadb.start()
        # The launcher manages vhosts with rabbitmqctl: on our node.
        os.environ.update(rabbit.environment)
        state_dir.mkdir(parents=True)
        deployment = start_local_cloud(
            state_dir,
            os.getpid(),
            more_options=_more_options,
            db_url=mariadb.url,
            rabbit_url=rabbit.url,
        )
        cloud = LocalCloud(
            deployment=deployment,
            services=_handle(deployment.upstream, deployment.state.root),
            lock_path=directory / "cloud.lock",
        )
        yield FaultCloud(
            cloud=cloud,
            rabbitmq=rabbit,
            mariadb=mariadb,
            flavor=_flavor(cloud),
            image=_image(cloud),
        )
    finally:
        if (state_dir / "deployment.json").exists() or state_dir.exists():
            with contextlib.suppress(Exception):
                Deployment.open(state_dir, out=None).stop()
            with contextlib.suppress(Exception):
                os.kill(int((state_dir / "watchdog.pid").read_text()), signal.SIGTERM)
        rabbit.stop()
        mariadb.stop()
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


# -- the load -----------------------------------------------------------------


class HttpLoad:
    """Boot ``total`` servers through POST /servers (``interval`` s apart,
    while fewer than ``total`` were accepted, at most ``max_requests``
    tries), deleting every ``delete_every``-th accepted one a request
    later; on a thread of its own."""

    def __init__(
        self,
        fc: FaultCloud,
        total: int,
        interval: float = 0.3,
        delete_every: int = 3,
        max_requests: int | None = None,
    ) -> None:
        self.fc = fc
        # A project of its own: what it lists is this load's.
        self.credentials = _project(fc.cloud, f"faults{uuid.uuid4().hex[:8]}")
        self.compute = fc.compute(self.credentials)
        self.total = total
        self.interval = interval
        self.delete_every = delete_every
        self.max_requests = max_requests or total * 4
        self.accepted: list[str] = []
        self.deleted: set[str] = set()
        self.statuses: collections.Counter = collections.Counter()
        self.problems: list[str] = []
        self.started_at: float | None = None
        self._thread = threading.Thread(target=self._run, name="load", daemon=True)

    def start(self) -> HttpLoad:
        self.started_at = time.monotonic()
        self._thread.start()
        return self

    def wait(self, timeout: float = 900) -> None:
        self._thread.join(timeout)
        assert not self._thread.is_alive(), "the load did not finish"

    def _record(self, what: str, response) -> None:
        self.statuses[f"{what} {response.status_code}"] += 1
        if response.status_code == 503:
            if not response.headers.get("Retry-After"):
                self.problems.append(f"{what} 503 without Retry-After")
        elif response.status_code >= 500:
            self.problems.append(
                f"{what} {response.status_code}: {response.text[:300]}"
            )

    def _request(self, what: str, method: str, url: str, **kwargs):
        try:
            response = self.compute.request(
                url, method, timeout=REQUEST_TIMEOUT, **kwargs
            )
        except Exception as exc:  # the API itself unreachable or too slow
            self.statuses[f"{what} {type(exc).__name__}"] += 1
            self.problems.append(f"{what}: {type(exc).__name__}: {exc}")
            return None
        self._record(what, response)
        return response

    def _run(self) -> None:
        to_delete: list[str] = []
        requests = 0
        while len(self.accepted) < self.total and requests < self.max_requests:
            requests += 1
            response = self._request(
                "POST /servers",
                "POST",
                "/servers",
                json={
                    "server": {
                        "name": f"load{requests}",
                        "flavorRef": self.fc.flavor["id"],
                        "imageRef": self.fc.image["id"],
                        "networks": "none",
                    }
                },
            )
            for server in to_delete:
                self.delete(server)
            to_delete = []
            if response is not None and response.status_code == 202:
                server = response.json()["server"]["id"]
                self.accepted.append(server)
                if len(self.accepted) % self.delete_every == 0:
                    to_delete.append(server)
            time.sleep(self.interval)
        time.sleep(self.interval)
        for server in to_delete:
            self.delete(server)

    def delete(self, server: str) -> None:
        response = self._request("DELETE /servers/{id}", "DELETE", f"/servers/{server}")
        if response is not None and response.status_code == 204:
            self.deleted.add(server)

    def accepted_count(self) -> int:
        return len(self.accepted)

    def own_servers(self) -> set[str]:
        """The servers of the load's project, accepted or not."""
        response = self.compute.get("/servers", timeout=REQUEST_TIMEOUT)
        assert response.status_code == 200, response.text
        return {s["id"] for s in response.json()["servers"]}


# -- reading the outcome ------------------------------------------------------


class CloudObserver:
    """What the invariants read of a fault cloud: the servers through the
    Compute API (as admin), allocations through Placement's REST API."""

    def __init__(self, fc: FaultCloud) -> None:
        self.fc = fc
        self.compute = fc.compute()
        self.placement = fc.cloud.placement()

    def assert_running(self) -> None:
        stopped = [s.name for s in self.fc.cloud.deployment.status() if not s.running]
        assert not stopped, f"stopped: {stopped}"

    def outcome(self, server: str) -> tuple[str, str | None]:
        response = self.compute.get(f"/servers/{server}", timeout=REQUEST_TIMEOUT)
        if response.status_code == 404:
            return "deleted", None
        if response.status_code != 200:
            return f"unknown ({response.status_code})", None
        found = response.json()["server"]
        vm_state = found.get("OS-EXT-STS:vm_state")
        task_state = found.get("OS-EXT-STS:task_state")
        if task_state:
            return f"{vm_state}/{task_state}", None
        if found["status"] == "BUILD":
            return "BUILD (not scheduled)", None
        if found["status"] == "ERROR":
            message = (found.get("fault") or {}).get("message")
            return ("ERROR" if message else "ERROR (no fault)"), message
        if found["status"] == "DELETED":
            return "deleted", None
        return found["status"], None

    def _live(self) -> dict[str, tuple[str | None, str, dict]]:
        servers = self.compute.get(
            "/servers/detail", params={"all_tenants": 1}, timeout=REQUEST_TIMEOUT
        ).json()["servers"]
        live = {}
        for server in servers:
            flavor = server["flavor"]
            resources = {
                "VCPU": flavor["vcpus"],
                "MEMORY_MB": flavor["ram"],
                "DISK_GB": flavor["disk"] + flavor.get("ephemeral", 0),
            }
            live[server["id"]] = (
                server.get("OS-EXT-SRV-ATTR:hypervisor_hostname"),
                server.get("OS-EXT-STS:vm_state"),
                {name: amount for name, amount in resources.items() if amount},
            )
        return live

    def allocation_problems(self) -> tuple[int, int, list[str]]:
        providers = self.placement.get("/resource_providers").json()[
            "resource_providers"
        ]
        held = {}
        for provider in providers:
            allocations = self.placement.get(
                f"/resource_providers/{provider['uuid']}/allocations"
            ).json()["allocations"]
            for consumer, body in allocations.items():
                held[consumer] = (provider["name"], body["resources"])
        return harness.compare_allocations(held, self._live())

    def unaccepted_servers(self, load: HttpLoad) -> list[str]:
        """Servers of the load's project that the API never accepted: half
        written by a refused request."""
        listed = load.compute.get("/servers", timeout=REQUEST_TIMEOUT).json()["servers"]
        return sorted({s["id"] for s in listed} - set(load.accepted))


def settle(fc: FaultCloud, load: HttpLoad, report, cleared_at: float, bound: float):
    """The harness's invariants on the cloud, then what the HTTP load saw:
    no 5xx but 503 with Retry-After, no server the API refused, and
    ``nova-manage placement audit`` finding no orphan."""
    observer = CloudObserver(fc)
    harness.check_invariants(observer, load, report, cleared_at, bound)
    report.notes["responses"] = dict(sorted(load.statuses.items()))
    report.problems += load.problems
    half_written = observer.unaccepted_servers(load)
    report.notes["servers of refused requests"] = len(half_written)
    report.problems += [f"server {s} of a refused request" for s in half_written]
    audit = fc.cloud.nova_manage("placement", "audit", "--verbose")
    report.notes["nova-manage placement audit"] = (
        f"exit {audit.returncode}: {audit.stdout.strip().splitlines()[-1:]}"
    )
    if audit.returncode != 0:
        report.problems.append(f"placement audit: {audit.stdout}{audit.stderr}")
    return report
