"""Flavors over HTTP on every database backend: CRUD by admins, reads by all."""

import pytest

from tests.functional.api.conftest import ADMIN, fault


def _create(api, version="2.1", token=ADMIN, **values):
    flavor = {"name": "m1.small", "ram": 2048, "vcpus": 1, "disk": 20, **values}
    return api.post("/v2.1/flavors", {"flavor": flavor}, version=version, token=token)


def test_admin_creates_shows_lists_and_deletes(api):
    response = _create(api, id="10", swap=512)
    assert response.status_code == 200
    created = response.json()["flavor"]
    assert created["id"] == "10"
    assert created["ram"] == 2048 and created["disk"] == 20 and created["swap"] == 512
    assert created["os-flavor-access:is_public"] is True
    assert created["rxtx_factor"] == 1.0
    assert created["links"][0]["href"].endswith("/v2.1/flavors/10")

    assert api.get("/v2.1/flavors/10").json()["flavor"]["name"] == "m1.small"
    assert [f["id"] for f in api.get("/v2.1/flavors").json()["flavors"]] == ["10"]

    assert api.delete("/v2.1/flavors/10", token=ADMIN).status_code == 202
    response = api.get("/v2.1/flavors/10")
    assert fault(response) == ("itemNotFound", 404, "Flavor 10 could not be found.")


def test_members_may_not_manage_flavors(api):
    name, code, message = fault(_create(api, token="demo:demo"))
    assert (name, code) == ("forbidden", 403)
    assert "os_compute_api:os-flavor-manage:create" in message
    assert _create(api).status_code == 200
    created = api.get("/v2.1/flavors").json()["flavors"][0]["id"]
    assert api.delete(f"/v2.1/flavors/{created}").status_code == 403
    assert api.get(f"/v2.1/flavors/{created}").status_code == 200


def test_a_generated_id_when_none_is_given(api):
    flavor_id = _create(api).json()["flavor"]["id"]
    assert len(flavor_id) == 36


def test_duplicates_conflict(api):
    assert _create(api, id="1").status_code == 200
    assert fault(_create(api, id="2")) == (
        "conflictingRequest",
        409,
        "Flavor with name m1.small already exists.",
    )
    assert (
        fault(_create(api, id="1", name="other"))[2]
        == "Flavor with ID 1 already exists."
    )


def test_bad_bodies_are_400(api):
    assert fault(_create(api, ram=0))[1] == 400
    assert fault(_create(api, name=" padded"))[1] == 400
    assert fault(_create(api, description="at 2.55"))[1] == 400
    assert api.get("/v2.1/flavors").json()["flavors"] == []


def _visibility_fixture(api):
    _create(api, id="pub", name="public")
    _create(api, id="priv", name="private", **{"os-flavor-access:is_public": False})


@pytest.mark.parametrize(
    "query, token, expected",
    [
        ("", ADMIN, ["pub"]),
        ("?is_public=true", ADMIN, ["pub"]),
        ("?is_public=false", ADMIN, ["priv"]),
        # The openstack CLI sends the literal string "None" to mean "all".
        ("?is_public=None", ADMIN, ["priv", "pub"]),
        ("?is_public=None", "demo:demo", ["pub"]),
        ("?is_public=false", "demo:demo", ["pub"]),
    ],
)
def test_is_public_filter(api, query, token, expected):
    _visibility_fixture(api)
    listed = api.get(f"/v2.1/flavors/detail{query}", token=token).json()["flavors"]
    assert sorted(f["id"] for f in listed) == expected


def test_private_flavors_are_invisible_to_other_projects(api):
    _visibility_fixture(api)
    assert api.get("/v2.1/flavors/priv").status_code == 404
    assert api.get("/v2.1/flavors/priv", token=ADMIN).status_code == 200


def test_invalid_filters(api):
    assert fault(api.get("/v2.1/flavors?is_public=maybe", token=ADMIN))[2] == (
        "Invalid is_public filter [maybe]"
    )
    assert (
        fault(api.get("/v2.1/flavors?minRam=lots"))[2] == "Invalid minRam filter [lots]"
    )
    assert api.get("/v2.1/flavors?bogus=1").status_code == 200
    assert api.get("/v2.1/flavors?bogus=1", version="2.75").status_code == 400


def test_min_ram_and_min_disk(api):
    _create(api, id="a", name="a", ram=512, disk=1)
    _create(api, id="b", name="b", ram=4096, disk=40)
    listed = api.get("/v2.1/flavors?minRam=1024&minDisk=10").json()["flavors"]
    assert [f["id"] for f in listed] == ["b"]


def test_paging_with_marker_and_next_link(api):
    for index in range(3):
        _create(api, id=f"f{index}", name=f"flavor-{index}")
    page = api.get("/v2.1/flavors?limit=2").json()
    assert [f["id"] for f in page["flavors"]] == ["f0", "f1"]
    next_href = page["flavors_links"][0]["href"]
    assert "marker=f1" in next_href and "limit=2" in next_href
    rest = api.get("/v2.1/flavors?limit=2&marker=f1").json()
    assert [f["id"] for f in rest["flavors"]] == ["f2"]
    assert "flavors_links" not in rest
    assert fault(api.get("/v2.1/flavors?marker=nope"))[2] == "marker [nope] not found"


def test_sorting(api):
    _create(api, id="x", name="big", ram=8192)
    _create(api, id="y", name="small", ram=256)
    listed = api.get("/v2.1/flavors?sort_key=memory_mb&sort_dir=desc").json()
    assert [f["id"] for f in listed["flavors"]] == ["x", "y"]


def test_description_from_2_55(api):
    created = _create(api, version="2.55", description="general purpose").json()
    flavor_id = created["flavor"]["id"]
    assert created["flavor"]["description"] == "general purpose"
    assert "description" not in api.get(f"/v2.1/flavors/{flavor_id}").json()["flavor"]
    response = api.put(
        f"/v2.1/flavors/{flavor_id}",
        {"flavor": {"description": "changed"}},
        version="2.55",
        token=ADMIN,
    )
    assert response.json()["flavor"]["description"] == "changed"
    listed = api.get("/v2.1/flavors", version="2.55").json()["flavors"]
    assert listed[0]["description"] == "changed"
    assert (
        api.put(f"/v2.1/flavors/{flavor_id}", {"flavor": {}}, token=ADMIN).status_code
        == 404
    )


def test_extra_specs_in_the_body_from_2_61_and_swap_from_2_75(api):
    flavor_id = _create(api).json()["flavor"]["id"]
    old = api.get(f"/v2.1/flavors/{flavor_id}", version="2.60").json()["flavor"]
    assert "extra_specs" not in old and old["swap"] == ""
    new = api.get(f"/v2.1/flavors/{flavor_id}", version="2.75").json()["flavor"]
    assert new["extra_specs"] == {} and new["swap"] == 0
