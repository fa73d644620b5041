"""Flavor extra specs (validated from 2.86) and flavor access over HTTP."""

import pytest

from tests.functional.api.conftest import ADMIN, fault

SPECS = "/v2.1/flavors/1/os-extra_specs"


def _add_specs(api, specs, version="2.86"):
    return api.post(SPECS, {"extra_specs": specs}, token=ADMIN, version=version)


def test_crud(api, flavor):
    response = _add_specs(api, {"hw:cpu_policy": "dedicated", "custom": "x"})
    assert response.status_code == 200
    assert api.get(SPECS).json()["extra_specs"] == {
        "hw:cpu_policy": "dedicated",
        "custom": "x",
    }
    assert api.get(f"{SPECS}/custom").json() == {"custom": "x"}
    response = api.put(f"{SPECS}/custom", {"custom": "y"}, token=ADMIN)
    assert response.json() == {"custom": "y"}
    assert api.delete(f"{SPECS}/custom", token=ADMIN).status_code == 200
    assert fault(api.get(f"{SPECS}/custom")) == (
        "itemNotFound",
        404,
        "Flavor 1 has no extra specs with key custom.",
    )
    # 2.61 puts them in the flavor.
    shown = api.get("/v2.1/flavors/1", version="2.61").json()["flavor"]
    assert shown["extra_specs"] == {"hw:cpu_policy": "dedicated"}
    assert (
        "extra_specs" not in api.get("/v2.1/flavors/1", version="2.60").json()["flavor"]
    )


def test_members_read_but_do_not_write(api, flavor):
    assert api.get(SPECS).status_code == 200
    response = api.post(SPECS, {"extra_specs": {"a": "b"}}, version="2.86")
    assert fault(response)[1] == 403
    assert api.get(SPECS).json()["extra_specs"] == {}


@pytest.mark.parametrize(
    "specs",
    [
        {"hw:cpu_policy": "sometimes"},
        {"hw:no_such_thing": "1"},
        {"hw_rng:allowed": "maybe"},
        {"resources1:VCPU": "-1"},
        {"trait:HW_CPU_X86_AVX": "wanted"},
        {"quota:cpu_shares": "many"},
    ],
)
def test_known_namespaces_are_validated_from_2_86(api, flavor, specs):
    assert fault(_add_specs(api, specs))[1] == 400
    assert _add_specs(api, specs, version="2.85").status_code == 200


@pytest.mark.parametrize(
    "specs",
    [
        {"hw:numa_nodes": "2", "hw:mem_page_size": "2MB"},
        {"resources:CUSTOM_GPU": "1", "trait1:HW_GPU": "required"},
        {"aggregate_instance_extra_specs:ssd": "true", "vendor:own": "anything"},
    ],
)
def test_valid_specs_pass(api, flavor, specs):
    assert _add_specs(api, specs).status_code == 200


def test_update_body_must_match_the_url(api, flavor):
    response = api.put(f"{SPECS}/a", {"b": "1"}, token=ADMIN)
    assert fault(response) == ("badRequest", 400, "Request body and URI mismatch")
    response = api.put(f"{SPECS}/a", {"a": "1", "b": "2"}, token=ADMIN)
    assert fault(response)[1] == 400


def _private_flavor(api):
    body = {
        "flavor": {
            "name": "private",
            "id": "p1",
            "ram": 64,
            "vcpus": 1,
            "disk": 0,
            "os-flavor-access:is_public": False,
        }
    }
    assert api.post("/v2.1/flavors", body, token=ADMIN).status_code == 200


def _action(api, body, flavor_id="p1", token=ADMIN):
    return api.post(f"/v2.1/flavors/{flavor_id}/action", body, token=token)


def test_flavor_access(api, flavor):
    _private_flavor(api)
    assert fault(api.get("/v2.1/flavors/p1"))[1] == 404
    response = _action(api, {"addTenantAccess": {"tenant": "demo"}})
    assert response.json() == {
        "flavor_access": [{"flavor_id": "p1", "tenant_id": "demo"}]
    }
    assert api.get("/v2.1/flavors/p1").status_code == 200
    listed = api.get("/v2.1/flavors/p1/os-flavor-access", token=ADMIN)
    assert listed.json()["flavor_access"][0]["tenant_id"] == "demo"
    assert fault(_action(api, {"addTenantAccess": {"tenant": "demo"}}))[1] == 409
    assert fault(_action(api, {"addTenantAccess": {"tenant": "x"}}, "1"))[1] == 409
    assert fault(api.get("/v2.1/flavors/1/os-flavor-access", token=ADMIN))[1] == 404
    member = _action(api, {"removeTenantAccess": {"tenant": "demo"}}, token="demo:demo")
    assert fault(member)[1] == 403
    response = _action(api, {"removeTenantAccess": {"tenant": "demo"}})
    assert response.json() == {"flavor_access": []}
    assert fault(_action(api, {"removeTenantAccess": {"tenant": "demo"}}))[1] == 404
    assert fault(_action(api, {"fly": {}}))[1] == 400
