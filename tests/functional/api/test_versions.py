"""Version discovery as the openstack CLI, SDK and Tempest read it."""

import pytest

pytestmark = pytest.mark.parametrize("cloud_databases", ["sqlite"], indirect=True)


def test_root_lists_both_major_versions_without_a_token(api):
    response = api.get("/", token=None)
    assert response.status_code == 200
    versions = {v["id"]: v for v in response.json()["versions"]}
    assert versions["v2.1"]["status"] == "CURRENT"
    assert versions["v2.1"]["version"] == "2.104"
    assert versions["v2.1"]["min_version"] == "2.1"
    assert versions["v2.0"]["status"] == "SUPPORTED"
    assert versions["v2.1"]["links"] == [
        {"rel": "self", "href": f"{api.base_url}/v2.1/"}
    ]
    assert versions["v2.0"]["links"] == [{"rel": "self", "href": f"{api.base_url}/v2/"}]


@pytest.mark.parametrize("path", ["/v2.1", "/v2.1/"])
def test_v2_1_document_without_a_token(api, path):
    response = api.get(path, token=None, headers={"Accept": "application/json"})
    assert response.status_code == 200
    version = response.json()["version"]
    assert version["id"] == "v2.1"
    assert version["status"] == "CURRENT"
    assert version["version"] == "2.104"
    assert version["min_version"] == "2.1"
    assert version["links"][0] == {"rel": "self", "href": f"{api.base_url}/v2.1/"}
    assert version["media-types"][0]["base"] == "application/json"


@pytest.mark.parametrize("path", ["/v2", "/v2/"])
def test_v2_0_document_followed_from_the_root(api, path):
    version = api.get(path, token=None).json()["version"]
    assert version["id"] == "v2.0"
    assert version["version"] == ""


def test_resources_need_a_token(api):
    response = api.get("/v2.1/flavors", token=None)
    assert response.status_code == 401
    assert response.json()["unauthorized"]["code"] == 401


def test_every_response_carries_request_ids(api):
    response = api.get("/v2.1", token=None)
    request_id = response.headers["x-openstack-request-id"]
    assert request_id.startswith("req-")
    assert response.headers["x-compute-request-id"] == request_id


@pytest.mark.parametrize(
    "headers, echoed",
    [
        ({}, "2.1"),
        ({"X-OpenStack-Nova-API-Version": "2.60"}, "2.60"),
        ({"OpenStack-API-Version": "compute 2.96"}, "2.96"),
        ({"X-OpenStack-Nova-API-Version": "latest"}, "2.104"),
    ],
)
def test_the_version_is_echoed_in_both_headers(api, headers, echoed):
    response = api.get("/v2.1/flavors", headers=headers)
    assert response.status_code == 200
    assert response.headers["X-OpenStack-Nova-API-Version"] == echoed
    assert response.headers["OpenStack-API-Version"] == f"compute {echoed}"
    assert "OpenStack-API-Version" in response.headers["Vary"]


def test_errors_echo_the_version_too(api):
    response = api.get("/v2.1/flavors/nope", version="2.61")
    assert response.status_code == 404
    assert response.headers["X-OpenStack-Nova-API-Version"] == "2.61"


def test_a_version_beyond_the_range_is_406_in_nova_format(api):
    response = api.get(
        "/v2.1/flavors", headers={"X-OpenStack-Nova-API-Version": "2.105"}
    )
    assert response.status_code == 406
    assert response.json() == {
        "computeFault": {
            "code": 406,
            "message": "Version 2.105 is not supported by the API. "
            "Minimum is 2.1 and maximum is 2.104.",
        }
    }


def test_a_garbage_version_is_400(api):
    response = api.get("/v2.1/flavors", headers={"OpenStack-API-Version": "compute x"})
    assert response.status_code == 400
    assert "badRequest" in response.json()


def test_unknown_resources_and_methods(api):
    assert api.get("/v2.1/no-such-thing").status_code == 404
    response = api.request("PATCH", "/v2.1/flavors")
    assert response.status_code == 405
    assert response.json()["badMethod"]["code"] == 405


def test_project_id_in_the_url(api):
    assert api.get("/v2.1/demo/flavors").status_code == 200
    response = api.get("/v2.1/someone-else/flavors")
    assert response.status_code == 400
    assert (
        "doesn't match Context's project_id" in response.json()["badRequest"]["message"]
    )


def test_extensions_are_listed_and_shown(api):
    listed = api.get("/v2.1/extensions").json()["extensions"]
    assert "Hosts" in [e["name"] for e in listed]
    shown = api.get("/v2.1/extensions/os-consoles").json()["extension"]
    assert shown["alias"] == "os-consoles" and shown["links"] == []
    assert api.get("/v2.1/extensions/os-nothing").status_code == 404
