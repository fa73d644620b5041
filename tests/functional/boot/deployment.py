"""A small deployment of our daemons, as separate processes, for boot tests.

The test process plays nova-api: it holds the API-level configuration
(API database, cell0, the API-level vhost) and writes build requests the
way ``nova/compute/api.py`` does. The superconductor, scheduler, cell1
conductor and computes run as ``python -m nova.cmd.<daemon>`` processes
with configuration files laid out as the deployment contract describes:
``nova.conf`` for API-level services, ``nova-cell1.conf`` for the cell,
``nova-compute-<host>.conf`` layered after it per compute host.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from oslo_utils import uuidutils

import nova.conf
from nova import context as nova_context
from nova import exception, objects, rpc
from nova.conductor import api as conductor_api
from nova.db import engines, migration
from nova.states import power_state, task_states, vm_states

CONF = nova.conf.CONF
REPO = Path(__file__).resolve().parents[3]


def render(sections: dict[str, dict[str, Any]]) -> str:
    lines = []
    for section, options in sections.items():
        lines.append(f"[{section}]")
        lines += [f"{key} = {value}" for key, value in options.items()]
        lines.append("")
    return "\n".join(lines)


def wait_for(
    predicate: Callable[[], Any], timeout: float, what: str, interval: float = 0.2
):
    """Poll until ``predicate()`` is truthy; return its value."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(interval)


def member_context():
    """A request of a member of a new project, as nova-api gets it."""
    return nova_context.RequestContext(
        user_id="demo",
        project_id=uuidutils.generate_uuid(),
        roles=["member"],
        overwrite=False,
    )


def flavor(name, memory_mb, vcpus=1, root_gb=1, ephemeral_gb=0, swap=0):
    """A flavor object as nova-api hands it to the superconductor."""
    return objects.Flavor(
        id=abs(hash(name)) % 100000,
        flavorid=name,
        name=name,
        memory_mb=memory_mb,
        vcpus=vcpus,
        root_gb=root_gb,
        ephemeral_gb=ephemeral_gb,
        swap=swap,
        rxtx_factor=1.0,
        vcpu_weight=None,
        disabled=False,
        is_public=True,
        extra_specs={},
        projects=[],
        description=None,
    )


@dataclasses.dataclass
class Deployment:
    directory: Path
    api_db: str
    cell0_db: str
    cell1_db: str
    api_transport_url: str
    cell1_transport_url: str
    placement_endpoint: str
    # Small timings so that heartbeats and down detection fit a test.
    report_interval: int = 2
    service_down_time: int = 10
    processes: dict[str, subprocess.Popen] = dataclasses.field(default_factory=dict)
    # Compute host names; unique per test because Placement is shared.
    hosts: list[str] = dataclasses.field(default_factory=list)
    # More [DEFAULT] options of the computes (e.g. reclaim_instance_interval).
    compute_options: dict[str, Any] = dataclasses.field(default_factory=dict)
    # [glance] credentials for every service (computes upload snapshots).
    glance: dict[str, Any] = dataclasses.field(default_factory=dict)
    # More sections every service gets (e.g. [upgrade_levels]).
    common_options: dict[str, dict[str, Any]] = dataclasses.field(default_factory=dict)
    # More [DEFAULT] options every service gets (e.g. rpc_response_timeout).
    default_options: dict[str, Any] = dataclasses.field(default_factory=dict)
    # How each process was started (daemon, config files), to restart it.
    commands: dict[str, tuple[str, tuple[Path, ...]]] = dataclasses.field(
        default_factory=dict
    )

    # -- configuration ------------------------------------------------------

    def _common(self) -> dict[str, dict[str, Any]]:
        common = {
            "placement": {
                "auth_type": "admin_token",
                "token": "admin:admin",
                "endpoint_override": self.placement_endpoint,
            },
        }
        if self.glance:
            common["glance"] = self.glance
        return {**common, **self.common_options}

    def _default(self, transport_url: str) -> dict[str, Any]:
        return {
            "transport_url": transport_url,
            "report_interval": self.report_interval,
            "service_down_time": self.service_down_time,
            "graceful_shutdown_timeout": 10,
            "debug": True,
            **self.default_options,
        }

    def write_configs(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        (self.directory / "nova.conf").write_text(
            render(
                {
                    "DEFAULT": self._default(self.api_transport_url),
                    "api_database": {"connection": self.api_db},
                    "database": {"connection": self.cell0_db},
                    "scheduler": {"discover_hosts_in_cells_interval": 2},
                    **self._common(),
                }
            )
        )
        (self.directory / "nova-cell1.conf").write_text(
            render(
                {
                    "DEFAULT": self._default(self.cell1_transport_url),
                    "database": {"connection": self.cell1_db},
                    **self._common(),
                }
            )
        )

    def compute_config(self, host: str, **fake_driver) -> Path:
        path = self.directory / f"nova-compute-{host}.conf"
        path.write_text(
            render(
                {
                    "DEFAULT": {
                        "host": host,
                        "compute_driver": "fake.FakeDriver",
                        "update_resources_interval": 30,
                        "reserved_host_memory_mb": 0,
                        **self.compute_options,
                    },
                    "fake_driver": fake_driver,
                }
            )
        )
        return path

    def configure_api(self) -> None:
        """This process's configuration: that of nova-api."""
        CONF.set_override("transport_url", self.api_transport_url)
        CONF.set_override("connection", self.api_db, group="api_database")
        CONF.set_override("connection", self.cell0_db, group="database")
        CONF.set_override("service_down_time", self.service_down_time)

    def create_databases(self) -> None:
        migration.db_sync("api", self.api_db)
        migration.db_sync("main", self.cell0_db)
        migration.db_sync("main", self.cell1_db)
        context = nova_context.get_admin_context()
        objects.CellMapping(
            context,
            uuid=objects.CellMapping.CELL0_UUID,
            name="cell0",
            transport_url="none:///",
            database_connection=self.cell0_db,
        ).create()
        cell1 = objects.CellMapping(
            context,
            uuid=uuidutils.generate_uuid(),
            name="cell1",
            transport_url=self.cell1_transport_url,
            database_connection=self.cell1_db,
        )
        cell1.create()
        self.cell1 = cell1

    # -- processes ----------------------------------------------------------

    def start(self, name: str, daemon: str, *config_files: Path) -> None:
        self.commands[name] = (daemon, config_files)
        args = [sys.executable, "-m", f"nova.cmd.{daemon}"]
        for path in config_files:
            args += ["--config-file", str(path)]
        args += ["--log-file", str(self.directory / f"{name}.log")]
        env = dict(os.environ, PYTHONPATH=str(REPO))
        with open(self.directory / f"{name}.stderr", "wb") as stderr:
            self.processes[name] = subprocess.Popen(
                args,
                cwd=self.directory,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
            )

    def start_all(self, compute_hosts: list[str], **fake_driver) -> None:
        api_conf = self.directory / "nova.conf"
        cell_conf = self.directory / "nova-cell1.conf"
        self.hosts = list(compute_hosts)
        self.start("superconductor", "conductor", api_conf)
        self.start("scheduler", "scheduler", api_conf)
        self.start("cell1-conductor", "conductor", cell_conf)
        for host in compute_hosts:
            self.start(
                host, "compute", cell_conf, self.compute_config(host, **fake_driver)
            )

    def start_big_and_small(
        self, scheduler_options: dict | None = None, big_fails: bool = False
    ) -> None:
        """Every daemon, with two computes: "big", which the RAM weigher
        picks first (and whose spawns fail if ``big_fails``), then "small";
        ``scheduler_options`` are more sections for the scheduler."""
        api_conf = self.directory / "nova.conf"
        cell_conf = self.directory / "nova-cell1.conf"
        scheduler_conf = self.directory / "nova-scheduler.conf"
        scheduler_conf.write_text(render(scheduler_options or {}))
        # The late check reads the group from the API database (the upcall).
        upcall = self.directory / "nova-cell1-upcall.conf"
        upcall.write_text(render({"api_database": {"connection": self.api_db}}))
        self.start("superconductor", "conductor", api_conf)
        self.start("scheduler", "scheduler", api_conf, scheduler_conf)
        self.start("cell1-conductor", "conductor", cell_conf, upcall)
        suffix = uuidutils.generate_uuid()[:8]
        self.hosts = [f"big-{suffix}", f"small-{suffix}"]
        big, small = self.hosts
        big_conf = self.compute_config(
            big, vcpus=16, memory_mb=16384, local_gb=100, fail_spawn=big_fails
        )
        self.start(big, "compute", cell_conf, big_conf)
        small_conf = self.compute_config(small, vcpus=16, memory_mb=8192, local_gb=100)
        self.start(small, "compute", cell_conf, small_conf)
        self.wait_for_computes(nova_context.get_admin_context())

    def restart(self, name: str) -> None:
        """Start ``name`` again as it was started, once it has exited."""
        self.processes[name].wait(timeout=30)
        daemon, config_files = self.commands[name]
        self.start(name, daemon, *config_files)

    def signal(self, name: str, signum: int) -> None:
        """Send ``signum`` (SIGKILL, SIGSTOP, SIGCONT ...) to ``name``."""
        self.processes[name].send_signal(signum)

    def stop(self, name: str, timeout: float = 30) -> int:
        """SIGTERM the process and return its exit status."""
        process = self.processes[name]
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
                raise AssertionError(f"{name} did not stop within {timeout}s") from None
        return process.returncode

    def stop_all(self, timeout: float = 30) -> None:
        """SIGTERM every process at once, then wait for them."""
        for process in self.processes.values():
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes.values():
            try:
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def wait_for_computes(self, context) -> None:
        """Every compute of ``hosts`` up, mapped by the scheduler's
        discovery."""

        def ready():
            self.assert_running()
            try:
                mapped = [
                    objects.HostMapping.get_by_host(context, h) for h in self.hosts
                ]
            except Exception:
                return False
            return len(mapped) == len(self.hosts)

        wait_for(ready, 120, "compute hosts to be mapped")

    def assert_running(self) -> None:
        for name, process in self.processes.items():
            if process.poll() is not None:
                raise AssertionError(
                    f"{name} exited with {process.returncode}:\n" + self.log_tail(name)
                )

    def log_tail(self, name: str, lines: int = 40) -> str:
        text = []
        for suffix in (".stderr", ".log"):
            path = self.directory / f"{name}{suffix}"
            if path.exists():
                text += path.read_text(errors="replace").splitlines()[-lines:]
        return "\n".join(text)

    # -- what nova-api does -------------------------------------------------

    def boot(
        self, context, flavor, count: int = 1, name: str = "server", cast: bool = True
    ) -> list[str]:
        """Accept ``count`` servers of ``flavor`` as nova-api does and hand
        them to the superconductor (unless not ``cast``: as if the
        superconductor had taken the message and died); returns their
        uuids."""
        image = {"id": uuidutils.generate_uuid(), "name": "cirros", "properties": {}}
        reservation_id = "r-" + uuidutils.generate_uuid()[:8]
        build_requests, request_specs = [], []
        for index in range(count):
            uuid = uuidutils.generate_uuid()
            instance = objects.Instance(
                context,
                uuid=uuid,
                project_id=context.project_id,
                user_id=context.user_id,
                display_name=f"{name}-{index + 1}",
                hostname=f"{name}-{index + 1}",
                image_ref=image["id"],
                flavor=flavor,
                old_flavor=None,
                new_flavor=None,
                instance_type_id=flavor.id,
                memory_mb=flavor.memory_mb,
                vcpus=flavor.vcpus,
                root_gb=flavor.root_gb,
                ephemeral_gb=flavor.ephemeral_gb,
                vm_state=vm_states.BUILDING,
                task_state=task_states.SCHEDULING,
                power_state=power_state.NOSTATE,
                launch_index=index,
                locked=False,
                reservation_id=reservation_id,
                metadata={},
                system_metadata={},
                info_cache=objects.InstanceInfoCache(
                    instance_uuid=uuid, network_info=[]
                ),
                tags=objects.TagList.from_names(context, uuid, []),
            )
            build_request = objects.BuildRequest(
                context,
                instance=instance,
                block_device_mappings=objects.BlockDeviceMappingList(objects=[]),
                tags=objects.TagList.from_names(context, uuid, []),
            )
            build_request.create()
            spec = objects.RequestSpec.from_components(
                context, uuid, image, flavor, project_id=context.project_id
            )
            spec.num_instances = count
            spec.create()
            objects.InstanceMapping(
                context,
                instance_uuid=uuid,
                project_id=context.project_id,
                user_id=context.user_id,
                cell_mapping=None,
            ).create()
            build_requests.append(build_request)
            request_specs.append(spec)
        if not cast:
            return [br.instance_uuid for br in build_requests]
        conductor_api.ComputeTaskAPI().schedule_and_build_instances(
            context,
            build_requests=build_requests,
            request_specs=request_specs,
            build_parameters=objects.BuildParameters(
                image=image, admin_password="secret", injected_files=[]
            ),
        )
        return [br.instance_uuid for br in build_requests]

    def find_instance(self, context, uuid: str):
        """(cell mapping, instance) once the instance is in a cell, else None."""
        mapping = objects.InstanceMapping.get_by_instance_uuid(context, uuid)
        if mapping.cell_mapping is None:
            return None
        with nova_context.target_cell(
            context.elevated(read_deleted="yes"), mapping.cell_mapping
        ) as cctxt:
            try:
                return mapping.cell_mapping, objects.Instance.get_by_uuid(
                    cctxt, uuid, expected_attrs=["fault", "flavor"]
                )
            except Exception:
                return None

    def wait_for_states(
        self, context, uuids: list[str], states: set[str], timeout: float = 120
    ) -> dict[str, Any]:
        """uuid -> (cell, instance) once every instance is in one of ``states``."""

        def settled():
            self.assert_running()
            found = {uuid: self.find_instance(context, uuid) for uuid in uuids}
            if all(f is not None and f[1].vm_state in states for f in found.values()):
                return found
            return None

        return wait_for(settled, timeout, f"instances to reach {states}")

    def wait_for_settled(self, context, uuid: str, vm_state: str, timeout: float):
        """The instance once in ``vm_state`` with no task running."""

        def settled():
            self.assert_running()
            found = self.find_instance(context, uuid)
            if found and found[1].vm_state == vm_state and found[1].task_state is None:
                return found[1]
            return None

        return wait_for(settled, timeout, f"{uuid} to be {vm_state}")

    def guests_on(self, context, host: str, uuids: list[str]) -> list[str]:
        """Which of ``uuids`` have a running guest on ``host``'s hypervisor,
        asked of that nova-compute over RPC (its diagnostics answer only for
        a running guest)."""
        from nova.compute import rpcapi as compute_rpcapi

        rpcapi = compute_rpcapi.ComputeAPI()
        found = []
        with nova_context.target_cell(context, self.cell1) as cctxt:
            for uuid in uuids:
                probe = objects.Instance(cctxt, uuid=uuid, host=host)
                try:
                    rpcapi.get_diagnostics(cctxt, probe)
                except exception.InstanceInvalidState:
                    continue
                found.append(uuid)
        return found

    def delete(self, context, uuid: str) -> None:
        """Delete an instance that is on a host, as nova-api does."""
        from nova.compute import rpcapi as compute_rpcapi

        cell, instance = self.find_instance(context, uuid)
        with nova_context.target_cell(context, cell) as cctxt:
            instance = objects.Instance.get_by_uuid(cctxt, uuid)
            objects.InstanceAction.action_start(
                cctxt, uuid, "delete", want_result=False
            )
            instance.task_state = task_states.DELETING
            instance.save(expected_task_state=[None])
            compute_rpcapi.ComputeAPI().terminate_instance(cctxt, instance, None)


@contextlib.contextmanager
def configured_deployment(
    make_db_url, make_vhost, placement_endpoint, directory, **fields
):
    """A :class:`Deployment` (``fields`` as its dataclass takes them) with its
    configuration written, this process configured as its nova-api (the
    computes' ``compute_options`` included) and its databases and cells
    created; every daemon it started is stopped on the way out."""
    objects.register_all()
    deployment = Deployment(
        directory=directory,
        api_db=make_db_url("api"),
        cell0_db=make_db_url("cell0"),
        cell1_db=make_db_url("cell1"),
        api_transport_url=make_vhost("api"),
        cell1_transport_url=make_vhost("cell1"),
        placement_endpoint=placement_endpoint,
        **fields,
    )
    deployment.write_configs()
    deployment.configure_api()
    for name, value in deployment.compute_options.items():
        CONF.set_override(name, value)
    deployment.create_databases()
    try:
        yield deployment
    finally:
        deployment.stop_all()
        rpc.cleanup()
        for url in (deployment.api_db, deployment.cell0_db, deployment.cell1_db):
            engines.dispose(url)
        CONF.clear_override("transport_url")
        for group in ("api_database", "database"):
            CONF.clear_override("connection", group=group)
        CONF.clear_override("service_down_time")
        for name in deployment.compute_options:
            CONF.clear_override(name)
