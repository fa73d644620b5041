"""The server body per microversion, from fixture objects."""

import datetime
import uuid

import pytest

from nova import objects
from nova.api.openstack.compute.views import servers as views
from nova.objects import flavor as flavor_obj  # noqa: F401
from tests.unit.api.conftest import admin_request, make_request

objects.register_all()

CREATED = datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.UTC)
IMAGE = "70a599e0-31e7-49b7-b260-868f441e862b"

BASE_KEYS = {
    "id", "name", "status", "tenant_id", "user_id", "metadata", "hostId", "image",
    "flavor", "created", "updated", "addresses", "accessIPv4", "accessIPv6", "links",
    "OS-DCF:diskConfig", "key_name", "config_drive", "OS-EXT-AZ:availability_zone",
    "OS-EXT-STS:power_state", "OS-EXT-STS:task_state", "OS-EXT-STS:vm_state",
    "OS-SRV-USG:launched_at", "OS-SRV-USG:terminated_at",
    "os-extended-volumes:volumes_attached",
}  # fmt: skip
ADMIN_KEYS = {
    "OS-EXT-SRV-ATTR:host", "OS-EXT-SRV-ATTR:hypervisor_hostname",
    "OS-EXT-SRV-ATTR:instance_name",
}  # fmt: skip
ADMIN_KEYS_V23 = {
    "OS-EXT-SRV-ATTR:reservation_id", "OS-EXT-SRV-ATTR:launch_index",
    "OS-EXT-SRV-ATTR:hostname", "OS-EXT-SRV-ATTR:kernel_id",
    "OS-EXT-SRV-ATTR:ramdisk_id", "OS-EXT-SRV-ATTR:root_device_name",
    "OS-EXT-SRV-ATTR:user_data",
}  # fmt: skip


class FakeComputeAPI:
    """What the views look up beyond the instance."""

    def __init__(self, service=None, spec=None, groups=None):
        self.service = service
        self.spec = spec
        self.groups = groups or {}

    def host_zones(self, context):
        return {"compute-1": "zone-a"}

    def default_availability_zone(self):
        return "nova"

    def request_specs(self, context, uuids):
        return {u: self.spec for u in uuids} if self.spec else {}

    def compute_services_by_host(self, context, instances):
        return {"compute-1": self.service} if self.service else {}

    def service_is_up(self, service):
        return service.report_count > 0

    def security_groups(self, context, instances):
        return {i.uuid: self.groups for i in instances if self.groups}


def make_instance(**values):
    flavor = objects.Flavor(
        id=1, flavorid="42", name="m1.tiny", memory_mb=512, vcpus=1, root_gb=1,
        ephemeral_gb=0, swap=0, extra_specs={"hw:cpu_policy": "shared"},
    )  # fmt: skip
    fields = dict(
        id=7, uuid=str(uuid.uuid4()), display_name="s1", display_description=None,
        project_id="project1", user_id="user1", vm_state="active", task_state=None,
        power_state=1, host="compute-1", node="node-1", image_ref=IMAGE,
        created_at=CREATED, updated_at=CREATED, launched_at=CREATED,
        terminated_at=None, metadata={"k": "v"}, flavor=flavor, locked=False,
        hostname="s1", availability_zone=None, key_name=None, config_drive="",
        system_metadata={"image_min_ram": "0", "image_disk_format": "raw"},
        tags=objects.TagList.from_names(None, None, ["t1"]), fault=None,
        progress=0, auto_disk_config=False, access_ip_v4=None, access_ip_v6=None,
        reservation_id="r-1", launch_index=0, kernel_id=None, ramdisk_id=None,
        root_device_name="/dev/vda", user_data=None, deleted=False,
    )  # fmt: skip
    fields.update(values)
    return objects.Instance(**fields)


def show(req, instance, **fake):
    return views.ServerViews(req, FakeComputeAPI(**fake)).show(instance)["server"]


def test_2_1_member_sees_the_base_body_only():
    body = show(make_request(version="2.1"), make_instance())
    assert set(body) == BASE_KEYS | {"progress"}
    assert body["status"] == "ACTIVE"
    assert body["flavor"] == {
        "id": "42",
        "links": [{"rel": "bookmark", "href": "http://localhost/flavors/42"}],
    }
    assert body["image"]["id"] == IMAGE
    assert body["created"] == "2026-01-02T03:04:05Z"
    assert body["OS-SRV-USG:launched_at"] == "2026-01-02T03:04:05"
    assert body["OS-EXT-AZ:availability_zone"] == "zone-a"
    assert len(body["hostId"]) == 56


def test_2_1_admin_sees_where_the_server_runs():
    body = show(admin_request(version="2.1"), make_instance())
    assert set(body) == BASE_KEYS | ADMIN_KEYS | {"progress"}
    assert body["OS-EXT-SRV-ATTR:host"] == "compute-1"
    assert body["OS-EXT-SRV-ATTR:hypervisor_hostname"] == "node-1"


def test_2_3_admin_sees_the_extended_attributes():
    body = show(admin_request(version="2.3"), make_instance())
    assert ADMIN_KEYS_V23 <= set(body)
    assert not ADMIN_KEYS_V23 & set(show(make_request(version="2.3"), make_instance()))


@pytest.mark.parametrize(
    "version, added",
    [("2.9", {"locked"}), ("2.19", {"description"}), ("2.26", {"tags"}),
     ("2.63", {"trusted_image_certificates"}), ("2.71", {"server_groups"}),
     ("2.73", {"locked_reason"}), ("2.90", {"OS-EXT-SRV-ATTR:hostname"}),
     ("2.96", {"pinned_availability_zone"}), ("2.100", {"scheduler_hints"})],
)  # fmt: skip
def test_fields_appear_at_their_microversion(version, added):
    major, minor = version.split(".")
    before = f"{major}.{int(minor) - 1}"
    assert not added & set(show(make_request(version=before), make_instance()))
    assert added <= set(show(make_request(version=version), make_instance()))


def test_2_47_embeds_the_flavor_with_extra_specs():
    body = show(make_request(version="2.47"), make_instance())
    assert body["flavor"] == {
        "vcpus": 1, "ram": 512, "disk": 1, "ephemeral": 0, "swap": 0,
        "original_name": "m1.tiny", "extra_specs": {"hw:cpu_policy": "shared"},
    }  # fmt: skip


def test_2_16_host_status_is_for_admins():
    service = objects.Service(forced_down=False, disabled=False, report_count=1)
    assert (
        show(admin_request(version="2.16"), make_instance(), service=service)[
            "host_status"
        ]
        == "UP"
    )
    service.disabled = True
    assert (
        show(admin_request(version="2.16"), make_instance(), service=service)[
            "host_status"
        ]
        == "MAINTENANCE"
    )
    assert "host_status" not in show(make_request(version="2.16"), make_instance())


def test_2_98_image_properties_come_from_system_metadata():
    image = show(make_request(version="2.98"), make_instance())["image"]
    assert image["properties"] == {"min_ram": "0", "disk_format": "raw"}


def test_2_96_and_2_100_come_from_the_request_spec():
    spec = objects.RequestSpec(availability_zone="zone-a", scheduler_hints={"a": ["b"]})
    body = show(make_request(version="2.100"), make_instance(), spec=spec)
    assert body["pinned_availability_zone"] == "zone-a"
    assert body["scheduler_hints"] == {"a": ["b"]}


def test_a_server_with_ports_shows_their_security_groups():
    groups = [{"name": "default"}, {"name": "web"}]
    body = show(make_request(version="2.1"), make_instance(), groups=groups)
    assert body["security_groups"] == groups
    # A server without ports (or without groups) has no key.
    assert "security_groups" not in show(make_request(version="2.1"), make_instance())


def test_detail_has_no_server_groups():
    req = make_request(path="/v2.1/servers/detail", version="2.71")
    body = views.ServerViews(req, FakeComputeAPI()).detail([make_instance()])
    assert "server_groups" not in body["servers"][0]


def test_update_before_2_75_is_the_short_body():
    req = make_request(version="2.74")
    body = views.ServerViews(req, FakeComputeAPI()).update(make_instance())["server"]
    assert "OS-EXT-STS:vm_state" not in body and "server_groups" in body
    req = make_request(version="2.75")
    body = views.ServerViews(req, FakeComputeAPI()).update(make_instance())["server"]
    assert "OS-EXT-STS:vm_state" in body


def test_an_error_server_shows_its_fault_details_unless_a_500():
    fault = objects.InstanceFault(code=500, message="No valid host", details="trace",
                                  created_at=CREATED)  # fmt: skip
    instance = make_instance(vm_state="error", fault=fault)
    assert show(make_request(), instance)["fault"] == {
        "code": 500, "created": "2026-01-02T03:04:05Z", "message": "No valid host",
    }  # fmt: skip
    assert show(admin_request(), instance)["fault"]["details"] == "trace"


def test_a_server_being_built_has_no_host_and_its_requested_zone():
    instance = make_instance(
        vm_state="building", task_state="scheduling", host=None, node=None,
        availability_zone="zone-b", launched_at=None, updated_at=None,
    )  # fmt: skip
    body = show(make_request(), instance)
    assert body["status"] == "BUILD"
    assert body["hostId"] == ""
    assert body["OS-EXT-AZ:availability_zone"] == "zone-b"
    assert body["updated"] == body["created"]


def test_a_volume_backed_server_has_no_image():
    assert show(make_request(), make_instance(image_ref=""))["image"] == ""


def test_links_keep_the_project_of_the_url():
    req = make_request(path="/v2.1/project1/servers/x", version="2.1")
    req.url_project_id = "project1"
    instance = make_instance()
    links = show(req, instance)["links"]
    assert links[0]["href"] == f"http://localhost/v2.1/project1/servers/{instance.uuid}"
    assert links[1]["href"] == f"http://localhost/project1/servers/{instance.uuid}"
