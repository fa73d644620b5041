"""Keystone, Placement and Glance together, with catalog and client config,
and Horizon when the settings ask for the dashboard.

This is the part of a deployment that does not involve our own code: the
unmodified upstream services, their databases, the identity objects and
catalog our services and users need, and ``clouds.yaml``. The full
launcher (:mod:`nova.launcher.deployment`), the all-in-one and the test
fixtures all build on it.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from nova.launcher.authtoken import SERVICE_PROJECT, ServiceUser
from nova.launcher.catalog import CatalogPlan, EndpointPlan, IdentityAdmin, UserPlan
from nova.launcher.clouds import Cloud, write_client_config
from nova.launcher.databases import Databases, databases_for
from nova.launcher.glance import Glance
from nova.launcher.horizon import Horizon
from nova.launcher.keystone import ADMIN_PROJECT, ADMIN_USER, Keystone
from nova.launcher.placement import Placement
from nova.launcher.ports import LOOPBACK, require_free
from nova.launcher.process import ProcessStatus, SupervisedProcess
from nova.launcher.progress import Progress
from nova.launcher.settings import DeploymentSettings
from nova.launcher.state import StateDir

DEMO_PROJECT = "demo"
DEMO_USER = "demo"
READER_USER = "demo-reader"
SERVICE_ROLE = "service"


class UpstreamServices:
    """Keystone + Placement + Glance for one state directory and settings.

    ``start()`` is idempotent and resumable: one-time steps leave markers in
    the state directory, running processes are left alone, missing ones are
    started. Databases live on the server named by the settings, or in
    SQLite files (then every service runs single-threaded: SQLite rejects
    concurrent writers). ``exit_with_pid`` makes the servers stop by
    themselves when that process ends (for test runs; see
    :class:`~nova.launcher.gunicorn.GunicornApp`).
    """

    def __init__(
        self,
        state: StateDir,
        settings: DeploymentSettings,
        progress: Progress | None = None,
        exit_with_pid: int | None = None,
    ) -> None:
        self.state = state
        self.settings = settings
        self.progress = progress or Progress(None)
        self.databases: Databases = databases_for(
            settings.db, settings.db_url, state.db
        )
        threads = 1 if settings.db == "sqlite" else 4
        self.keystone = Keystone(
            state=state,
            port=settings.ports.keystone,
            database_url=self.databases.url(self.database_name("keystone")),
            admin_password=settings.admin_password,
            region=settings.region,
            threads=threads,
            exit_with_pid=exit_with_pid,
        )
        self.placement = Placement(
            state=state,
            port=settings.ports.placement,
            database_url=self.databases.url(self.database_name("placement")),
            service_user=self.service_user("placement"),
            threads=threads,
            exit_with_pid=exit_with_pid,
        )
        self.glance = Glance(
            state=state,
            port=settings.ports.glance,
            database_url=self.databases.url(self.database_name("glance")),
            service_user=self.service_user("glance"),
            threads=threads,
            exit_with_pid=exit_with_pid,
        )
        self.horizon: Horizon | None = None
        if settings.dashboard:
            self.horizon = Horizon(
                state=state,
                port=settings.ports.horizon,
                keystone_url=self.keystone.url,
                region=settings.region,
                exit_with_pid=exit_with_pid,
            )

    # -- names, users, URLs ---------------------------------------------------

    def database_name(self, service: str) -> str:
        """``<deployment>_<service>``, unique per deployment on a server."""
        return f"{self.settings.name}_{service}"

    @property
    def auth_url(self) -> str:
        return self.keystone.url

    @property
    def compute_url(self) -> str:
        """Where our compute API is registered in the catalog."""
        return f"http://{LOOPBACK}:{self.settings.ports.nova_api}/v2.1"

    def service_user(self, name: str) -> ServiceUser:
        """Credentials of service user ``name`` (placement, glance, nova)."""
        return ServiceUser(
            username=name,
            password=self.settings.service_passwords[name],
            auth_url=self.auth_url,
            region=self.settings.region,
        )

    def clouds(self) -> dict[str, Cloud]:
        """The cloud entries of ``clouds.yaml``, by role: admin, demo, reader."""
        base = self.settings.dashed_name
        password = self.settings.admin_password

        def cloud(name: str, user: str, project: str) -> Cloud:
            return Cloud(
                name, self.auth_url, self.settings.region, user, password, project
            )

        return {
            "admin": cloud(f"{base}-admin", ADMIN_USER, ADMIN_PROJECT),
            "demo": cloud(base, DEMO_USER, DEMO_PROJECT),
            "reader": cloud(f"{base}-reader", READER_USER, DEMO_PROJECT),
        }

    def catalog_plan(self) -> CatalogPlan:
        """Projects, users and endpoints beyond ``keystone-manage bootstrap``.

        Service users hold ``admin`` and ``service`` in the ``service``
        project; ``demo`` is a ``member`` and ``demo-reader`` a ``reader`` of
        project ``demo``, both with the admin password.
        """
        service_roles = ("admin", SERVICE_ROLE)
        return CatalogPlan(
            region=self.settings.region,
            projects={
                SERVICE_PROJECT: "Service users",
                DEMO_PROJECT: "Demo project",
            },
            roles=("admin", "member", "reader", SERVICE_ROLE),
            users=[
                *(
                    UserPlan(name, password, SERVICE_PROJECT, service_roles)
                    for name, password in sorted(
                        self.settings.service_passwords.items()
                    )
                ),
                UserPlan(
                    DEMO_USER, self.settings.admin_password, DEMO_PROJECT, ("member",)
                ),
                UserPlan(
                    READER_USER,
                    self.settings.admin_password,
                    DEMO_PROJECT,
                    ("reader",),
                ),
            ],
            endpoints=[
                EndpointPlan("placement", "placement", self.placement.url, "Placement"),
                EndpointPlan("image", "glance", self.glance.url, "Image service"),
                EndpointPlan("compute", "nova", self.compute_url, "Compute service"),
            ],
        )

    # -- processes ------------------------------------------------------------

    def services(self) -> list[Keystone | Placement | Glance | Horizon]:
        """In start order: keystone, placement, glance (and horizon)."""
        services: list[Keystone | Placement | Glance | Horizon] = [
            self.keystone,
            self.placement,
            self.glance,
        ]
        if self.horizon is not None:
            services.append(self.horizon)
        return services

    def processes(self) -> list[SupervisedProcess]:
        """Supervisors in start order."""
        return [
            SupervisedProcess(service.process_spec(), self.state.run, self.state.logs)
            for service in self.services()
        ]

    def ports(self) -> dict[str, int]:
        return {service.name: service.port for service in self.services()}

    def start(self) -> None:
        """Bring all three services up and register the catalog.

        Keystone's set-up, Glance's schema sync and Placement's start run side
        by side. On failure everything started is stopped again and the
        error, quoting the failing process's log, is raised.
        """
        self.state.create()
        processes = {p.name: p for p in self.processes()}
        down = {name for name, p in processes.items() if not p.is_running()}
        if not down:
            self.progress.line(f"{', '.join(processes)}: already running")
            self._register_catalog()
            return
        require_free({name: p for name, p in self.ports().items() if name in down})
        with self.progress.step("upstream services: configuration written"):
            for service in self.services():
                service.write_files()
            if self.settings.db != "sqlite":
                for service in ("keystone", "placement", "glance"):
                    self.databases.ensure(self.database_name(service))

        def keystone_chain() -> None:
            self.keystone.setup(self.progress)
            self._launch(processes["keystone"], self.keystone.url)
            self._register_catalog()

        def glance_chain() -> None:
            self.glance.setup(self.progress)
            self._launch(processes["glance"], self.glance.url)

        chains: list[Callable[[], None]] = [
            keystone_chain,
            lambda: self._launch(processes["placement"], self.placement.url),
            glance_chain,
        ]
        horizon = self.horizon
        if horizon is not None:

            def horizon_chain() -> None:
                horizon.setup(self.progress)
                self._launch(processes[horizon.name], horizon.url)

            chains.append(horizon_chain)
        try:
            with ThreadPoolExecutor(len(chains), thread_name_prefix="start") as pool:
                futures: list[Future[None]] = [pool.submit(c) for c in chains]
                errors = [f.exception() for f in futures if f.exception() is not None]
            if errors:
                raise errors[0]  # type: ignore[misc]
        except BaseException:
            self.stop()
            raise

    def _launch(self, process: SupervisedProcess, url: str) -> None:
        if process.is_running():
            self.progress.line(f"{process.name}: already running")
            return
        process.start()
        waited = process.wait_ready()
        self.progress.line(f"{process.name}: ready at {url} ({waited:.1f} s)")

    def _register_catalog(self) -> None:
        if not self.state.step_done("catalog"):
            with self.progress.step("catalog: service users, endpoints, demo users"):
                IdentityAdmin(self.auth_url, self.settings.admin_password).register(
                    self.catalog_plan()
                )
            self.state.mark_step("catalog")
        path = self.write_client_config()
        self.progress.line(f"clouds.yaml: {path}")

    def write_client_config(self) -> Path:
        return write_client_config(self.state.root, list(self.clouds().values()))

    def stop(self) -> list[str]:
        """Stop the services (reverse order); names of those stopped."""
        stopped = []
        for process in reversed(self.processes()):
            if process.stop():
                stopped.append(process.name)
        return stopped

    def status(self) -> list[ProcessStatus]:
        return [process.status() for process in self.processes()]

    def drop_databases(self) -> None:
        """Drop the three services' databases (on a server, or SQLite files)."""
        for service in ("keystone", "placement", "glance"):
            self.databases.drop(self.database_name(service))
