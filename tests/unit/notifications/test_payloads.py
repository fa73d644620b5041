"""Payloads built from nova's objects match upstream's shape (our samples)
field for field, with the values taken from the right places."""

from __future__ import annotations

import datetime
import sys

import pytest
from oslo_messaging._drivers import common as rpc_common

from nova import context, crypto, exception, objects
from nova.notifications.payloads import instance as payloads
from nova.notifications.payloads.exception import ExceptionPayload
from nova.notifications.payloads.flavor import FlavorPayload
from nova.notifications.payloads.keypair import KeypairPayload
from nova.notifications.payloads.request_spec import RequestSpecPayload
from nova.notifications.payloads.service import ServiceStatusPayload
from nova.states import power_state
from tests.fixtures import notification_samples

UUID = "0c4b5cbe-2f40-4a8e-9d55-8a1c3c1fd2f7"
NETWORK_INFO = [
    {
        "id": "ce531f90-199f-48c0-816c-13e38010b442",
        "address": "fa:16:3e:4c:2c:30",
        "devname": "tapce531f90-19",
        "meta": {"mtu": 1450},
        "network": {
            "label": "private",
            "subnets": [
                {
                    "version": 4,
                    "ips": [
                        {"address": "10.0.0.5", "type": "fixed", "version": 4},
                        {"address": "172.24.4.9", "type": "floating", "version": 4},
                    ],
                }
            ],
        },
    }
]


def _flavor(**values):
    fields = dict(
        id=7, flavorid="small", name="small", memory_mb=256, vcpus=1, root_gb=1,
        ephemeral_gb=0, swap=0, rxtx_factor=1.0, vcpu_weight=None, disabled=False,
        is_public=True, extra_specs={}, projects=["p1"], description=None,
    )  # fmt: skip
    fields.update(values)
    return objects.Flavor(**fields)


def _instance(ctxt, **values):
    now = datetime.datetime(2026, 12, 4, 14, 0, 0)
    fields = dict(
        id=1, uuid=UUID, user_id="demo", project_id="p1", reservation_id="r-1",
        display_name="web-1", display_description=None, hostname="web-1",
        host="compute-a", node="compute-a", os_type=None, architecture=None,
        availability_zone=None, image_ref="6e0f1c2a-7b3d-4c5e-8f9a-0b1c2d3e4f50",
        key_name=None, key_data=None, kernel_id=None, ramdisk_id=None,
        created_at=now, launched_at=now, terminated_at=None, deleted_at=None,
        updated_at=now, vm_state="active", power_state=power_state.RUNNING,
        task_state=None, progress=None, metadata={"role": "web"}, locked=False,
        auto_disk_config=False, system_metadata={}, flavor=_flavor(),
        info_cache=objects.InstanceInfoCache(
            instance_uuid=UUID, network_info=NETWORK_INFO
        ),
        tags=objects.TagList(objects=[objects.Tag(resource_id=UUID, tag="web")]),
    )  # fmt: skip
    fields.update(values)
    return objects.Instance(ctxt, **fields)


@pytest.fixture
def ctxt():
    objects.register_all()
    return context.RequestContext(user_id="demo", project_id="p1")


def _check(payload, sample_name=None):
    primitive = payload.to_primitive()
    sample = notification_samples.load_payload(sample_name or payload.obj_name())
    notification_samples.check_payload(primitive, sample)
    return primitive["nova_object.data"]


def test_instance_action_payload_takes_upstream_names(ctxt):
    data = _check(payloads.InstanceActionPayload(ctxt, _instance(ctxt)))
    assert data["uuid"] == UUID
    assert data["tenant_id"] == "p1"
    assert data["host_name"] == "web-1"
    assert data["image_uuid"] == "6e0f1c2a-7b3d-4c5e-8f9a-0b1c2d3e4f50"
    assert (data["state"], data["power_state"]) == ("active", "running")
    assert data["auto_disk_config"] == "MANUAL"
    assert data["progress"] == 0
    assert data["metadata"] == {"role": "web"}
    assert data["created_at"] == "2026-12-04T14:00:00Z"
    assert data["request_id"] == ctxt.request_id
    assert data["action_initiator_user"] == "demo"
    assert data["fault"] is None
    # Only fixed addresses, with their port.
    [ip] = data["ip_addresses"]
    assert ip["nova_object.data"]["address"] == "10.0.0.5"
    assert ip["nova_object.data"]["meta"] == {"mtu": "1450"}
    # The instance's copy of its flavor says nothing of the flavor's access.
    assert data["flavor"]["nova_object.data"]["projects"] is None
    # Upstream's envelope: no list of changed fields.
    assert "nova_object.changes" not in str(data)


def test_a_periodic_task_has_no_request_id(ctxt):
    periodic = context.get_admin_context()
    data = payloads.InstanceActionPayload(periodic, _instance(ctxt)).to_primitive()
    assert data["nova_object.data"]["request_id"] is None


def test_locked_reason_comes_from_system_metadata(ctxt):
    instance = _instance(
        ctxt, locked=True, system_metadata={"locked_reason": "maintenance"}
    )
    data = _check(payloads.InstanceActionPayload(ctxt, instance))
    assert (data["locked"], data["locked_reason"]) == (True, "maintenance")


def test_fault_names_where_the_exception_was_raised(ctxt):
    def spawn():
        raise exception.InstanceNotFound(instance_id=UUID)

    try:
        spawn()
    except exception.InstanceNotFound as exc:
        fault = ExceptionPayload.from_exception(exc)
    data = _check(
        payloads.InstanceActionPayload(ctxt, _instance(ctxt), fault),
        "InstanceActionErrorPayload",
    )
    fault_data = data["fault"]["nova_object.data"]
    assert fault_data["function_name"] == "spawn"
    assert fault_data["module_name"] == __name__
    assert fault_data["exception"] == "InstanceNotFound"
    assert UUID in fault_data["exception_message"]
    assert fault_data["traceback"].startswith("Traceback")


def test_create_payload_has_the_boot_key_pair_and_tags(ctxt):
    _, public_key, fingerprint = crypto.generate_ssh_key_pair()
    instance = _instance(ctxt, key_name="my-key", key_data=public_key)
    data = _check(payloads.InstanceCreatePayload(ctxt, instance))
    [keypair] = data["keypairs"]
    assert keypair["nova_object.data"] == {
        "user_id": "demo",
        "name": "my-key",
        "fingerprint": fingerprint,
        "public_key": public_key,
        "type": "ssh",
    }
    assert data["tags"] == ["web"]
    assert data["instance_name"] == instance.name
    assert data["key_name"] == "my-key"


def test_action_payloads_with_their_own_fields(ctxt):
    instance = _instance(ctxt)
    image = "d2aae36f-785c-4518-8016-bc9534d9fc7f"
    data = _check(
        payloads.InstanceActionSnapshotPayload(
            ctxt, instance, None, snapshot_image_id=image
        )
    )
    assert data["snapshot_image_id"] == image
    data = _check(
        payloads.InstanceActionRescuePayload(
            ctxt, instance, None, rescue_image_ref=image
        )
    )
    assert data["rescue_image_ref"] == image
    _check(payloads.InstanceActionRebuildPayload(ctxt, instance))


def test_share_mapping_is_included_only_when_asked(ctxt):
    from nova.conf import CONF

    data = payloads.InstanceActionPayload(ctxt, _instance(ctxt)).to_primitive()
    assert "shares" not in data["nova_object.data"]
    CONF.set_override("include_share_mapping", True, group="notifications")
    try:
        data = payloads.InstanceActionPayload(ctxt, _instance(ctxt)).to_primitive()
    finally:
        CONF.clear_override("include_share_mapping", group="notifications")
    assert data["nova_object.data"]["shares"] == []


def test_flavor_keypair_and_service_payloads(ctxt):
    flavor = _flavor()
    flavor.obj_reset_changes()
    del flavor.projects  # not loaded: null, never a lazy load
    data = _check(FlavorPayload.from_sources(flavor=flavor))
    assert (data["flavorid"], data["projects"]) == ("small", None)
    keypair = objects.KeyPair(
        user_id="demo", name="k", fingerprint="aa:bb", public_key="ssh-rsa AAA",
        type="ssh",
    )  # fmt: skip
    assert _check(KeypairPayload.from_sources(keypair=keypair))["name"] == "k"
    service = objects.Service(
        uuid="fa69c544-906b-4a6a-a9c6-c1f7a8078c73", host="compute-a",
        binary="nova-compute", topic="compute", report_count=1, disabled=False,
        disabled_reason=None, availability_zone=None,
        last_seen_up=datetime.datetime(2026, 12, 4, 14, 0), forced_down=False,
        version=10,
    )  # fmt: skip
    data = _check(ServiceStatusPayload.from_sources(service=service))
    assert (data["binary"], data["last_seen_up"]) == (
        "nova-compute",
        "2026-12-04T14:00:00Z",
    )


def test_checker_rejects_a_missing_field_and_a_wrong_version(ctxt):
    primitive = payloads.InstanceActionPayload(ctxt, _instance(ctxt)).to_primitive()
    sample = notification_samples.load_payload("InstanceActionPayload")
    del primitive["nova_object.data"]["locked_reason"]
    with pytest.raises(AssertionError, match="missing \\['locked_reason'\\]"):
        notification_samples.check_payload(primitive, sample)
    primitive = payloads.InstanceActionPayload(ctxt, _instance(ctxt)).to_primitive()
    primitive["nova_object.version"] = "1.5"
    with pytest.raises(AssertionError, match="nova_object.version"):
        notification_samples.check_payload(primitive, sample)


def test_request_spec_payload_with_its_image_and_flavor(ctxt):
    image = objects.ImageMeta.from_dict(
        {
            "id": "6e0f1c2a-7b3d-4c5e-8f9a-0b1c2d3e4f50",
            "name": "cirros",
            "status": "active",
            "visibility": "public",
            "protected": False,
            "size": 21430272,
            "container_format": "bare",
            "disk_format": "qcow2",
            "created_at": "2026-12-04T13:00:00Z",
            "updated_at": "2026-12-04T13:00:01Z",
            "tags": [],
            "min_ram": 0,
            "min_disk": 0,
            "properties": {"hw_disk_bus": "virtio", "os_type": "linux"},
        }
    )
    spec = objects.RequestSpec(
        instance_uuid=UUID, project_id="p1", user_id="demo", availability_zone=None,
        flavor=_flavor(), image=image, num_instances=1, ignore_hosts=None,
        force_hosts=["compute-a"], force_nodes=None, retry=None,
        instance_group=None, scheduler_hints={"group": ["g1"]},
        requested_destination=objects.Destination(
            host="compute-b", node="compute-b",
            cell=objects.CellMapping(
                uuid="2c4a7d59-1c55-4a8e-8f3b-0d7e2b1f6a90", name="cell1",
                transport_url="rabbit://secret@mq", database_connection="x",
            ),
        ),
    )  # fmt: skip
    data = _check(RequestSpecPayload.from_request_spec(spec))
    destination = data["requested_destination"]["nova_object.data"]
    assert destination["host"] == "compute-b"
    # The cell without its URLs (they hold passwords).
    assert set(destination["cell"]["nova_object.data"]) == {"uuid", "name", "disabled"}
    assert data["force_hosts"] == "compute-a"
    assert data["scheduler_hints"] == {"group": ["g1"]}
    image_data = data["image"]["nova_object.data"]
    assert (image_data["name"], image_data["checksum"]) == ("cirros", None)
    # Only the properties the image sets.
    assert image_data["properties"]["nova_object.data"] == {
        "hw_disk_bus": "virtio",
        "os_type": "linux",
    }
    assert "image_meta" not in data  # declared upstream, never filled


def test_update_and_exists_payloads_have_no_bandwidth(ctxt):
    instance = _instance(ctxt)
    period = payloads.AuditPeriodPayload(
        audit_period_beginning=datetime.datetime(2026, 12, 1),
        audit_period_ending=datetime.datetime(2026, 12, 2),
    )
    data = _check(payloads.InstanceExistsPayload(ctxt, instance, audit_period=period))
    assert "bandwidth" not in data
    update = payloads.InstanceUpdatePayload(
        ctxt,
        instance,
        state_update=payloads.InstanceStateUpdatePayload(
            old_state="building",
            state="active",
            old_task_state="spawning",
            new_task_state=None,
        ),  # fmt: skip
        audit_period=period,
        old_display_name=None,
        tags=["web"],
    )
    assert "bandwidth" not in _check(update)


def test_a_fault_raised_across_rpc_keeps_its_name_and_message(ctxt):
    try:
        raise exception.NoValidHost(reason="no room")
    except exception.NoValidHost:
        wire = rpc_common.serialize_remote_exception(sys.exc_info())
    remote = rpc_common.deserialize_remote_exception(wire, ["nova.exception"])
    assert type(remote).__name__ == "NoValidHost_Remote"
    data = _check(ExceptionPayload.from_exception(remote))
    assert data["exception"] == "NoValidHost"
    assert data["exception_message"] == "No valid host was found. no room"
