"""A server's addresses by network label, from its network info cache."""

from nova.api.openstack.compute.views.addresses import addresses


def _vif(label, *subnets):
    return {"network": {"label": label, "subnets": list(subnets)}}


def test_fixed_then_floating_per_label_in_cache_order():
    network_info = [
        _vif(
            "private",
            {"ips": [{"address": "10.0.0.3", "version": 4,
                      "floating_ips": [{"address": "172.24.4.9"}]}]},
            {"ips": [{"address": "fd00::3"}]},
        ),
        _vif("public", {"ips": [{"address": "203.0.113.5", "version": 4}]}),
        _vif("private", {"ips": [{"address": "10.0.0.4", "version": 4}]}),
    ]  # fmt: skip
    assert addresses(network_info) == {
        "private": [
            {"version": 4, "addr": "10.0.0.3"},
            {"version": 4, "addr": "172.24.4.9"},
            {"version": 6, "addr": "fd00::3"},
            {"version": 4, "addr": "10.0.0.4"},
        ],
        "public": [{"version": 4, "addr": "203.0.113.5"}],
    }


def test_no_cache_and_vifs_without_network():
    assert addresses(None) == {}
    assert addresses([{"id": "port"}, _vif("empty")]) == {"empty": []}


def test_detailed_adds_the_kind_and_the_ports_mac():
    vif = _vif(
        "private",
        {"ips": [{"address": "10.0.0.3", "floating_ips": [{"address": "172.24.4.9"}]}]},
    )
    vif["address"] = "fa:16:3e:00:00:01"
    assert addresses([vif], detailed=True) == {
        "private": [
            {
                "version": 4,
                "addr": "10.0.0.3",
                "OS-EXT-IPS:type": "fixed",
                "OS-EXT-IPS-MAC:mac_addr": "fa:16:3e:00:00:01",
            },
            {
                "version": 4,
                "addr": "172.24.4.9",
                "OS-EXT-IPS:type": "floating",
                "OS-EXT-IPS-MAC:mac_addr": "fa:16:3e:00:00:01",
            },
        ]
    }
