"""The conductor's task flows, run directly over SQLite API, cell0 and cell1
databases and the real Placement; the scheduler and the computes are
stand-ins that record what they are asked."""

from __future__ import annotations

import json

import oslo_messaging
import pytest
from oslo_utils import uuidutils

from nova import context, exception, objects, placement
from nova.conductor.tasks import base, reschedule, schedule_and_build, unshelve
from nova.conf import CONF
from nova.db import engines
from nova.db.api import models as api_models
from nova.db.main import models as main_models
from nova.states import power_state, task_states, vm_states

objects.register_all()

PASSWORD = "pw-of-the-request"
IMAGE = "0b1f6c36-7a8e-4d1c-9f2a-3c5d7e9f1a2b"
RESOURCES = {"VCPU": 1, "MEMORY_MB": 256}


class Cloud:
    """Cells, one compute node in cell1 with its provider, and stand-ins for
    the scheduler and the compute RPC API."""

    def __init__(self, ctxt, placement_client, cell0, cell1) -> None:
        self.ctxt = ctxt
        self.placement = placement_client
        self.cell0 = cell0
        self.cell1 = cell1
        self.host = f"host-{uuidutils.generate_uuid()[:8]}"
        self.node_uuid = uuidutils.generate_uuid()
        placement_client.create_provider(self.host, uuid=self.node_uuid)
        placement_client.set_inventory(
            self.node_uuid,
            {"VCPU": {"total": 8}, "MEMORY_MB": {"total": 4096}},
        )
        objects.HostMapping(ctxt, host=self.host, cell_mapping=cell1).create()
        # What select_destinations raises instead of choosing, if anything.
        self.scheduling_error: Exception | None = None
        self.casts: list[dict] = []
        # Instances whose build cast fails (the broker refusing it).
        self.unreachable: set[str] = set()

    # -- the scheduler -------------------------------------------------------

    def selection(self):
        allocation_request = {"allocations": {self.node_uuid: {"resources": RESOURCES}}}
        return objects.Selection(
            compute_node_uuid=self.node_uuid,
            service_host=self.host,
            nodename=self.host,
            cell_uuid=self.cell1.uuid,
            limits=None,
            allocation_request=json.dumps(allocation_request),
            allocation_request_version="1.36",
            availability_zone=None,
        )

    def select_destinations(self, ctxt, spec, instance_uuids, **kwargs):
        if self.scheduling_error is not None:
            raise self.scheduling_error
        host_lists = []
        for uuid in instance_uuids:
            selection = self.selection()
            assert self.placement.claim_resources(
                uuid, json.loads(selection.allocation_request), "p1", "u1"
            )
            host_lists.append([selection])
        return host_lists

    # -- the computes ----------------------------------------------------------

    def build_and_run_instance(self, ctxt, instance, **kwargs):
        if instance.uuid in self.unreachable:
            raise oslo_messaging.MessageDeliveryFailure("broker refused it")
        self.casts.append({"context": ctxt, "instance": instance, **kwargs})

    def start_instance(self, ctxt, instance):
        self.casts.append({"context": ctxt, "instance": instance, "start": True})

    # -- looking -----------------------------------------------------------------

    def allocations(self, uuid: str) -> dict:
        return self.placement.get_allocations_for_consumer(uuid).allocations

    def instance_in(self, cell, uuid: str):
        with context.target_cell(self.ctxt.elevated(read_deleted="yes"), cell) as cc:
            return objects.Instance.get_by_uuid(cc, uuid, expected_attrs=["fault"])

    def events(self, cell, uuid: str) -> list[tuple[str, str]]:
        with context.target_cell(self.ctxt, cell) as cctxt:
            action = objects.InstanceActionList.get_by_instance_uuid(cctxt, uuid)[0]
            events = objects.InstanceActionEventList.get_by_action(cctxt, action.id)
        return [(e.event, e.result) for e in events]


@pytest.fixture
def cloud(tmp_path, placement_client, monkeypatch):
    urls = {name: f"sqlite:///{tmp_path / name}.sqlite" for name in ("api", "c0", "c1")}
    api_models.BASE.metadata.create_all(engines.get_engine(urls["api"]))
    for name in ("c0", "c1"):
        main_models.BASE.metadata.create_all(engines.get_engine(urls[name]))
    # The superconductor's configuration: the API database, cell0.
    CONF.set_override("connection", urls["api"], group="api_database")
    CONF.set_override("connection", urls["c0"], group="database")
    monkeypatch.setattr(placement, "client", lambda: placement_client)
    ctxt = context.get_admin_context()
    cells = []
    for uuid, name, url in (
        (objects.CellMapping.CELL0_UUID, "cell0", urls["c0"]),
        (uuidutils.generate_uuid(), "cell1", urls["c1"]),
    ):
        cell = objects.CellMapping(
            ctxt,
            uuid=uuid,
            name=name,
            transport_url="none:///",
            database_connection=url,
        )
        cell.create()
        cells.append(cell)
    yield Cloud(ctxt, placement_client, *cells)
    CONF.clear_override("connection", group="api_database")
    CONF.clear_override("connection", group="database")
    for url in urls.values():
        engines.dispose(url)


def _flavor():
    return objects.Flavor(
        id=1, flavorid="m1", name="m1", memory_mb=256, vcpus=1, root_gb=1,
        ephemeral_gb=0, swap=0, rxtx_factor=1.0, vcpu_weight=None,
        disabled=False, is_public=True, extra_specs={}, projects=[],
        description=None,
    )  # fmt: skip


def _accepted(cloud, count: int = 1):
    """Build requests, specs and mappings as nova-api writes them, with
    each instance's root disk."""
    ctxt = cloud.ctxt
    build_requests, specs = [], []
    for index in range(count):
        uuid = uuidutils.generate_uuid()
        instance = objects.Instance(
            ctxt, uuid=uuid, project_id="p1", user_id="u1",
            display_name=f"s{index}", hostname=f"s{index}", image_ref=IMAGE,
            flavor=_flavor(), old_flavor=None, new_flavor=None,
            instance_type_id=1, memory_mb=256, vcpus=1, root_gb=1,
            ephemeral_gb=0, vm_state=vm_states.BUILDING,
            task_state=task_states.SCHEDULING, power_state=power_state.NOSTATE,
            launch_index=index, metadata={}, system_metadata={},
            info_cache=objects.InstanceInfoCache(instance_uuid=uuid, network_info=[]),
            tags=objects.TagList.from_names(ctxt, uuid, []),
        )  # fmt: skip
        root = objects.BlockDeviceMapping(
            uuid=uuidutils.generate_uuid(), instance_uuid=uuid, source_type="image",
            destination_type="local", image_id=IMAGE, boot_index=0,
            delete_on_termination=True,
        )  # fmt: skip
        build_request = objects.BuildRequest(
            ctxt,
            instance=instance,
            block_device_mappings=objects.BlockDeviceMappingList(objects=[root]),
            tags=objects.TagList.from_names(ctxt, uuid, []),
        )
        build_request.create()
        spec = objects.RequestSpec.from_components(
            ctxt, uuid, {"id": IMAGE}, _flavor(), project_id="p1"
        )
        spec.num_instances = count
        spec.create()
        objects.InstanceMapping(
            ctxt, instance_uuid=uuid, project_id="p1", user_id="u1", cell_mapping=None
        ).create()
        build_requests.append(build_request)
        specs.append(spec)
    return build_requests, specs


def _schedule_and_build(cloud, build_requests, specs):
    parameters = objects.BuildParameters(
        image={"id": IMAGE},
        admin_password=PASSWORD,
        requested_networks="none",
        block_device_mapping=build_requests[0].block_device_mappings,
    )
    schedule_and_build.ScheduleAndBuildTask(
        cloud.ctxt, build_requests, specs, parameters, cloud, cloud, "superconductor"
    ).execute()


def _cell_of(cloud, uuid: str):
    mapping = objects.InstanceMapping.get_by_instance_uuid(cloud.ctxt, uuid)
    return mapping.cell_mapping.uuid if mapping.cell_mapping else None


# -- the base ------------------------------------------------------------------


class Steps(base.TaskBase):
    def __init__(self, fail_rollback: bool = False) -> None:
        super().__init__(context.get_admin_context())
        self.fail_rollback = fail_rollback
        self.rolled_back: list[Exception] = []

    def _execute(self):
        raise exception.NoValidHost(reason="none fits")

    def rollback(self, exc):
        self.rolled_back.append(exc)
        if self.fail_rollback:
            raise RuntimeError("rollback failed")


def test_a_failed_task_rolls_back_then_reraises():
    task = Steps()
    with pytest.raises(exception.NoValidHost) as raised:
        task.execute()
    assert task.rolled_back == [raised.value]


def test_a_failing_rollback_is_what_the_caller_sees():
    with pytest.raises(RuntimeError, match="rollback failed"):
        Steps(fail_rollback=True).execute()


# -- the superconductor's build ---------------------------------------------------


def test_each_instance_is_created_in_its_cell_and_cast_to_its_host(cloud):
    build_requests, specs = _accepted(cloud, count=2)
    _schedule_and_build(cloud, build_requests, specs)
    assert [c["instance"].uuid for c in cloud.casts] == [
        br.instance_uuid for br in build_requests
    ]
    for cast, build_request in zip(cloud.casts, build_requests, strict=True):
        uuid = build_request.instance_uuid
        assert cast["host"] == cast["node"] == cloud.host
        assert cast["context"].cell_uuid == cloud.cell1.uuid
        parameters = cast["build_parameters"]
        assert parameters.admin_password == PASSWORD
        # Each instance's own disks, as created in its cell.
        (bdm,) = parameters.block_device_mapping
        assert bdm.instance_uuid == uuid and bdm.id
        assert _cell_of(cloud, uuid) == cloud.cell1.uuid
        assert cloud.instance_in(cloud.cell1, uuid).vm_state == vm_states.BUILDING
        with pytest.raises(exception.BuildRequestNotFound):
            objects.BuildRequest.get_by_instance_uuid(cloud.ctxt, uuid)
    # The request's parameters were not changed for the others.
    assert cloud.casts[0]["build_parameters"] is not cloud.casts[1]["build_parameters"]


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (exception.NoValidHost(reason="MEMORY_MB fits nowhere"), "MEMORY_MB"),
        (oslo_messaging.MessagingTimeout(), "did not answer in time"),
    ],
)
def test_what_cannot_be_scheduled_is_buried_in_cell0(cloud, error, message):
    cloud.scheduling_error = error
    build_requests, specs = _accepted(cloud, count=2)
    with pytest.raises(exception.NoValidHost, match=message):
        _schedule_and_build(cloud, build_requests, specs)
    assert cloud.casts == []
    for build_request in build_requests:
        uuid = build_request.instance_uuid
        buried = cloud.instance_in(cloud.cell0, uuid)
        assert (buried.vm_state, buried.task_state) == (vm_states.ERROR, None)
        assert message in buried.fault.message
        assert cloud.events(cloud.cell0, uuid) == [
            (schedule_and_build.SCHEDULE_EVENT, "Error")
        ]
        assert _cell_of(cloud, uuid) == cloud.cell0.uuid
        with pytest.raises(exception.BuildRequestNotFound):
            objects.BuildRequest.get_by_instance_uuid(cloud.ctxt, uuid)


def test_a_server_deleted_while_being_scheduled_stays_deleted(cloud, monkeypatch):
    [build_request], specs = _accepted(cloud)
    uuid = build_request.instance_uuid
    original = cloud.select_destinations

    def select_then_user_deletes(*args, **kwargs):
        host_lists = original(*args, **kwargs)
        objects.BuildRequest.get_by_instance_uuid(cloud.ctxt, uuid).destroy()
        return host_lists

    monkeypatch.setattr(cloud, "select_destinations", select_then_user_deletes)
    _schedule_and_build(cloud, [build_request], specs)
    assert cloud.casts == []
    assert cloud.instance_in(cloud.cell1, uuid).deleted
    assert cloud.allocations(uuid) == {}


def test_a_failure_after_the_hand_over_ends_in_error_in_the_cell(cloud):
    build_requests, specs = _accepted(cloud, count=2)
    failed, built = (br.instance_uuid for br in build_requests)
    cloud.unreachable.add(failed)
    _schedule_and_build(cloud, build_requests, specs)
    # The other instance is built all the same.
    assert [c["instance"].uuid for c in cloud.casts] == [built]
    instance = cloud.instance_in(cloud.cell1, failed)
    assert (instance.vm_state, instance.task_state) == (vm_states.ERROR, None)
    assert instance.fault.message == "MessageDeliveryFailure"
    assert _cell_of(cloud, failed) == cloud.cell1.uuid
    assert cloud.allocations(failed) == {}
    assert list(cloud.allocations(built)) == [cloud.node_uuid]


def test_a_failure_before_the_hand_over_leaves_the_instance_in_cell0_only(
    cloud, monkeypatch
):
    [build_request], specs = _accepted(cloud)
    uuid = build_request.instance_uuid
    original = objects.BuildRequest.destroy
    failures = [RuntimeError("API database went away")]

    def destroy(self):
        if failures:
            raise failures.pop()
        original(self)

    monkeypatch.setattr(objects.BuildRequest, "destroy", destroy)
    _schedule_and_build(cloud, [build_request], specs)
    assert cloud.casts == []
    assert cloud.instance_in(cloud.cell1, uuid).deleted
    buried = cloud.instance_in(cloud.cell0, uuid)
    assert (buried.vm_state, buried.deleted) == (vm_states.ERROR, False)
    assert _cell_of(cloud, uuid) == cloud.cell0.uuid
    assert cloud.allocations(uuid) == {}


# -- the cell conductor's reschedule ---------------------------------------------


def _instance_in_cell1(cloud, **values):
    with context.target_cell(cloud.ctxt, cloud.cell1) as cctxt:
        instance = objects.Instance(
            cctxt, project_id="p1", user_id="u1", flavor=_flavor(), **values
        )
        instance.create()
        objects.InstanceAction.action_start(
            cctxt, instance.uuid, "create", want_result=False
        )
    return instance, cctxt


def _reschedule(cloud, cctxt, instance, alternates, filter_properties=None):
    parameters = objects.BuildParameters(
        image={"id": IMAGE}, filter_properties=filter_properties or {}
    )
    reschedule.RescheduleTask(
        cctxt, instance, None, parameters, alternates, cloud
    ).execute()


def test_a_reschedule_claims_the_alternate_and_builds_there(cloud):
    instance, cctxt = _instance_in_cell1(
        cloud, vm_state=vm_states.BUILDING, task_state=task_states.SCHEDULING
    )
    alternate = cloud.selection()
    _reschedule(cloud, cctxt, instance, [alternate])
    [cast] = cloud.casts
    assert (cast["host"], cast["host_list"]) == (cloud.host, [alternate])
    assert list(cloud.allocations(instance.uuid)) == [cloud.node_uuid]


def test_a_reschedule_without_alternates_names_every_attempt(cloud):
    instance, cctxt = _instance_in_cell1(
        cloud, vm_state=vm_states.BUILDING, task_state=task_states.SCHEDULING
    )
    tried = {
        "retry": {"num_attempts": 1, "hosts": [["h0", "h0"]], "exc_reasons": ["boom"]}
    }
    with pytest.raises(exception.MaxRetriesExceeded):
        _reschedule(cloud, cctxt, instance, [], filter_properties=tried)
    failed = cloud.instance_in(cloud.cell1, instance.uuid)
    assert (failed.vm_state, failed.task_state) == (vm_states.ERROR, None)
    assert "h0: boom" in failed.fault.message


def test_a_reschedule_that_cannot_be_sent_gives_its_claim_back(cloud):
    instance, cctxt = _instance_in_cell1(
        cloud, vm_state=vm_states.BUILDING, task_state=task_states.SCHEDULING
    )
    cloud.unreachable.add(instance.uuid)
    with pytest.raises(oslo_messaging.MessageDeliveryFailure):
        _reschedule(cloud, cctxt, instance, [cloud.selection()])
    assert cloud.allocations(instance.uuid) == {}
    failed = cloud.instance_in(cloud.cell1, instance.uuid)
    assert failed.vm_state == vm_states.ERROR


# -- unshelve --------------------------------------------------------------------


def _shelved(cloud, vm_state):
    instance, _ = _instance_in_cell1(
        cloud,
        vm_state=vm_state,
        task_state=task_states.UNSHELVING,
        system_metadata={"shelved_image_id": IMAGE},
    )
    objects.InstanceMapping(
        cloud.ctxt, instance_uuid=instance.uuid, project_id="p1", user_id="u1",
        cell_mapping=cloud.cell1,
    ).create()  # fmt: skip
    objects.RequestSpec.from_components(
        cloud.ctxt, instance.uuid, {"id": IMAGE}, _flavor(), project_id="p1"
    ).create()
    return instance


def _unshelve(cloud, instance):
    unshelve.UnshelveTask(
        cloud.ctxt, instance, None, cloud, cloud, "superconductor"
    ).execute()


def test_an_unshelve_no_host_fits_stays_offloaded_with_the_reason(cloud):
    instance = _shelved(cloud, vm_states.SHELVED_OFFLOADED)
    cloud.scheduling_error = exception.NoValidHost(reason="nothing fits")
    with pytest.raises(exception.NoValidHost):
        _unshelve(cloud, instance)
    left = cloud.instance_in(cloud.cell1, instance.uuid)
    assert (left.vm_state, left.task_state) == (vm_states.SHELVED_OFFLOADED, None)
    assert "nothing fits" in left.fault.message
    assert cloud.events(cloud.cell1, instance.uuid) == [
        (unshelve.UNSHELVE_EVENT, "Error")
    ]


def test_a_shelved_instance_is_powered_on_where_it_is(cloud):
    instance = _shelved(cloud, vm_states.SHELVED)
    _unshelve(cloud, instance)
    [cast] = cloud.casts
    assert cast["start"] and cast["instance"].uuid == instance.uuid
    left = cloud.instance_in(cloud.cell1, instance.uuid)
    assert left.task_state == task_states.POWERING_ON
