"""benchmarks/fake_hosts.py: hosts registered in bulk are what a compute
would have registered, in the databases and in the real Placement."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from oslo_utils import uuidutils

from nova import objects

_PATH = Path(__file__).resolve().parents[3] / "benchmarks" / "fake_hosts.py"
_SPEC = importlib.util.spec_from_file_location("fake_hosts", _PATH)
fake_hosts = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(fake_hosts)


def test_copies_match_the_template_the_resource_tracker_wrote(cloud):
    suffix = uuidutils.generate_uuid()[:8]
    names = [f"fake-{suffix}-{i}" for i in range(6)]
    fake_hosts.add_hosts(cloud.ctxt, names[:4], concurrency=3)
    # A second call copies the same template for the new hosts only.
    fake_hosts.add_hosts(cloud.ctxt, names[4:], concurrency=3)

    nodes = {node.host: node for node in objects.ComputeNodeList.get_all(cloud.ctxt)}
    assert sorted(nodes) == sorted(names)
    assert len({node.uuid for node in nodes.values()}) == len(names)
    template = nodes[names[0]]
    template_inventory = cloud.client.get_inventory(template.uuid).inventories
    assert template_inventory["VCPU"]["total"] == template.vcpus
    for name in names:
        node = nodes[name]
        service = objects.Service.get_by_compute_host(cloud.ctxt, name)
        assert node.service_id == service.id
        assert node.hypervisor_hostname == name
        assert (node.vcpus, node.memory_mb, node.local_gb) == (
            template.vcpus,
            template.memory_mb,
            template.local_gb,
        )
        mapping = objects.HostMapping.get_by_host(cloud.ctxt, name)
        assert mapping.cell_mapping.uuid == cloud.cell.uuid
        assert cloud.client.get_provider(node.uuid).name == name
        assert cloud.client.get_inventory(node.uuid).inventories == template_inventory
    assert fake_hosts.registered_hosts(cloud.ctxt) == len(names)
