"""Build requests, request specs, image metadata: what the API hands over."""

import pytest
import sqlalchemy as sa
from oslo_utils import uuidutils

from nova import exception, objects
from nova.states import vm_states

IMAGE = "22222222-3333-4444-5555-666666666666"


def _flavor():
    return objects.Flavor(
        id=1,
        flavorid="f1",
        name="f1",
        memory_mb=512,
        vcpus=1,
        root_gb=1,
        ephemeral_gb=0,
        swap=0,
        extra_specs={},
    )


def _new_build_request(ctxt, name="web", uuid=None, tags=(), **instance_values):
    values = {
        "uuid": uuid or uuidutils.generate_uuid(),
        "project_id": ctxt.project_id or "p1",
        "user_id": "u1",
        "display_name": name,
        "vm_state": vm_states.BUILDING,
        "flavor": _flavor(),
        "metadata": {"k": "v"},
        "system_metadata": {},
    }
    instance = objects.Instance(ctxt, **{**values, **instance_values})
    return objects.BuildRequest(
        ctxt,
        instance=instance,
        block_device_mappings=objects.BlockDeviceMappingList(
            objects=[
                objects.BlockDeviceMapping(
                    instance_uuid=instance.uuid,
                    source_type="image",
                    destination_type="local",
                    image_id=IMAGE,
                    boot_index=0,
                )
            ]
        ),
        tags=objects.TagList.from_names(ctxt, instance.uuid, list(tags)),
    )


def _build_request(ctxt, name="web", uuid=None, tags=()):
    request = _new_build_request(ctxt, name=name, uuid=uuid, tags=tags)
    request.create()
    return request


def test_build_request_round_trip(ctxt):
    request = _build_request(ctxt, tags=["t"])
    loaded = objects.BuildRequest.get_by_instance_uuid(ctxt, request.instance_uuid)
    assert loaded.instance.display_name == "web"
    assert loaded.instance.created_at == loaded.created_at
    assert loaded.instance.flavor.name == "f1"
    assert loaded.block_device_mappings[0].image_id == IMAGE
    assert [t.tag for t in loaded.tags] == ["t"]
    with pytest.raises(exception.BuildRequestExists):
        _build_request(ctxt, uuid=request.instance_uuid)


def test_new_instance_from_a_build_request_is_creatable(ctxt):
    request = _build_request(ctxt, tags=["a", "b"])
    instance = request.get_new_instance(ctxt)
    assert "id" not in instance
    instance.create()
    loaded = objects.Instance.get_by_uuid(
        ctxt, request.instance_uuid, expected_attrs=["tags", "metadata"]
    )
    assert loaded.metadata == {"k": "v"}
    assert [t.tag for t in loaded.tags] == ["a", "b"]


def test_destroy_twice_reports_not_found(ctxt):
    request = _build_request(ctxt)
    request.destroy()
    with pytest.raises(exception.BuildRequestNotFound):
        request.destroy()
    with pytest.raises(exception.BuildRequestNotFound):
        objects.BuildRequest.get_by_instance_uuid(ctxt, request.instance_uuid)


def test_build_request_list_filters_sorts_and_pages(ctxt):
    for name in ("web-b", "db", "web-a"):
        _build_request(ctxt, name=name, tags=["web"] if "web" in name else [])
    list_ = objects.BuildRequestList.get_by_filters

    def names(requests):
        return [r.instance.display_name for r in requests]

    assert names(
        list_(ctxt, {"name": "^web"}, sort_keys=["display_name"], sort_dirs=["asc"])
    ) == ["web-a", "web-b"]
    assert names(
        list_(ctxt, {"tags": ["web"]}, sort_keys=["display_name"], sort_dirs=["desc"])
    ) == ["web-b", "web-a"]
    assert names(list_(ctxt, {"deleted": True})) == []
    assert names(list_(ctxt, {"vm_state": [vm_states.ACTIVE]})) == []
    first = list_(ctxt, {}, limit=1, sort_keys=["display_name"], sort_dirs=["asc"])
    assert names(first) == ["db"]
    rest = list_(
        ctxt,
        {},
        marker=first[0].instance_uuid,
        sort_keys=["display_name"],
        sort_dirs=["asc"],
    )
    assert names(rest) == ["web-a", "web-b"]
    with pytest.raises(exception.MarkerNotFound):
        list_(ctxt, {}, marker="unknown")


def test_request_spec_round_trip_drops_per_request_fields(ctxt):
    spec = objects.RequestSpec.from_components(
        ctxt,
        "33333333-4444-5555-6666-777777777777",
        {"id": IMAGE, "properties": {"hw_architecture": "x86_64"}},
        _flavor(),
        filter_properties={"scheduler_hints": {"group": "g1", "a": ["1", "2"]}},
        availability_zone="az1",
        project_id="p1",
        user_id="u1",
    )
    spec.num_instances = 3
    spec.ignore_hosts = ["bad-host"]
    spec.create()
    loaded = objects.RequestSpec.get_by_instance_uuid(ctxt, spec.instance_uuid)
    assert loaded.flavor.name == "f1"
    assert loaded.image.properties.hw_architecture == "x86_64"
    assert (loaded.num_instances, loaded.availability_zone) == (3, "az1")
    assert loaded.get_scheduler_hint("group") == "g1"
    assert loaded.get_scheduler_hint("a") == ["1", "2"]
    assert loaded.get_scheduler_hint("none", "default") == "default"
    assert loaded.ignore_hosts is None and loaded.retry is None
    loaded.availability_zone = "az2"
    loaded.save()
    assert (
        objects.RequestSpec.get_by_instance_uuid(
            ctxt, spec.instance_uuid
        ).availability_zone
        == "az2"
    )
    loaded.destroy()
    with pytest.raises(exception.RequestSpecNotFound):
        objects.RequestSpec.get_by_instance_uuid(ctxt, spec.instance_uuid)


@pytest.mark.parametrize(
    "image",
    [
        # What nova's image API returns (v1 style) ...
        {
            "id": IMAGE,
            "min_ram": 0,
            "properties": {"hw_disk_bus": "scsi", "os_distro": "cirros"},
        },
        # ... and what Glance v2 returns.
        {
            "id": IMAGE,
            "min_ram": 0,
            "hw_disk_bus": "scsi",
            "os_distro": "cirros",
            "file": "/v2/x",
        },
    ],
)
def test_image_meta_from_either_image_shape(image):
    meta = objects.ImageMeta.from_dict(image)
    assert meta.id == IMAGE and meta.min_ram == 0
    assert meta.properties.hw_disk_bus == "scsi"
    assert meta.properties.get("os_distro") == "cirros"
    assert meta.properties.get("hw_vif_model") is None


def test_image_meta_legacy_names_and_traits():
    props = objects.ImageMetaProps.from_dict(
        {
            "architecture": "aarch64",
            "hypervisor_type": "qemu",
            "hw_qemu_guest_agent": "yes",
            "trait:CUSTOM_A": "required",
            "trait:CUSTOM_B": "forbidden",
            "unknown_property": "ignored",
        }
    )
    assert props.hw_architecture == "aarch64"
    assert props.img_hv_type == "qemu"
    assert props.hw_qemu_guest_agent is True
    assert props.traits_required == ["CUSTOM_A"]


def _spec(ctxt, instance_uuid):
    return objects.RequestSpec.from_components(
        ctxt, instance_uuid, {"id": IMAGE}, _flavor(), project_id="p1", user_id="u1"
    )


def _write_build_records(ctxt, *requests):
    specs = [_spec(ctxt, request.instance.uuid) for request in requests]
    objects.BuildRequestList.create_build_records(ctxt, list(requests), specs)
    return specs


def test_build_records_are_written_together(ctxt):
    requests = [_new_build_request(ctxt, name=n) for n in ("a", "b")]
    instances = [request.instance for request in requests]

    specs = _write_build_records(ctxt, *requests)

    for request, spec, instance in zip(requests, specs, instances, strict=True):
        uuid = instance.uuid
        assert request.instance is instance
        assert request.id and request.created_at is not None
        assert request.updated_at is None
        assert instance.created_at == instance.updated_at == request.created_at
        assert not {"id", "created_at"} & request.obj_what_changed()
        assert "id" not in spec.obj_what_changed()
        stored = objects.BuildRequest.get_by_instance_uuid(ctxt, uuid)
        assert (stored.id, stored.project_id) == (request.id, "p1")
        assert stored.instance.display_name == instance.display_name
        assert objects.RequestSpec.get_by_instance_uuid(ctxt, uuid).id == spec.id
        mapping = objects.InstanceMapping.get_by_instance_uuid(ctxt, uuid)
        assert mapping.cell_mapping is None
        assert (mapping.project_id, mapping.user_id) == ("p1", "u1")
        assert mapping.queued_for_delete is False


def test_build_records_are_all_written_or_none(ctxt):
    taken = uuidutils.generate_uuid()
    objects.InstanceMapping(
        ctxt, instance_uuid=taken, project_id="p1", cell_mapping=None
    ).create()
    first, second = _new_build_request(ctxt), _new_build_request(ctxt, uuid=taken)

    with pytest.raises(sa.exc.IntegrityError):
        _write_build_records(ctxt, first, second)

    uuid = first.instance.uuid
    assert "id" not in first
    with pytest.raises(exception.BuildRequestNotFound):
        objects.BuildRequest.get_by_instance_uuid(ctxt, uuid)
    with pytest.raises(exception.RequestSpecNotFound):
        objects.RequestSpec.get_by_instance_uuid(ctxt, uuid)
    with pytest.raises(exception.InstanceMappingNotFound):
        objects.InstanceMapping.get_by_instance_uuid(ctxt, uuid)


def test_destroy_build_records_removes_only_those_of_the_uuids(ctxt):
    gone, kept = _new_build_request(ctxt), _new_build_request(ctxt)
    _write_build_records(ctxt, gone, kept)

    objects.BuildRequestList.destroy_build_records(
        ctxt, [gone.instance_uuid, uuidutils.generate_uuid()]
    )

    with pytest.raises(exception.BuildRequestNotFound):
        objects.BuildRequest.get_by_instance_uuid(ctxt, gone.instance_uuid)
    with pytest.raises(exception.RequestSpecNotFound):
        objects.RequestSpec.get_by_instance_uuid(ctxt, gone.instance_uuid)
    with pytest.raises(exception.InstanceMappingNotFound):
        objects.InstanceMapping.get_by_instance_uuid(ctxt, gone.instance_uuid)
    objects.BuildRequest.get_by_instance_uuid(ctxt, kept.instance_uuid)
    objects.RequestSpec.get_by_instance_uuid(ctxt, kept.instance_uuid)
    objects.InstanceMapping.get_by_instance_uuid(ctxt, kept.instance_uuid)


def test_request_specs_by_instance_uuids(ctxt):
    specs = [_spec(ctxt, uuidutils.generate_uuid()) for _ in range(3)]
    for spec in specs:
        spec.create()
    wanted = [specs[0].instance_uuid, specs[2].instance_uuid]

    found = objects.RequestSpec.get_by_instance_uuids(
        ctxt, [*wanted, uuidutils.generate_uuid()]
    )

    assert {uuid: spec.id for uuid, spec in found.items()} == {
        specs[0].instance_uuid: specs[0].id,
        specs[2].instance_uuid: specs[2].id,
    }
    assert found[wanted[0]].flavor.name == "f1"
    assert objects.RequestSpec.get_by_instance_uuids(ctxt, []) == {}


def test_build_request_counts_are_of_servers_in_no_cell_yet(ctxt):
    cell = objects.CellMapping(
        ctxt,
        uuid=uuidutils.generate_uuid(),
        name="cell1",
        transport_url="none:///",
        database_connection="sqlite://",
    )
    cell.create()
    counted = [
        _new_build_request(ctxt, vcpus=2, memory_mb=512),
        _new_build_request(ctxt, vcpus=1, memory_mb=256, user_id="u2"),
    ]
    scheduled, deleting = _new_build_request(ctxt), _new_build_request(ctxt)
    other_project = _new_build_request(ctxt, project_id="p2", vcpus=8)
    _write_build_records(ctxt, *counted, scheduled, deleting, other_project)
    for request, change in ((scheduled, "cell_mapping"), (deleting, "delete")):
        mapping = objects.InstanceMapping.get_by_instance_uuid(
            ctxt, request.instance_uuid
        )
        if change == "cell_mapping":
            mapping.cell_mapping = cell
        else:
            mapping.queued_for_delete = True
        mapping.save()
    # A build request without a mapping is not a server anyone can see.
    _build_request(ctxt)

    counts = objects.BuildRequestList.get_counts
    assert counts(ctxt, "p1") == {"instances": 2, "cores": 3, "ram": 768}
    assert counts(ctxt, "p1", "u1") == {"instances": 1, "cores": 2, "ram": 512}
    assert counts(ctxt, "p3") == {"instances": 0, "cores": 0, "ram": 0}
