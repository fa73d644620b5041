"""os-server-groups over HTTP: policies by microversion, visibility by
project, and servers joining their group through the ``group`` hint."""

import pytest

from nova import context as nova_context
from nova import objects
from tests.functional.api.conftest import ADMIN, OTHER, fault

GROUPS = "/v2.1/os-server-groups"


def _create(api, version="2.1", token=..., **group):
    return api.post(GROUPS, {"server_group": group}, version=version, token=token)


def test_policies_list_before_2_64(api):
    response = _create(api, name="g", policies=["anti-affinity"])
    assert response.status_code == 200
    group = response.json()["server_group"]
    assert group["policies"] == ["anti-affinity"] and group["metadata"] == {}
    assert group["members"] == [] and "project_id" not in group
    # Soft policies arrive with 2.15; 2.13 shows the owner.
    assert fault(_create(api, name="s", policies=["soft-affinity"]))[1] == 400
    soft = _create(api, "2.15", name="s", policies=["soft-affinity"]).json()
    assert soft["server_group"]["project_id"] == "demo"
    assert soft["server_group"]["user_id"] == "demo"
    assert fault(_create(api, name="x", policies=[]))[1] == 400
    assert (
        fault(_create(api, name="x", policies=["affinity", "anti-affinity"]))[1] == 400
    )


def test_policy_and_rules_from_2_64(api):
    response = _create(
        api, "2.64", name="g", policy="anti-affinity",
        rules={"max_server_per_host": 2},
    )  # fmt: skip
    group = response.json()["server_group"]
    assert group["policy"] == "anti-affinity"
    assert group["rules"] == {"max_server_per_host": 2}
    assert "policies" not in group and "metadata" not in group
    shown = api.get(f"{GROUPS}/{group['id']}", version="2.64").json()
    assert shown["server_group"]["rules"] == {"max_server_per_host": 2}
    # Rules are anti-affinity's alone; the old body is refused.
    refused = _create(
        api, "2.64", name="g", policy="affinity", rules={"max_server_per_host": 2}
    )
    assert fault(refused) == (
        "badRequest", 400, "Only anti-affinity policy supports rules."
    )  # fmt: skip
    assert fault(_create(api, "2.64", name="g", policies=["affinity"]))[1] == 400
    bad_rule = _create(
        api, "2.64", name="g", policy="anti-affinity", rules={"max_server_per_host": 0}
    )
    assert fault(bad_rule)[1] == 400


def test_projects_see_their_own_and_admin_all(api):
    mine = _create(api, name="mine", policies=["affinity"]).json()["server_group"]
    theirs = _create(api, token=OTHER, name="theirs", policies=["affinity"]).json()
    theirs = theirs["server_group"]
    assert [g["name"] for g in api.get(GROUPS).json()["server_groups"]] == ["mine"]
    assert fault(api.get(f"{GROUPS}/{theirs['id']}"))[1] == 403
    everyone = api.get(f"{GROUPS}?all_projects=True", token=ADMIN).json()
    assert {g["name"] for g in everyone["server_groups"]} == {"mine", "theirs"}
    # all_projects means nothing to a non-admin.
    ignored = api.get(f"{GROUPS}?all_projects=True").json()["server_groups"]
    assert [g["name"] for g in ignored] == ["mine"]
    paged = api.get(f"{GROUPS}?all_projects=True&limit=1&offset=1", token=ADMIN)
    assert [g["name"] for g in paged.json()["server_groups"]] == ["theirs"]
    assert fault(api.get(f"{GROUPS}?bogus=1", version="2.75"))[1] == 400

    assert api.delete(f"{GROUPS}/{mine['id']}").status_code == 204
    assert fault(api.get(f"{GROUPS}/{mine['id']}"))[1] == 404


def test_server_create_joins_the_hinted_group(api, glance, flavor, conductor):
    group = _create(api, name="g", policies=["anti-affinity"]).json()["server_group"]
    body = {
        "server": {
            "name": "s", "flavorRef": "1", "imageRef": glance.active,
            "networks": "none", "min_count": 2,
        },
        "os:scheduler_hints": {"group": group["id"]},
    }  # fmt: skip
    assert api.post("/v2.1/servers", body, version="2.37").status_code == 202
    (build,) = conductor.builds
    uuids = [b.instance_uuid for b in build["build_requests"]]
    members = api.get(f"{GROUPS}/{group['id']}").json()["server_group"]["members"]
    assert sorted(members) == sorted(uuids)
    spec = build["request_specs"][0]
    assert spec.instance_group.uuid == group["id"]
    assert spec.instance_group.policy == "anti-affinity"

    # Deleting a server takes it out of its group at once.
    assert api.delete(f"/v2.1/servers/{uuids[0]}").status_code == 204
    members = api.get(f"{GROUPS}/{group['id']}").json()["server_group"]["members"]
    assert members == [uuids[1]]


@pytest.mark.parametrize("hint", ["00000000-0000-0000-0000-000000000000"])
def test_an_unknown_group_is_400_and_writes_nothing(
    api, glance, flavor, conductor, hint
):
    body = {
        "server": {"name": "s", "flavorRef": "1", "imageRef": glance.active,
                   "networks": "none"},
        "os:scheduler_hints": {"group": hint},
    }  # fmt: skip
    assert fault(api.post("/v2.1/servers", body, version="2.37"))[1] == 400
    assert conductor.builds == []
    context = nova_context.get_admin_context()
    assert len(objects.InstanceGroupList.get_all(context)) == 0


def test_server_groups_quota_refuses_past_the_limit(api):
    limited = api.put(
        "/v2.1/os-quota-sets/demo", {"quota_set": {"server_groups": 1}}, token=ADMIN
    )
    assert limited.status_code == 200
    assert _create(api, name="first", policies=["affinity"]).status_code == 200
    assert fault(_create(api, name="second", policies=["affinity"])) == (
        "forbidden", 403, "Quota exceeded, too many server groups."
    )  # fmt: skip
    assert [g["name"] for g in api.get(GROUPS).json()["server_groups"]] == ["first"]
