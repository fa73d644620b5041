"""Serial and SPICE consoles of LibvirtDriver against ``test:///default``:
the serial port as a TCP listener on a port of ``[serial_console]
port_range`` that no other guest holds and that the guest keeps, SPICE
graphics when ``[spice] enabled``."""

import socket
import xml.etree.ElementTree as ET

import pytest

import nova.conf
from nova import exception, objects

CONF = nova.conf.CONF


def _spawn(virt, instance):
    virt.spawn(None, instance, objects.ImageMeta.from_dict({}), [], None, {})


def _xml(virt, instance):
    return ET.fromstring(virt._host.get_domain(instance).XMLDesc(0))


@pytest.fixture
def serial_enabled():
    overrides = [
        ("enabled", True),
        ("port_range", "10231:10233"),
        ("proxyclient_address", "127.0.0.1"),
    ]
    for name, value in overrides:
        CONF.set_override(name, value, group="serial_console")
    yield
    for name, _ in overrides:
        CONF.clear_override(name, group="serial_console")


def test_serial_ports_are_distinct_free_and_kept(
    libvirt_driver, make_instance, serial_enabled
):
    busy = socket.socket()
    busy.bind(("127.0.0.1", 10231))  # someone else's: skipped
    try:
        first, second = make_instance(id=1), make_instance(id=2)
        _spawn(libvirt_driver, first)
        _spawn(libvirt_driver, second)
    finally:
        busy.close()
    one = libvirt_driver.get_serial_console(None, first)
    two = libvirt_driver.get_serial_console(None, second)
    assert one == {"host": "127.0.0.1", "port": 10232}
    assert two == {"host": "127.0.0.1", "port": 10233}

    serial = _xml(libvirt_driver, first).find("devices/serial")
    assert serial.get("type") == "tcp"
    source = serial.find("source")
    assert (source.get("mode"), source.get("host"), source.get("service")) == (
        "bind",
        "127.0.0.1",
        "10232",
    )
    assert serial.find("protocol").get("type") == "raw"
    # get_console_output still reads the guest's output from its log.
    log = serial.find("log")
    assert log.get("file") == libvirt_driver.console_log_path(first)
    assert log.get("append") == "on"

    # A reboot or a redefinition keeps the port; a guest that is off still
    # holds it.
    libvirt_driver.reboot(None, first, None, "HARD")
    libvirt_driver._define_domain(None, first, objects.ImageMeta.from_dict({}), [])
    libvirt_driver.power_off(first)
    assert libvirt_driver.get_serial_console(None, first) == one
    third = make_instance(id=3)
    _spawn(libvirt_driver, third)
    assert libvirt_driver.get_serial_console(None, third)["port"] == 10231

    # The range is used up; a deleted guest gives its port back.
    with pytest.raises(exception.SocketPortRangeExhaustedException):
        _spawn(libvirt_driver, make_instance(id=4))
    libvirt_driver.destroy(None, second)
    fourth = make_instance(id=5)
    _spawn(libvirt_driver, fourth)
    assert libvirt_driver.get_serial_console(None, fourth) == two


def test_no_serial_listener_unless_enabled(libvirt_driver, make_instance):
    instance = make_instance()
    _spawn(libvirt_driver, instance)
    assert _xml(libvirt_driver, instance).find("devices/serial").get("type") == "file"
    with pytest.raises(exception.ConsoleTypeUnavailable):
        libvirt_driver.get_serial_console(None, instance)


def test_spice_graphics_and_agent_channel(libvirt_driver, make_instance):
    overrides = [
        ("enabled", True),
        ("server_listen", "0.0.0.0"),
        ("server_proxyclient_address", "192.0.2.8"),
    ]
    for name, value in overrides:
        CONF.set_override(name, value, group="spice")
    try:
        instance = make_instance()
        _spawn(libvirt_driver, instance)
        xml = _xml(libvirt_driver, instance)
        spice = xml.find("devices/graphics[@type='spice']")
        assert spice.get("listen") == "0.0.0.0"
        # VNC stays as long as [vnc] enabled, as upstream.
        assert xml.find("devices/graphics[@type='vnc']") is not None
        channel = xml.find("devices/channel[@type='spicevmc']/target")
        assert channel.get("name") == "com.redhat.spice.0"
        # The test hypervisor assigns no autoport (tests/e2e have QEMU's).
        with pytest.raises(exception.ConsoleTypeUnavailable):
            libvirt_driver.get_spice_console(None, instance)
        spice.set("autoport", "no")
        spice.set("port", "5931")
        spice.set("tlsPort", "5932")
        domain = libvirt_driver._host.get_domain(instance)
        domain.destroy()
        libvirt_driver._host.get_connection().defineXML(ET.tostring(xml, "unicode"))
        libvirt_driver._host.get_domain(instance).create()
        assert libvirt_driver.get_spice_console(None, instance) == {
            "host": "192.0.2.8",
            "port": 5931,
            "tls_port": 5932,
        }
        CONF.set_override("agent_enabled", False, group="spice")
        other = make_instance(id=2)
        _spawn(libvirt_driver, other)
        assert _xml(libvirt_driver, other).find("devices/channel") is None
    finally:
        for name, _ in overrides + [("agent_enabled", None)]:
            CONF.clear_override(name, group="spice")


def test_spice_require_secure_makes_every_channel_tls(libvirt_driver, make_instance):
    CONF.set_override("enabled", True, group="spice")
    try:
        plain = make_instance()
        _spawn(libvirt_driver, plain)
        spice = _xml(libvirt_driver, plain).find("devices/graphics[@type='spice']")
        assert spice.get("defaultMode") is None
        CONF.set_override("require_secure", True, group="spice")
        secure = make_instance(id=2)
        _spawn(libvirt_driver, secure)
        spice = _xml(libvirt_driver, secure).find("devices/graphics[@type='spice']")
        assert spice.get("defaultMode") == "secure"
    finally:
        CONF.clear_override("enabled", group="spice")
        CONF.clear_override("require_secure", group="spice")
