"""An existing upstream nova.conf loads, and its values read back typed."""

import pathlib
import socket

import pytest
from oslo_config import cfg

UPSTREAM_CONF = (pathlib.Path(__file__).parent / "upstream_nova.conf").read_text()


def _read_every_option(conf: cfg.ConfigOpts) -> None:
    # oslo.config converts values lazily: reading each one is what proves
    # the whole file is valid.
    for name in conf:
        if isinstance(getattr(conf, name), cfg.ConfigOpts.GroupAttr):
            for opt_name in conf[name]:
                getattr(conf[name], opt_name)


def test_upstream_file_loads_and_every_value_converts(load):
    conf = load(UPSTREAM_CONF)

    _read_every_option(conf)


def test_values_read_back_with_their_types(load):
    conf = load(UPSTREAM_CONF)

    assert conf.host == "compute-01.example.org"
    assert conf.my_ip == "10.0.0.11"
    assert conf.instances_path == "/var/lib/nova/instances"
    assert conf.enabled_apis == ["osapi_compute", "metadata"]
    assert conf.osapi_compute_workers == 4
    assert conf.cpu_allocation_ratio == 16.0
    assert conf.ram_allocation_ratio is None
    assert conf.initial_ram_allocation_ratio == 1.5
    assert conf.reserved_huge_pages == [
        {"node": "0", "size": "2048", "count": "64"},
        {"node": "1", "size": "1GB", "count": "1"},
    ]
    assert conf.api.dhcp_domain == ""
    assert conf.database.max_pool_size == 20
    assert conf.filter_scheduler.available_filters == [
        "nova.scheduler.filters.all_filters",
        "mycloud.scheduler.filters.RackFilter",
    ]
    assert conf.filter_scheduler.enabled_filters[-1] == "PciPassthroughFilter"
    assert conf.filter_scheduler.ram_weight_multiplier == -1.0
    assert conf.placement.region_name == "RegionOne"
    assert conf.placement.auth_type == "password"
    assert conf.neutron.service_metadata_proxy is True
    assert conf.libvirt.cpu_models == ["Nehalem", "Haswell-noTSX"]
    assert conf.libvirt.num_pcie_ports == 16
    assert conf.vnc.server_proxyclient_address == "10.0.0.11"
    assert conf.quota.cores == -1
    assert len(conf.pci.alias) == 2


def test_oslo_messaging_options_are_readable(load):
    conf = load(UPSTREAM_CONF)

    assert conf.transport_url.startswith("rabbit://nova:rabbitpass@rabbit-1")
    assert conf.rpc_response_timeout == 120
    assert conf.control_exchange == "nova"


def test_pre_rename_option_names_still_apply(load):
    conf = load(UPSTREAM_CONF)

    assert conf.vnc.server_listen == "0.0.0.0"  # [DEFAULT] vncserver_listen
    assert conf.pci.device_spec == ['{"vendor_id":"8086", "product_id":"154c"}']


def test_defaults_without_a_file(load):
    conf = load("")

    assert conf.host == socket.gethostname()
    assert conf.osapi_compute_listen == "0.0.0.0"
    assert conf.osapi_compute_listen_port == 8774
    assert conf.metadata_listen_port == 8775
    assert conf.service_down_time == 60
    assert conf.report_interval == 10
    assert conf.shutdown_timeout == 60
    assert conf.max_concurrent_builds == 10
    assert conf.initial_cpu_allocation_ratio == 4.0
    assert conf.reserved_host_memory_mb == 512
    assert conf.control_exchange == "nova"
    assert conf.api.auth_strategy == "keystone"
    assert conf.api.max_limit == 1000
    assert conf.scheduler.max_attempts == 3
    assert conf.scheduler.discover_hosts_in_cells_interval == -1
    assert conf.filter_scheduler.enabled_filters == [
        "ComputeFilter",
        "ComputeCapabilitiesFilter",
        "ImagePropertiesFilter",
        "ServerGroupAntiAffinityFilter",
        "ServerGroupAffinityFilter",
    ]
    assert conf.quota.ram == 51200
    assert conf.vnc.novncproxy_port == 6080
    assert conf.consoleauth.token_ttl == 600
    assert conf.image_cache.subdirectory_name == "_base"
    assert conf.database.connection is None


@pytest.mark.parametrize(
    ("group", "service_type"),
    [
        ("placement", "placement"),
        ("glance", "image"),
        ("neutron", "network"),
        ("keystone", "identity"),
    ],
)
def test_service_clients_default_to_upstream_service_types(load, group, service_type):
    conf = load("")

    assert conf[group].service_type == service_type
    assert conf[group].valid_interfaces == ["internal", "public"]
