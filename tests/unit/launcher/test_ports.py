import socket

import pytest

from nova.launcher.errors import PortsInUse
from nova.launcher.ports import free_ports, port_in_use, ports_in_use, require_free


@pytest.fixture
def listening_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield sock.getsockname()[1]


def test_a_listening_port_is_in_use(listening_port):
    assert port_in_use(listening_port)


def test_a_free_port_is_not_in_use():
    (port,) = free_ports(1)
    assert not port_in_use(port)


def test_require_free_names_every_taken_port(listening_port):
    (free,) = free_ports(1)
    with pytest.raises(PortsInUse) as caught:
        require_free({"keystone": listening_port, "glance": free})
    assert caught.value.ports == {"keystone": listening_port}
    assert f"{listening_port} (keystone)" in str(caught.value)
    assert "glance" not in str(caught.value)


def test_ports_in_use_is_empty_when_all_free():
    ports = free_ports(3)
    assert ports_in_use({str(p): p for p in ports}) == {}


def test_free_ports_are_distinct():
    ports = free_ports(10)
    assert len(set(ports)) == 10
