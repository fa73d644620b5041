"""Servers over HTTP: what the API writes, hands over and answers.

Images come from the real Glance; the superconductor and nova-compute are
recording doubles (the build itself is tested end to end elsewhere).
Instances that a cell already holds are written into the cell databases
directly, as the superconductor would have.
"""

from __future__ import annotations

import base64
import datetime
import time
import uuid

import pytest
import sqlalchemy as sa

from nova import context as nova_context
from nova import objects, placement
from nova.db import engines
from nova.db.api import models as api_models
from nova.db.main import models as main_models
from tests.functional.api.conftest import ADMIN, OTHER, fault


def _body(image, **server):
    values = {"name": "s1", "flavorRef": "1", "imageRef": image, "networks": "none"}
    values.update(server)
    return {"server": values}


def _create(api, image, version="2.96", **server):
    """POST /servers as the demo user; the new server's id."""
    response = api.post("/v2.1/servers", _body(image, **server), version=version)
    assert response.status_code == 202, response.text
    return response.json()["server"]["id"]


def _count(url: str, model) -> int:
    with engines.transaction(url) as session:
        return session.scalar(sa.select(sa.func.count()).select_from(model))


def _api_rows(cloud) -> tuple[int, int, int]:
    url = cloud["urls"]["api"]
    return (
        _count(url, api_models.BuildRequest),
        _count(url, api_models.RequestSpec),
        _count(url, api_models.InstanceMapping),
    )


def _in_cell(cloud, cell_name: str, project="demo", **values):
    """An instance the superconductor put in ``cell_name``, mapped there."""
    cell = cloud["cells"][cell_name]
    context = nova_context.get_admin_context()
    flavor = objects.Flavor.get_by_flavor_id(context, "1")
    fields = dict(
        uuid=str(uuid.uuid4()), project_id=project, user_id=project,
        display_name="in-cell", vm_state="active", task_state=None, power_state=1,
        host="compute-1", node="compute-1", flavor=flavor, image_ref=None,
        launched_at=datetime.datetime.now(datetime.UTC), instance_type_id=flavor.id,
    )  # fmt: skip
    created_at = values.pop("created_at", None)
    fields.update(values)
    with nova_context.target_cell(context, cell) as cctxt:
        instance = objects.Instance(cctxt, **fields)
        instance.create()
    if created_at is not None:
        # Creation stamps the time itself; tests need a known order.
        with engines.transaction(cell.database_connection) as session:
            session.execute(
                sa.update(main_models.Instance)
                .where(main_models.Instance.uuid == instance.uuid)
                .values(created_at=created_at.replace(tzinfo=None))
            )
    objects.InstanceMapping(
        context,
        instance_uuid=instance.uuid,
        cell_mapping=cell,
        project_id=project,
        user_id=project,
        queued_for_delete=False,
    ).create()
    return instance


# -- create -------------------------------------------------------------------


def test_create_writes_build_records_and_hands_them_over(
    api, nova_conf, glance, flavor, conductor
):
    response = api.post("/v2.1/servers", _body(glance.active), version="2.96")
    assert response.status_code == 202
    server = response.json()["server"]
    assert set(server) == {
        "id",
        "links",
        "OS-DCF:diskConfig",
        "security_groups",
        "adminPass",
    }
    assert len(server["adminPass"]) == 12
    assert response.headers["Location"] == server["links"][0]["href"]

    assert _api_rows(nova_conf) == (1, 1, 1)
    context = nova_context.get_admin_context()
    mapping = objects.InstanceMapping.get_by_instance_uuid(context, server["id"])
    assert mapping.cell_mapping is None and mapping.project_id == "demo"
    spec = objects.RequestSpec.get_by_instance_uuid(context, server["id"])
    assert spec.flavor.flavorid == "1" and spec.image.id == glance.active

    (build,) = conductor.builds
    (build_request,) = build["build_requests"]
    assert build_request.instance_uuid == server["id"]
    assert build_request.instance.vm_state == "building"
    parameters = build["build_parameters"]
    assert parameters.admin_password == server["adminPass"]
    assert parameters.requested_networks == "none"
    assert parameters.image["id"] == glance.active
    (bdm,) = parameters.block_device_mapping
    assert (bdm.source_type, bdm.destination_type, bdm.boot_index) == (
        "image",
        "local",
        0,
    )


def test_create_as_the_openstack_cli_sends_it(api, glance, flavor, conductor):
    body = {
        "server": {
            "block_device_mapping_v2": [
                {
                    "uuid": glance.active,
                    "boot_index": 0,
                    "source_type": "image",
                    "destination_type": "local",
                    "delete_on_termination": True,
                }
            ],
            "flavorRef": "1",
            "name": "s1",
            "imageRef": glance.active,
            "max_count": 1,
            "networks": "none",
            "min_count": 1,
        }
    }
    assert api.post("/v2.1/servers", body, version="2.96").status_code == 202


def test_multi_create_names_and_reservation_id(api, glance, flavor, conductor):
    response = api.post(
        "/v2.1/servers",
        _body(glance.active, name="web", min_count=3, return_reservation_id=True),
        version="2.96",
    )
    assert response.status_code == 202
    reservation_id = response.json()["reservation_id"]
    servers = api.get("/v2.1/servers/detail", version="2.96").json()["servers"]
    assert sorted(s["name"] for s in servers) == ["web-1", "web-2", "web-3"]
    assert {s["OS-EXT-SRV-ATTR:hostname"] for s in servers} == {
        "web-1",
        "web-2",
        "web-3",
    }
    admin_view = api.get(
        f"/v2.1/servers/{servers[0]['id']}", token=ADMIN, version="2.3"
    ).json()["server"]
    assert admin_view["OS-EXT-SRV-ATTR:reservation_id"] == reservation_id
    assert len(conductor.builds[0]["build_requests"]) == 3


def test_create_with_metadata_user_data_description_and_tags(
    api, glance, flavor, conductor
):
    user_data = base64.b64encode(b"#!/bin/sh\necho hi\n").decode()
    server_id = api.post(
        "/v2.1/servers",
        _body(
            glance.active, metadata={"role": "web"}, user_data=user_data,
            description="front end", tags=["a", "b"],
        ),
        version="2.52",
    ).json()["server"]["id"]  # fmt: skip
    shown = api.get(f"/v2.1/servers/{server_id}", version="2.52").json()["server"]
    assert shown["metadata"] == {"role": "web"}
    assert shown["description"] == "front end"
    assert sorted(shown["tags"]) == ["a", "b"]
    admin = api.get(f"/v2.1/servers/{server_id}", token=ADMIN, version="2.3")
    assert admin.json()["server"]["OS-EXT-SRV-ATTR:user_data"] == user_data


@pytest.mark.parametrize(
    "server, version, message",
    [
        ({"name": ""}, "2.96", "Invalid input for field/attribute name"),
        ({"flavorRef": "nope"}, "2.96", "Invalid flavorRef provided."),
        ({"imageRef": "6e0a5d0c-0000-0000-0000-000000000000"}, "2.96",
         "Can not find requested image"),
        ({"networks": [{"uuid": "6e0a5d0c-0000-0000-0000-000000000000"}]}, "2.96",
         "Requesting specific networks is not supported"),
        ({"networks": "some"}, "2.96", "Invalid input for field/attribute networks"),
        ({"min_count": 3, "max_count": 2}, "2.96", "min_count must be <= max_count"),
        ({"user_data": "$$$ not base64"}, "2.96",
         "Invalid input for field/attribute user_data"),
        ({"key_name": "missing"}, "2.96", "Invalid key_name provided."),
        ({"availability_zone": "nowhere"}, "2.96",
         "The requested availability zone is not available"),
        ({"tags": ["x"]}, "2.51", "Additional properties are not allowed"),
        ({"description": "d", "networks": []}, "2.18",
         "Additional properties are not allowed"),
        ({"block_device_mapping_v2": [{"source_type": "volume", "uuid": "v1",
                                       "destination_type": "volume", "boot_index": 0}]},
         "2.96", "Block Device Mapping is Invalid"),
    ],
)  # fmt: skip
def test_bad_requests_write_nothing(
    api, nova_conf, glance, flavor, conductor, server, version, message
):
    response = api.post(
        "/v2.1/servers", _body(glance.active, **server), version=version
    )
    name, code, text = fault(response)
    assert (name, code) == ("badRequest", 400)
    assert message in text
    assert _api_rows(nova_conf) == (0, 0, 0)
    assert conductor.builds == []


@pytest.mark.parametrize(
    "image_attr, message",
    [
        ("needs_4g_ram", "Flavor's memory is too small for requested image."),
        ("queued", "is not active"),
    ],
)
def test_images_the_flavor_cannot_boot(
    api, nova_conf, glance, flavor, conductor, image_attr, message
):
    response = api.post(
        "/v2.1/servers", _body(getattr(glance, image_attr)), version="2.96"
    )
    assert fault(response)[1] == 400
    assert message in fault(response)[2]
    assert _api_rows(nova_conf) == (0, 0, 0)


def test_readers_may_not_create(api, nova_conf, glance, flavor, conductor, monkeypatch):
    from nova.api.openstack import auth

    monkeypatch.setattr(auth, "NOAUTH_ROLES", ["reader"])
    response = api.post("/v2.1/servers", _body(glance.active), version="2.96")
    assert fault(response)[:2] == ("forbidden", 403)
    assert _api_rows(nova_conf) == (0, 0, 0)


def test_a_failed_hand_over_leaves_nothing_behind(
    api, nova_conf, glance, flavor, conductor, monkeypatch
):
    def unreachable(context, **kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(conductor, "schedule_and_build_instances", unreachable)
    response = api.post("/v2.1/servers", _body(glance.active), version="2.96")
    assert fault(response)[:2] == ("computeFault", 500)
    assert _api_rows(nova_conf) == (0, 0, 0)


# -- read ---------------------------------------------------------------------


def test_a_build_request_is_listed_and_shown(api, glance, flavor, conductor):
    server_id = _create(api, glance.active)
    listed = api.get("/v2.1/servers").json()["servers"]
    assert [(s["id"], s["name"]) for s in listed] == [(server_id, "s1")]
    shown = api.get(f"/v2.1/servers/{server_id}", version="2.100").json()["server"]
    assert shown["status"] == "BUILD"
    assert shown["OS-EXT-STS:vm_state"] == "building"
    assert shown["OS-EXT-STS:task_state"] == "scheduling"
    assert shown["flavor"]["original_name"] == "m1.tiny"
    assert shown["image"]["id"] == glance.active
    assert shown["image"]["properties"]["hw_disk_bus"] == "virtio"
    assert shown["scheduler_hints"] == {}
    assert shown["pinned_availability_zone"] is None
    assert shown["hostId"] == "" and shown["addresses"] == {}


def test_another_projects_server_is_not_found(
    api, nova_conf, glance, flavor, conductor
):
    pending = _create(api, glance.active)
    in_cell = _in_cell(nova_conf, "cell1").uuid
    for server_id in (pending, in_cell):
        response = api.get(f"/v2.1/servers/{server_id}", token=OTHER)
        assert fault(response) == (
            "itemNotFound",
            404,
            f"Instance {server_id} could not be found.",
        )
        assert api.delete(f"/v2.1/servers/{server_id}", token=OTHER).status_code == 404
        assert api.get(f"/v2.1/servers/{server_id}", token=ADMIN).status_code == 200
    assert api.get("/v2.1/servers", token=OTHER).json()["servers"] == []


def test_list_merges_build_requests_and_every_cell(
    api, nova_conf, glance, flavor, conductor
):
    in_cell1 = _in_cell(nova_conf, "cell1", display_name="active-one")
    buried = _in_cell(
        nova_conf, "cell0", display_name="buried", vm_state="error", host=None,
        node=None,
    )  # fmt: skip
    pending = _create(api, glance.active)
    servers = api.get("/v2.1/servers/detail", version="2.96").json()["servers"]
    by_id = {s["id"]: s for s in servers}
    assert set(by_id) == {in_cell1.uuid, buried.uuid, pending}
    assert by_id[in_cell1.uuid]["status"] == "ACTIVE"
    assert by_id[buried.uuid]["status"] == "ERROR"
    assert by_id[pending]["status"] == "BUILD"
    # Build requests first: they are the newest servers.
    assert servers[0]["id"] == pending


def test_paging_with_markers_across_build_requests_and_cells(
    api, nova_conf, glance, flavor, conductor
):
    base = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    in_cells = [
        _in_cell(
            nova_conf, "cell1" if index % 2 else "cell0",
            display_name=f"cell-{index}",
            created_at=base + datetime.timedelta(minutes=index),
        )
        for index in range(5)
    ]  # fmt: skip
    pending = [_create(api, glance.active, name="new-0")]
    # MySQL keeps whole seconds: a second apart, creation order is certain.
    time.sleep(1.1)
    pending.append(_create(api, glance.active, name="new-1"))
    expected = list(reversed(pending)) + [i.uuid for i in reversed(in_cells)]

    seen, marker = [], None
    while True:
        query = "?limit=2" + (f"&marker={marker}" if marker else "")
        page = api.get(f"/v2.1/servers{query}").json()
        seen += [s["id"] for s in page["servers"]]
        if "servers_links" not in page:
            break
        marker = page["servers"][-1]["id"]
        assert f"marker={marker}" in page["servers_links"][0]["href"]
    assert seen == expected, (seen, expected)
    assert fault(api.get("/v2.1/servers?marker=nope"))[2] == "marker [nope] not found"


def test_filters_and_sorting(api, nova_conf, flavor):
    base = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    alpha = _in_cell(nova_conf, "cell1", display_name="alpha", created_at=base)
    beta = _in_cell(
        nova_conf, "cell0", display_name="beta", vm_state="stopped", power_state=4,
        created_at=base + datetime.timedelta(hours=1),
    )  # fmt: skip

    def ids(query, **kw):
        return [
            s["id"] for s in api.get(f"/v2.1/servers{query}", **kw).json()["servers"]
        ]

    assert ids("?name=^al") == [alpha.uuid]
    assert ids("?status=SHUTOFF") == [beta.uuid]
    assert ids("?status=ACTIVE") == [alpha.uuid]
    assert ids("?sort_key=display_name&sort_dir=asc") == [alpha.uuid, beta.uuid]
    assert ids("?sort_key=display_name&sort_dir=desc") == [beta.uuid, alpha.uuid]
    assert ids("?status=bogus", version="2.37") == []
    assert fault(api.get("/v2.1/servers?status=bogus", version="2.38"))[1] == 400
    assert fault(api.get("/v2.1/servers?sort_key=host"))[:2] == ("forbidden", 403)
    assert ids("?sort_key=host", token=ADMIN, version="2.1") == []
    assert api.get("/v2.1/servers?bogus=1", version="2.75").status_code == 400
    assert api.get("/v2.1/servers?bogus=1", version="2.74").status_code == 200


def test_all_tenants_deleted_and_changes_since(api, nova_conf, flavor):
    mine = _in_cell(nova_conf, "cell1")
    theirs = _in_cell(nova_conf, "cell1", project="other")
    gone = _in_cell(nova_conf, "cell0", host=None)
    context = nova_context.get_admin_context()
    with nova_context.target_cell(context, nova_conf["cells"]["cell0"]) as cctxt:
        objects.Instance.get_by_uuid(cctxt, gone.uuid).destroy()
    # changes-since compares updated_at, which a first change sets.
    with nova_context.target_cell(context, nova_conf["cells"]["cell1"]) as cctxt:
        changed = objects.Instance.get_by_uuid(cctxt, mine.uuid)
        changed.display_name = "changed"
        changed.save()

    def ids(query, **kw):
        response = api.get(f"/v2.1/servers{query}", **kw)
        assert response.status_code == 200, response.text
        return {s["id"] for s in response.json()["servers"]}

    assert ids("") == {mine.uuid}
    assert fault(api.get("/v2.1/servers?all_tenants=1"))[:2] == ("forbidden", 403)
    assert ids("?all_tenants=1", token=ADMIN) == {mine.uuid, theirs.uuid}
    assert ids("?all_tenants=1&project_id=other", token=ADMIN) == {theirs.uuid}
    # Only admins filter on deleted; a member's deleted=true is dropped.
    assert ids("?all_tenants=1&deleted=true", token=ADMIN) == {gone.uuid}
    assert ids("?deleted=true") == {mine.uuid}
    # changes-since lists deleted servers too.
    since = "2020-01-01T00:00:00Z"
    assert ids(f"?changes-since={since}") == {mine.uuid, gone.uuid}
    assert ids("?changes-since=2999-01-01T00:00:00Z") == set()


# -- update -------------------------------------------------------------------


def test_update_a_build_request_and_an_instance(
    api, nova_conf, glance, flavor, conductor
):
    pending = _create(api, glance.active)
    active = _in_cell(nova_conf, "cell1").uuid
    for server_id in (pending, active):
        response = api.put(
            f"/v2.1/servers/{server_id}",
            {"server": {"name": "renamed", "description": "new"}},
            version="2.19",
        )
        assert response.status_code == 200
        assert response.json()["server"]["name"] == "renamed"
        shown = api.get(f"/v2.1/servers/{server_id}", version="2.19").json()["server"]
        assert (shown["name"], shown["description"]) == ("renamed", "new")
    response = api.put(f"/v2.1/servers/{active}", {"server": {"description": "x"}})
    assert fault(response)[1] == 400


# -- delete -------------------------------------------------------------------


def test_delete_a_build_request(api, nova_conf, glance, flavor, conductor):
    server_id = _create(api, glance.active)
    assert api.delete(f"/v2.1/servers/{server_id}").status_code == 204
    assert api.get(f"/v2.1/servers/{server_id}").status_code == 404
    assert api.get("/v2.1/servers").json()["servers"] == []
    assert _count(nova_conf["urls"]["api"], api_models.BuildRequest) == 0
    mapping = objects.InstanceMapping.get_by_instance_uuid(
        nova_context.get_admin_context(), server_id
    )
    assert mapping.queued_for_delete


def test_delete_an_instance_buried_in_cell0(api, nova_conf, flavor, compute_rpc):
    buried = _in_cell(nova_conf, "cell0", vm_state="error", host=None, node=None)
    assert api.delete(f"/v2.1/servers/{buried.uuid}").status_code == 204
    assert api.get(f"/v2.1/servers/{buried.uuid}").status_code == 404
    assert compute_rpc.terminated == []
    shown = api.get(
        "/v2.1/servers?deleted=true&all_tenants=1", token=ADMIN, version="2.1"
    ).json()["servers"]
    assert [s["id"] for s in shown] == [buried.uuid]


def test_delete_a_running_instance_asks_its_compute(
    api, nova_conf, flavor, compute_rpc
):
    running = _in_cell(nova_conf, "cell1", host="compute-1")
    context = nova_context.get_admin_context()
    with nova_context.target_cell(context, nova_conf["cells"]["cell1"]) as cctxt:
        objects.Service(
            cctxt, host="compute-1", binary="nova-compute", topic="compute",
            report_count=1, disabled=False,
        ).create()  # fmt: skip
    assert api.delete(f"/v2.1/servers/{running.uuid}").status_code == 204
    assert compute_rpc.terminated == [running.uuid]
    shown = api.get(f"/v2.1/servers/{running.uuid}", version="2.1").json()["server"]
    assert shown["OS-EXT-STS:task_state"] == "deleting"


def test_delete_on_a_down_compute_deletes_in_the_database(
    api, nova_conf, flavor, compute_rpc, placement_client, monkeypatch
):
    orphan = _in_cell(nova_conf, "cell1", host="compute-gone")
    # The down host's resources, held by the orphan in the real Placement.
    provider = str(uuid.uuid4())
    placement_client.create_provider(f"compute-gone-{provider}", uuid=provider)
    placement_client.set_inventory(provider, {"VCPU": {"total": 8}})
    allocation = {"allocations": {provider: {"resources": {"VCPU": 2}}}}
    assert placement_client.claim_resources(
        orphan.uuid, allocation, orphan.project_id, orphan.user_id
    )
    monkeypatch.setattr(placement, "client", lambda: placement_client)

    assert api.delete(f"/v2.1/servers/{orphan.uuid}").status_code == 204
    assert compute_rpc.terminated == []
    assert api.get(f"/v2.1/servers/{orphan.uuid}").status_code == 404
    assert placement_client.get_allocations_for_consumer(orphan.uuid).allocations == {}
    assert placement_client.get_provider_usages(provider) == {"VCPU": 0}
