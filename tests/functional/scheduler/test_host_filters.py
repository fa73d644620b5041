"""Each host filter's effect on hosts the real Placement proposed: the
filter alone is enabled, and the hosts it must remove never get chosen."""

import json

import pytest

from nova import exception, objects
from nova.scheduler import manager
from tests.functional.scheduler.conftest import select


def _chosen(cloud, spec_obj) -> str:
    [[chosen, *_]] = select(cloud.ctxt, spec_obj)
    return chosen.service_host


@pytest.fixture
def only(flags):
    def enable(*names):
        flags("filter_scheduler", enabled_filters=list(names))

    return enable


def test_aggregate_instance_extra_specs(cloud, only):
    only("AggregateInstanceExtraSpecsFilter")
    ssd = cloud.add_host("hf-ssd")
    cloud.add_host("hf-hdd")
    cloud.add_aggregate("hf-fast", [ssd], {"ssd": "true"})
    wanted = cloud.spec(extra_specs={"aggregate_instance_extra_specs:ssd": "true"})
    for _ in range(3):
        assert _chosen(cloud, wanted) == "hf-ssd"


def test_aggregate_image_properties_isolation(cloud, only):
    only("AggregateImagePropertiesIsolation")
    arm = cloud.add_host("hf-arm")
    x86 = cloud.add_host("hf-x86")
    cloud.add_aggregate("hf-arm", [arm], {"hw_architecture": "aarch64"})
    cloud.add_aggregate("hf-x86", [x86], {"hw_architecture": "x86_64"})
    image = objects.ImageMeta.from_dict({"properties": {"hw_architecture": "aarch64"}})
    for _ in range(3):
        assert _chosen(cloud, cloud.spec(image=image)) == "hf-arm"


def test_aggregate_multitenancy_isolation(cloud, only):
    only("AggregateMultiTenancyIsolation")
    reserved = cloud.add_host("hf-reserved")
    cloud.add_host("hf-shared")
    cloud.add_aggregate("hf-res", [reserved], {"filter_tenant_id": "p-a,p-b"})
    for _ in range(3):
        assert _chosen(cloud, cloud.spec(project_id="p-other")) == "hf-shared"
    with pytest.raises(exception.NoValidHost) as error:
        select(cloud.ctxt, cloud.spec(project_id="p-c", ignore_hosts=["hf-shared"]))
    assert "AggregateMultiTenancyIsolation removed 1 of 1" in str(error.value)


def test_io_ops_and_num_instances(cloud, only, flags):
    only("IoOpsFilter", "NumInstancesFilter")
    flags("filter_scheduler", max_io_ops_per_host=2, max_instances_per_host=5)
    cloud.add_host("hf-busy", stats={"io_workload": "2"})
    cloud.add_host("hf-full", stats={"num_instances": "5"})
    cloud.add_host("hf-idle")
    scheduler = manager.SchedulerManager("s")
    for _ in range(2):
        [[chosen, *_]] = select(cloud.ctxt, cloud.spec(), scheduler=scheduler)
        assert chosen.service_host == "hf-idle"
    # The builds this scheduler placed count as I/O work at once.
    with pytest.raises(exception.NoValidHost) as error:
        select(cloud.ctxt, cloud.spec(), scheduler=scheduler)
    message = str(error.value)
    assert "IoOpsFilter removed 2 of 3" in message
    assert "NumInstancesFilter removed 1 of 1" in message


def test_isolated_hosts(cloud, only, flags):
    only("IsolatedHostsFilter")
    image_id = "9a1a7d0e-1111-4222-8333-444455556666"
    flags(
        "filter_scheduler",
        isolated_hosts=["hf-isolated"],
        isolated_images=[image_id],
    )
    cloud.add_host("hf-isolated")
    cloud.add_host("hf-general")
    isolated = objects.ImageMeta.from_dict({"id": image_id, "properties": {}})
    other = objects.ImageMeta.from_dict(
        {"id": "9a1a7d0e-0000-4222-8333-444455556666", "properties": {}}
    )
    for _ in range(2):
        assert _chosen(cloud, cloud.spec(image=isolated)) == "hf-isolated"
        assert _chosen(cloud, cloud.spec(image=other)) == "hf-general"


def test_json_filter(cloud, only):
    only("JsonFilter")
    cloud.add_host("hf-big", vcpus=16)
    cloud.add_host("hf-small", vcpus=4)
    query = json.dumps([">=", "$vcpus_free", 8])
    for _ in range(3):
        spec_obj = cloud.spec(scheduler_hints={"query": [query]})
        assert _chosen(cloud, spec_obj) == "hf-big"


def test_different_and_same_host(cloud, only):
    a = cloud.add_host("hf-a")
    cloud.add_host("hf-b")
    instance_uuid = "c0ffee00-1111-4222-8333-444455556666"
    objects.InstanceMapping(
        cloud.ctxt,
        instance_uuid=instance_uuid,
        project_id="p",
        cell_mapping=cloud.cell,
    ).create()
    instance = objects.Instance(
        cloud.ctxt,
        uuid=instance_uuid,
        project_id="p",
        user_id="u",
        host=a.host,
        node=a.hypervisor_hostname,
        vm_state="active",
    )
    instance.create()
    only("DifferentHostFilter")
    for _ in range(3):
        spec_obj = cloud.spec(scheduler_hints={"different_host": [instance_uuid]})
        assert _chosen(cloud, spec_obj) == "hf-b"
    only("SameHostFilter")
    spec_obj = cloud.spec(scheduler_hints={"same_host": [instance_uuid]})
    assert _chosen(cloud, spec_obj) == "hf-a"
