"""A real guest on a real Neutron network: QEMU (TCG) through our libvirt
driver, ML2/OVS on the userspace datapath with its DHCP and metadata agents.

The guest's init takes a DHCP lease (``GUEST-DHCP`` on its console: the
address must be its port's fixed IP), fetches
``http://169.254.169.254/openstack/latest/meta_data.json`` through
Neutron's metadata agent from our nova-metadata-api (``GUEST-METADATA``:
its own uuid), then reports every NIC hot-plugged in or out; the test
attaches a second port with ``openstack server add port`` and sees the
guest find it, detaches it, and deletes the server: no tap is left on the
switch and no port in Neutron.

Prints create to ACTIVE, create to the guest's lease and metadata, and the
attach's latency.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import time
from collections.abc import Iterator

import pytest

from nova.launcher.neutron import NovaMetadata
from nova.states import power_state
from tests.e2e.conftest import _libvirt_compute, compute_host_name
from tests.e2e.test_libvirt_guest_lifecycle import (  # noqa: F401  (fixtures)
    BOOT_TIMEOUT,
    _console_log,
    _unique,
    _wait_status,
    flavor,
    image_set,
)
from tests.fixtures import local_cloud as local_cloud_fixture
from tests.fixtures import neutron as neutron_fixture
from tests.fixtures import secrets as test_secrets
from tests.fixtures.databases import skip_or_fail
from tests.fixtures.local_cloud import LocalCloud, wait_for
from tests.fixtures.neutron import NEUTRON_GROUP
from tests.fixtures.neutron_cloud import _NeutronSection
from tests.fixtures.openstack_services import _handle

pytestmark = [pytest.mark.e2e, pytest.mark.mysql, pytest.mark.rabbitmq, NEUTRON_GROUP]

CIDR = "10.77.0.0/24"


@pytest.fixture(scope="module")
def libvirt_cloud(libvirt_host, tmp_path_factory) -> Iterator[tuple]:
    """A cloud whose only compute runs the libvirt driver, with a real
    Neutron whose OVS agent serves that compute's host, and Neutron's
    metadata proxy in front of our metadata API."""
    reason = (
        local_cloud_fixture.unavailable_reason() or neutron_fixture.unavailable_reason()
    )
    if reason:
        skip_or_fail(reason)
    root = tmp_path_factory.mktemp("libvirt-neutron")
    host = compute_host_name()
    secret = secrets.token_urlsafe(18)
    test_secrets.register(secret)
    neutron_section = _NeutronSection()
    ports = {}

    def more_options(settings):
        ports["metadata"] = settings.ports.nova_metadata
        options = neutron_section(settings)
        options["neutron"].update(
            service_metadata_proxy=True, metadata_proxy_shared_secret=secret
        )
        return options

    state_dir = root / "cloud"
    state_dir.mkdir()
    deployment = local_cloud_fixture.start_local_cloud(
        state_dir, os.getpid(), computes=0, more_options=more_options
    )
    neutron = None
    try:
        services = _handle(deployment.upstream, deployment.state.root)
        neutron = neutron_fixture.start_neutron(
            services,
            root / "neutron",
            os.getpid(),
            agent_hosts=(host,),
            api_port=neutron_section.port,
            metadata=NovaMetadata("127.0.0.1", ports["metadata"], secret),
        )
        cloud = LocalCloud(
            deployment=deployment, services=services, lock_path=root / "tests.lock"
        )
        more_conf = (
            "[os_vif_ovs]\n"
            f"ovsdb_connection = {neutron.switch.connection}\n"
            "[DEFAULT]\n"
            "vif_plugging_timeout = 120\n"
        )
        with _libvirt_compute(cloud, root, host, more_conf) as compute:
            compute.neutron = neutron_fixture.service_handle(neutron, services)
            yield cloud, compute
    finally:
        if neutron is not None:
            neutron_fixture.stop_neutron(neutron)
        local_cloud_fixture.stop_local_cloud(state_dir)


def _network(client) -> tuple[dict, dict]:
    net = client.post("/networks", json={"network": {"name": _unique("net")}})
    assert net.status_code == 201, net.text
    net = net.json()["network"]
    subnet = client.post(
        "/subnets",
        json={
            "subnet": {
                "network_id": net["id"],
                "cidr": CIDR,
                "ip_version": 4,
                "enable_dhcp": True,
            }
        },
    )
    assert subnet.status_code == 201, subnet.text
    return net, subnet.json()["subnet"]


def _console_line(cloud, server_id: str, prefix: str, timeout=BOOT_TIMEOUT) -> str:
    def printed():
        for line in _console_log(cloud, server_id).splitlines():
            if line.strip().startswith(prefix):
                return line.strip()
        return None

    return wait_for(printed, timeout, f"{prefix} on {server_id}'s console", 1)


def _taps_on_switch(neutron) -> list[str]:
    switch = neutron.launcher.switch
    out = subprocess.run(
        ["ovs-vsctl", f"--db={switch.connection}", "list-ifaces",
         neutron.bridges[neutron.agent_hosts[0]]],
        capture_output=True, text=True, check=True, timeout=60,
    ).stdout  # fmt: skip
    return [name for name in out.split() if name.startswith("tap")]


def test_guest_gets_its_address_and_metadata_and_a_hot_plugged_nic(
    libvirt_cloud,
    image_set,  # noqa: F811
    flavor,  # noqa: F811
):
    cloud, compute = libvirt_cloud
    neutron = compute.neutron
    demo = cloud.services.demo_cloud
    client = neutron.client(cloud.services.session(cloud.services.demo))
    net, _subnet = _network(client)

    started = time.monotonic()
    created = cloud.openstack(
        "server", "create", "--flavor", flavor, "--image", image_set["disk"]["id"],
        "--network", net["id"], _unique("net"), cloud=demo,
    )  # fmt: skip
    server_id = created["id"]
    shown = _wait_status(cloud, server_id, "ACTIVE", power_state.RUNNING)
    active = time.monotonic() - started
    admin = neutron.client()
    ports = admin.get("/ports", params={"device_id": server_id}).json()["ports"]
    assert len(ports) == 1
    port = ports[0]
    fixed_ip = port["fixed_ips"][0]["ip_address"]
    assert port["status"] == "ACTIVE"
    assert port["binding:vif_type"] == "ovs"
    assert net["name"] in shown["addresses"]
    tap = ("tap" + port["id"])[:14]
    assert tap in _taps_on_switch(neutron)

    lease = _console_line(cloud, server_id, "GUEST-DHCP")
    leased = time.monotonic() - started
    assert lease.split()[2] == fixed_ip, lease
    metadata = _console_line(cloud, server_id, "GUEST-METADATA")
    fetched = time.monotonic() - started
    assert metadata == f"GUEST-METADATA uuid={server_id}"

    second = client.post("/ports", json={"port": {"network_id": net["id"]}})
    assert second.status_code == 201, second.text
    second = second.json()["port"]
    attach_started = time.monotonic()
    cloud.openstack("server", "add", "port", server_id, second["id"], cloud=demo,
                    json_output=False)  # fmt: skip
    attached = time.monotonic() - attach_started
    added = _console_line(cloud, server_id, "GUEST-NIC-ADDED", 120)
    seen = time.monotonic() - attach_started
    assert added.split()[2] == second["mac_address"], added
    assert ("tap" + second["id"])[:14] in _taps_on_switch(neutron)
    print(
        f"\ncreate->ACTIVE {active:.1f} s, ->DHCP lease {leased:.1f} s, "
        f"->metadata {fetched:.1f} s; attach call {attached:.1f} s, "
        f"guest saw the NIC after {seen:.1f} s"
    )

    cloud.openstack("server", "remove", "port", server_id, second["id"], cloud=demo,
                    json_output=False)  # fmt: skip
    wait_for(
        lambda: not client.get(f"/ports/{second['id']}").json()["port"]["device_id"],
        120,
        "the second port to be detached",
    )
    _console_line(cloud, server_id, "GUEST-NIC-REMOVED", 120)
    assert ("tap" + second["id"])[:14] not in _taps_on_switch(neutron)
    # The user's own port is given back unbound.
    assert admin.get(f"/ports/{second['id']}").json()["port"]["binding:host_id"] == ""

    cloud.openstack("server", "delete", "--wait", server_id, cloud=demo,
                    json_output=False)  # fmt: skip
    assert admin.get("/ports", params={"device_id": server_id}).json()["ports"] == []
    # (The DHCP port's tap stays while the network does.)
    assert tap not in _taps_on_switch(neutron)
    client.delete(f"/ports/{second['id']}")
    client.delete(f"/networks/{net['id']}")
