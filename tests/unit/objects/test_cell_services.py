"""Services, compute nodes, instance actions and faults in a cell database."""

from unittest import mock

import pytest

from nova import exception, objects
from nova.compute import utils as compute_utils
from tests.fixtures.compute_nodes import create_compute_node


def test_service_heartbeat_stamps_last_seen_up(ctxt):
    service = objects.Service(ctxt, host="h1", binary="nova-compute", topic="compute")
    service.create()
    assert service.uuid and service.last_seen_up and service.report_count == 0
    first_seen = service.last_seen_up
    service.report_count += 1
    service.save()
    assert service.last_seen_up >= first_seen
    assert objects.Service.get_by_compute_host(ctxt, "h1").report_count == 1
    duplicate = objects.Service(ctxt, host="h1", binary="nova-compute", topic="x")
    with pytest.raises(exception.ServiceBinaryExists):
        duplicate.create()
    assert objects.Service.get_by_host_and_binary(ctxt, "h1", "nova-x") is None


def test_service_list_zones_and_destroy(ctxt):
    compute = objects.Service(ctxt, host="h1", binary="nova-compute", topic="compute")
    compute.create()
    objects.Service(
        ctxt, host="c1", binary="nova-conductor", topic="conductor"
    ).create()
    node = create_compute_node(
        ctxt,
        "h1",
        supported_hv_specs=[["x86_64", "fake", "hvm"]],
        stats={"num_instances": "0"},
    )
    zones = {
        s.binary: s.availability_zone
        for s in objects.ServiceList.get_all(ctxt, set_zones=True)
    }
    assert zones == {"nova-compute": "nova", "nova-conductor": "internal"}
    compute.destroy()
    assert [s.binary for s in objects.ServiceList.get_all(ctxt)] == ["nova-conductor"]
    with pytest.raises(exception.ComputeHostNotFound):
        objects.ComputeNode.get_by_uuid(ctxt, node.uuid)


def test_compute_node_json_fields(ctxt):
    node = create_compute_node(
        ctxt,
        "h1",
        "n1",
        vcpus=4,
        memory_mb=1024,
        local_gb=10,
        supported_hv_specs=[["x86_64", "fake", "hvm"]],
        cpu_allocation_ratio=4.0,
    )
    node.stats = {"num_instances": "3"}
    node.save()
    loaded = objects.ComputeNode.get_by_host_and_nodename(ctxt, "h1", "n1")
    assert loaded.uuid == node.uuid
    assert loaded.stats == {"num_instances": "3"}
    assert loaded.supported_hv_specs == [["x86_64", "fake", "hvm"]]
    assert [
        n.uuid for n in objects.ComputeNodeList.get_all_by_uuids(ctxt, [node.uuid])
    ] == [node.uuid]


def test_actions_and_events(ctxt):
    uuid = "44444444-5555-6666-7777-888888888888"
    objects.InstanceAction.action_start(ctxt, uuid, "create", want_result=False)
    with compute_utils.EventReporter(ctxt, "compute_build", "h1", uuid):
        pass
    with pytest.raises(exception.NoValidHost):
        with compute_utils.EventReporter(ctxt, "compute_retry", "h1", uuid):
            raise exception.NoValidHost(reason="ComputeFilter removed 2 of 2")
    [action] = objects.InstanceActionList.get_by_instance_uuid(ctxt, uuid)
    assert (action.action, action.message) == ("create", "Error")
    assert action.request_id == ctxt.request_id
    events = objects.InstanceActionEventList.get_by_action(ctxt, action.id)
    assert [(e.event, e.result, e.host) for e in events] == [
        ("compute_build", "Success", "h1"),
        ("compute_retry", "Error", "h1"),
    ]
    assert "ComputeFilter removed 2 of 2" in events[1].details
    assert "Traceback" in events[1].traceback
    objects.InstanceAction.action_finish(ctxt, uuid, want_result=False)
    assert objects.InstanceAction.get_by_request_id(
        ctxt, uuid, ctxt.request_id
    ).finish_time


def test_events_of_requests_without_an_action_are_not_recorded(ctxt):
    uuid = "44444444-5555-6666-7777-999999999999"
    with compute_utils.EventReporter(ctxt, "compute_build", "h1", uuid):
        pass
    with pytest.raises(exception.InstanceActionNotFound):
        objects.InstanceActionEvent.event_start(ctxt, uuid, "compute_build")


def test_faults_show_users_only_what_is_meant_for_them(ctxt):
    instance = objects.Instance(ctxt, uuid="55555555-5555-6666-7777-888888888888")
    try:
        raise RuntimeError("password=hunter2 in a driver error")
    except RuntimeError as exc:
        fault = compute_utils.add_instance_fault_from_exc(ctxt, instance, exc, "h1")
    assert fault.message == "RuntimeError" and fault.code == 500
    assert "hunter2" in fault.details
    nova_fault = compute_utils.add_instance_fault_from_exc(
        ctxt, instance, exception.NoValidHost(reason="x" * 400)
    )
    assert len(nova_fault.message) == 255
    [latest] = objects.InstanceFaultList.get_by_instance_uuids(
        ctxt, [instance.uuid], latest=True
    )
    assert latest.id == nova_fault.id


def test_host_and_updated_at_of_live_nodes_by_uuid(ctxt):
    fresh = create_compute_node(ctxt, "h1", "n1")
    changed = create_compute_node(ctxt, "h2", "n2")
    changed.vcpus_used = 1
    changed.save()
    gone = create_compute_node(ctxt, "h3", "n3")
    gone.destroy()

    versions = objects.ComputeNodeList.get_host_and_updated_at_by_uuids(
        ctxt, [fresh.uuid, changed.uuid, gone.uuid, "not-a-node"]
    )

    assert versions == {fresh.uuid: ("h1", None), changed.uuid: ("h2", mock.ANY)}
    # Equal to what a loaded node holds: the caller compares the two.
    loaded = objects.ComputeNode.get_by_uuid(ctxt, changed.uuid)
    assert versions[changed.uuid][1] == loaded.updated_at
    assert loaded.updated_at.tzinfo is not None


def test_compute_status_by_hosts_holds_what_up_and_disabled_need(ctxt):
    up = objects.Service(ctxt, host="h1", binary="nova-compute", topic="compute")
    up.create()
    disabled = objects.Service(
        ctxt, host="h2", binary="nova-compute", topic="compute", disabled=True
    )
    disabled.create()
    objects.Service(ctxt, host="h1", binary="nova-conductor", topic="c").create()
    gone = objects.Service(ctxt, host="h3", binary="nova-compute", topic="compute")
    gone.create()
    gone.destroy()

    found = objects.ServiceList.get_compute_status_by_hosts(ctxt, {"h1", "h2", "h3"})

    assert sorted(found) == ["h1", "h2"]
    assert (found["h1"].binary, found["h1"].disabled) == ("nova-compute", False)
    assert found["h2"].disabled is True
    assert found["h1"].last_seen_up == up.last_seen_up
    assert found["h1"].forced_down is False
    # Only the status columns are read, never the whole row.
    assert "report_count" not in found["h1"] and "id" not in found["h1"]
