"""The NICs of a guest's domain XML, from its network info."""

import xml.etree.ElementTree as ET

import pytest

from nova import objects
from nova.network import model
from nova.virt.libvirt import config, vif

PORT_ID = "0123456789abcdef-port"


def _vif(**overrides):
    values = dict(
        id=PORT_ID,
        address="fa:16:3e:12:34:56",
        type="ovs",
        devname=("tap" + PORT_ID)[:14],
        details={"bridge_name": "br-int1", "datapath_type": "netdev"},
        network={"id": "net-1", "bridge": "br-int", "meta": {"mtu": 1450}},
    )
    values.update(overrides)
    return model.VIF.hydrate(values)


def test_a_vif_is_an_unmanaged_tap_with_the_ports_mac_and_mtu():
    nic = config.guest_interface(_vif(), "virtio")
    element = ET.fromstring(config.interface_xml(nic))
    assert element.tag == "interface" and element.get("type") == "ethernet"
    assert element.find("mac").get("address") == "fa:16:3e:12:34:56"
    target = element.find("target")
    assert (target.get("dev"), target.get("managed")) == ("tap0123456789a", "no")
    assert element.find("model").get("type") == "virtio"
    assert element.find("mtu").get("size") == "1450"


def test_tap_name_and_bridge_follow_the_binding():
    bare = _vif(devname=None, details={}, network={"bridge": "br-x"})
    assert vif.tap_name(bare) == "tap0123456789a"
    assert vif.bridge(bare) == "br-x"
    assert vif.bridge(_vif()) == "br-int1"
    assert vif.mtu(bare) is None


@pytest.mark.parametrize("vif_type", ["binding_failed", "unbound", "vhostuser"])
def test_only_ovs_bindings_are_plugged(vif_type):
    from nova import exception

    with pytest.raises(exception.VirtualInterfacePlugException, match=PORT_ID):
        vif.check_pluggable(_vif(type=vif_type))


def test_image_chooses_the_nic_model():
    image = objects.ImageMeta.from_dict({"properties": {"hw_vif_model": "e1000"}})
    assert config.vif_model(image) == "e1000"
    assert config.vif_model(objects.ImageMeta.from_dict({})) == "virtio"
