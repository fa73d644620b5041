"""Values outside an option's choices or bounds are refused."""

import pytest
from oslo_config import cfg


@pytest.mark.parametrize(
    ("text", "group", "name"),
    [
        ("[api]\nauth_strategy = noauth\n", "api", "auth_strategy"),
        ("[libvirt]\nvirt_type = xen\n", "libvirt", "virt_type"),
        ("[libvirt]\nnum_pcie_ports = 29\n", "libvirt", "num_pcie_ports"),
        ("[scheduler]\nmax_attempts = 0\n", "scheduler", "max_attempts"),
        ("[quota]\ninstances = -2\n", "quota", "instances"),
        (
            "[DEFAULT]\nosapi_compute_listen_port = 70000\n",
            None,
            "osapi_compute_listen_port",
        ),
        ("[DEFAULT]\nmy_ip = not-an-ip\n", None, "my_ip"),
        ("[DEFAULT]\nreserved_host_memory_mb = -1\n", None, "reserved_host_memory_mb"),
        ("[DEFAULT]\nenabled_apis = osapi_compute,ec2\n", None, "enabled_apis"),
        ("[vnc]\nauth_schemes = none,sasl\n", "vnc", "auth_schemes"),
        (
            "[filter_scheduler]\nimage_properties_default_architecture = x86\n",
            "filter_scheduler",
            "image_properties_default_architecture",
        ),
        (
            "[DEFAULT]\ninstance_usage_audit_period = fortnight\n",
            None,
            "instance_usage_audit_period",
        ),
    ],
)
def test_bad_value_is_refused(load, text, group, name):
    conf = load(text)
    section = conf[group] if group else conf

    with pytest.raises(cfg.ConfigFileValueError):
        getattr(section, name)


def test_noauth2_is_accepted(load):
    assert load("[api]\nauth_strategy = noauth2\n").api.auth_strategy == "noauth2"
