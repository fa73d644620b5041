"""Console tests on the API tests' databases (every backend), real
RabbitMQ for the compute RPC, a tiny VNC server and a TCP listener standing
in for a serial port for the consoles."""

from __future__ import annotations

import threading

import oslo_messaging
import pytest

from nova import context as nova_context
from nova import objects, rpc
from nova.cmd import serialproxy
from nova.compute import manager as compute_manager
from nova.conf import CONF
from nova.console import api as console_api
from nova.console import websocketproxy
from tests.fixtures.rabbitmq import make_vhost  # noqa: F401  (fixture)
from tests.fixtures.vnc_server import VNCServer
from tests.functional.api.conftest import (  # noqa: F401  (fixtures)
    api,
    cloud_databases,
    flavor,
    nova_conf,
    parsed_conf,
)
from tests.functional.api.test_servers import _in_cell
from tests.functional.console.serial_port import SerialPort

COMPUTE_HOST = "compute-1"
WEB_PAGE = b"<html><body>noVNC stand-in</body></html>"


def console_instance(cloud, compute=None, **values):
    """A server in cell1 on COMPUTE_HOST (mapped, of the demo project), a
    guest of ``compute``'s fake driver when given."""
    values.setdefault("host", COMPUTE_HOST)
    values.setdefault("node", values["host"])
    instance = _in_cell(cloud, "cell1", **values)
    if compute is not None:
        compute.driver.spawn(instance._context, instance, None, [], None, {})
    return instance


@pytest.fixture
def vnc_server():
    server = VNCServer()
    yield server
    server.stop()


@pytest.fixture
def cell_conf(nova_conf, flavor):  # noqa: F811 - fixture arguments
    """Configuration of cell1's services: ``[database]`` is cell1."""
    CONF.set_override("connection", nova_conf["urls"]["cell1"], group="database")
    yield nova_conf
    CONF.set_override("connection", nova_conf["urls"]["cell0"], group="database")


@pytest.fixture
def proxy(cell_conf, tmp_path):
    """nova-novncproxy's server in cell1, with a stand-in web client."""
    web = tmp_path / "web"
    web.mkdir()
    (web / "vnc_auto.html").write_bytes(WEB_PAGE)
    server = websocketproxy.NovaWebSocketProxy("127.0.0.1", 0, str(web))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
    thread.join(timeout=10)


@pytest.fixture
def serial_port():
    port = SerialPort()
    yield port
    port.stop()


@pytest.fixture
def consoles_enabled(serial_port):
    """``[serial_console]`` and ``[spice]`` enabled; the fake driver's
    guests have ``serial_port`` as their serial port."""
    overrides = [
        ("enabled", True, "serial_console"),
        ("enabled", True, "spice"),
        ("proxyclient_address", serial_port.host, "serial_console"),
        ("serial_port", serial_port.port, "fake_driver"),
    ]
    for name, value, group in overrides:
        CONF.set_override(name, value, group=group)
    yield serial_port
    for name, _, group in overrides:
        CONF.clear_override(name, group=group)


@pytest.fixture
def serial_proxy(cell_conf):
    """nova-serialproxy's server in cell1, with its terminal page."""
    server = websocketproxy.NovaWebSocketProxy(
        "127.0.0.1", 0, serialproxy.WEB, console_api.SERIAL
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
    thread.join(timeout=10)


@pytest.fixture
def compute(nova_conf, make_vhost, vnc_server):  # noqa: F811 - fixture arguments
    """nova-compute's manager on the fake driver, serving RPC for
    COMPUTE_HOST on cell1's (fresh) vhost; its guests' consoles are
    ``vnc_server``."""
    context = nova_context.get_admin_context()
    cell1 = objects.CellMapping.get_by_uuid(context, nova_conf["cells"]["cell1"].uuid)
    original_url = cell1.transport_url
    cell1.transport_url = make_vhost("cell1")
    cell1.save()
    overrides = [
        # The cell's own services (its console proxy) use the cell's queue.
        ("transport_url", cell1.transport_url, None),
        ("compute_driver", "fake.FakeDriver", None),
        ("server_proxyclient_address", vnc_server.host, "vnc"),
        ("vnc_port", vnc_server.port, "fake_driver"),
    ]
    for name, value, group in overrides:
        CONF.set_override(name, value, group=group)
    manager = compute_manager.ComputeManager(COMPUTE_HOST)
    server = rpc.get_server(
        oslo_messaging.Target(topic="compute", server=COMPUTE_HOST),
        [manager],
        transport=rpc.get_transport(cell1.transport_url),
    )
    server.start()
    yield manager
    server.stop()
    server.wait()
    rpc.cleanup()
    for name, _, group in overrides:
        CONF.clear_override(name, group=group)
    cell1.transport_url = original_url
    cell1.save()
