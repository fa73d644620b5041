"""Our services as threads of one process: the all-in-one's Nova.

nova-api (on a threaded WSGI server), nova-scheduler, nova-conductor and
nova-compute run here as :class:`nova.service.Service` objects, and the
console proxies (noVNC's where its web client is installed, the serial
one when ``[serial_console] enabled``, SPICE's when ``[spice] enabled`` and
its web client is installed) as threads, reading one configuration file,
with ``transport_url`` naming either oslo.messaging's in-memory ``fake://``
driver or a RabbitMQ broker.

Why one conductor, and why the compute reads its database
----------------------------------------------------------
A process has one ``CONF``, so its services cannot disagree about
``[database] connection`` or ``transport_url``. We therefore run cells v2
the way DevStack's single-conductor mode does:

* one message queue: cell1's mapping names the same ``transport_url`` as
  the API level (:func:`nova.rpc.get_transport` gives both one transport,
  so the in-memory broker is shared);
* ``[api_database]`` → the API database and ``[database]`` → cell1;
  cell0 is reached through its mapping only (the superconductor buries
  unschedulable servers there with a targeted context, as always);
* one nova-conductor, which is both the superconductor (it has the API
  database) and cell1's conductor (it consumes the one queue);
* nova-compute keeps ``NovaObject.indirection_api`` unset: the class
  attribute is process-wide, and setting it would send the conductor's own
  object calls back to itself over RPC. The compute uses cell1's database
  directly, like the rest of this process.

Everything else (the RPC flows, Placement claims, Keystone tokens, Glance
downloads) is exactly what the multi-process deployment runs.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nova.conf
from nova import config, objects, rpc, service
from nova.cmd import serialproxy, spicehtml5proxy
from nova.console import api as console_api
from nova.console import websocketproxy
from nova.launcher.progress import Progress
from nova.launcher.threaded_wsgi import ThreadedServer, ThreadedWSGIServer

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

# (binary, topic) in start order: the conductor first, since the others
# record their service rows and send their first messages through it.
RPC_SERVICES: tuple[tuple[str, str], ...] = (
    ("nova-conductor", "conductor"),
    ("nova-scheduler", "scheduler"),
    ("nova-compute", "compute"),
)
PROGRAM = "nova-aio"


class InProcessNova:
    """Start and stop our services inside this process."""

    def __init__(
        self, config_file: Path, log_file: Path, progress: Progress | None = None
    ) -> None:
        self.config_file = config_file
        self.log_file = log_file
        self.progress = progress or Progress(None)
        self._services: list[service.Service] = []
        self._http: list[ThreadedServer] = []

    def load_configuration(self, argv: Sequence[str] = ()) -> None:
        """Parse the configuration file and set up logging into ``log_file``."""
        config.parse_args(
            [
                PROGRAM,
                "--config-file",
                str(self.config_file),
                "--log-file",
                str(self.log_file),
                *argv,
            ]
        )
        objects.register_all()

    def start(self) -> None:
        """Start the RPC services, then the HTTP APIs; return once all serve."""
        for binary, topic in RPC_SERVICES:
            with self.progress.step(f"nova: {binary} consuming topic {topic}"):
                rpc_service = service.Service.create(binary, topic)
                # Appended first, so a failing start is still stopped.
                self._services.append(rpc_service)
                rpc_service.start()
        for server in self._http_servers() + self._console_proxies():
            with self.progress.step(f"nova: {server.name} at {server.url}"):
                self._http.append(server)
                server.start()

    def _http_servers(self) -> list[ThreadedWSGIServer]:
        # Imported here: building the app needs the configuration loaded.
        from nova.api.metadata import wsgi_app as metadata_app
        from nova.api.openstack.compute import wsgi_app

        return [
            ThreadedWSGIServer(
                "nova-api",
                wsgi_app.build_app(CONF),
                CONF.osapi_compute_listen,
                CONF.osapi_compute_listen_port,
            ),
            ThreadedWSGIServer(
                "nova-metadata-api",
                metadata_app.build_app(CONF),
                CONF.metadata_listen,
                CONF.metadata_listen_port,
            ),
        ]

    def _console_proxies(self) -> list[ThreadedServer]:
        """The console proxies this configuration asks for and this host
        can serve; says which ones it cannot and why."""
        wanted = [
            (
                "nova-novncproxy",
                console_api.NOVNC,
                True,
                (CONF.vnc.novncproxy_host, CONF.vnc.novncproxy_port),
                CONF.web,
                "novnc",
            ),
            (
                "nova-serialproxy",
                console_api.SERIAL,
                CONF.serial_console.enabled,
                (
                    CONF.serial_console.serialproxy_host,
                    CONF.serial_console.serialproxy_port,
                ),
                serialproxy.WEB,
                "nova",
            ),
            (
                "nova-spicehtml5proxy",
                console_api.SPICE_HTML5,
                CONF.spice.enabled,
                (CONF.spice.html5proxy_host, CONF.spice.html5proxy_port),
                spicehtml5proxy.WEB,
                "spice-html5",
            ),
        ]
        proxies = []
        for name, console_type, enabled, (host, port), web, package in wanted:
            if not enabled:
                continue
            if web is not None and not os.path.isdir(web):
                self.progress.line(
                    f"nova: no {name}: its web client is not installed at {web} "
                    f"(Debian package {package})"
                )
                continue
            proxies.append(
                ThreadedServer(
                    name,
                    websocketproxy.NovaWebSocketProxy(host, port, web, console_type),
                )
            )
        return proxies

    def stop(self) -> None:
        """Stop the APIs, then the services; idempotent.

        Over RabbitMQ each service takes seconds to leave its queues, so
        they stop side by side, as separate processes would.
        """
        while self._http:
            self._http.pop().stop()
        services, self._services = self._services, []
        if services:
            with ThreadPoolExecutor(len(services), thread_name_prefix="stop") as pool:
                list(pool.map(_stop_service, services))
        rpc.cleanup()


def _stop_service(rpc_service: service.Service) -> None:
    try:
        rpc_service.stop()
    except Exception:  # the others stop regardless
        LOG.exception("Stopping %s failed", rpc_service.binary)
