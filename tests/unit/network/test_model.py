"""The network info model: upstream's JSON shape, round trips, addresses."""

import json

from nova.network import model

# A cache entry as upstream writes it: every key present.
UPSTREAM_VIF = {
    "id": "3c1d4f0e-5b2a-4d55-9a0e-7b8c9d0e1f2a",
    "address": "fa:16:3e:11:22:33",
    "network": {
        "id": "9d1c2b3a-0000-4000-8000-000000000001",
        "bridge": "br-int",
        "label": "private",
        "subnets": [
            {
                "cidr": "10.0.0.0/24",
                "dns": [
                    {"address": "10.0.0.2", "type": "dns", "version": 4, "meta": {}}
                ],
                "gateway": {
                    "address": "10.0.0.1",
                    "type": "gateway",
                    "version": 4,
                    "meta": {},
                },
                "ips": [
                    {
                        "address": "10.0.0.5",
                        "type": "fixed",
                        "version": 4,
                        "meta": {},
                        "floating_ips": [
                            {
                                "address": "172.24.4.10",
                                "type": "floating",
                                "version": 4,
                                "meta": {},
                            }
                        ],
                    }
                ],
                "routes": [],
                "version": 4,
                "meta": {"dhcp_server": "10.0.0.2"},
            }
        ],
        "meta": {"injected": False, "tenant_id": "demo", "mtu": 1450},
    },
    "type": "ovs",
    "details": {"port_filter": True, "ovs_hybrid_plug": False},
    "devname": "tap3c1d4f0e-5b",
    "ovs_interfaceid": "3c1d4f0e-5b2a-4d55-9a0e-7b8c9d0e1f2a",
    "qbh_params": None,
    "qbg_params": None,
    "active": True,
    "vnic_type": "normal",
    "profile": {},
    "preserve_on_delete": False,
    "meta": {},
}


def _vif(label, *subnets, **keys):
    return {"id": label, "network": {"label": label, "subnets": list(subnets)}, **keys}


def test_an_upstream_cache_round_trips_unchanged():
    text = json.dumps([UPSTREAM_VIF])
    network_info = model.NetworkInfo.hydrate(text)
    assert isinstance(network_info[0], model.VIF)
    assert isinstance(network_info[0]["network"]["subnets"][0]["ips"][0], model.FixedIP)
    assert json.loads(network_info.json()) == [UPSTREAM_VIF]


def test_the_model_round_trips_through_its_json():
    network_info = model.NetworkInfo.hydrate(
        [_vif("private", {"cidr": "fd00::/64", "ips": [{"address": "fd00::3"}]})]
    )
    assert model.NetworkInfo.hydrate(network_info.json()) == network_info


def test_missing_keys_take_defaults_and_unknown_keys_go_to_meta():
    (vif,) = model.NetworkInfo.hydrate(
        [
            {
                "id": "port-1",
                "network": {"label": "private", "mtu": 1450},
                "vif_model": "virtio",
            }
        ]
    )
    assert vif["active"] is False
    assert vif["vnic_type"] == model.VNIC_TYPE_NORMAL
    assert vif["details"] == {}
    assert vif["devname"] is None
    assert vif["meta"] == {"vif_model": "virtio"}
    assert vif["network"]["subnets"] == []
    assert vif["network"]["meta"] == {"mtu": 1450}


def test_versions_come_from_addresses_and_cidrs():
    (vif,) = model.NetworkInfo.hydrate(
        [
            _vif(
                "private",
                {"cidr": "fd00::/64", "ips": [{"address": "fd00::3"}]},
                {"cidr": "10.0.0.0/24", "ips": [{"address": "not an address"}]},
            )
        ]
    )
    v6, v4 = vif["network"]["subnets"]
    assert (v6["version"], v6["ips"][0]["version"]) == (6, 6)
    # A bad address in a cache is read, not refused.
    assert (v4["version"], v4["ips"][0]["version"]) == (4, None)
    assert v4["ips"][0]["type"] == "fixed"


def test_fixed_and_floating_ips_in_vif_order():
    network_info = model.NetworkInfo.hydrate(
        [
            _vif(
                "private",
                {
                    "ips": [
                        {
                            "address": "10.0.0.3",
                            "floating_ips": [{"address": "1.2.3.4"}],
                        },
                        {"address": "10.0.0.9", "type": "reserved"},
                    ]
                },
            ),
            {"id": "unbound"},
            _vif("public", {"ips": [{"address": "203.0.113.5", "type": "fixed"}]}),
        ]
    )
    assert [ip["address"] for ip in network_info.fixed_ips()] == [
        "10.0.0.3",
        "203.0.113.5",
    ]
    assert [ip["address"] for ip in network_info.floating_ips()] == ["1.2.3.4"]
    assert network_info[1].fixed_ips() == []


def test_no_cache_is_no_vifs():
    assert model.NetworkInfo.hydrate(None) == []
    assert model.NetworkInfo.hydrate("") == []
    assert model.NetworkInfo.hydrate("[]").json() == "[]"
