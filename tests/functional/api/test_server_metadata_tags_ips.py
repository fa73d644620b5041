"""A server's metadata, tags and addresses, and the APIs upstream removed."""

import json

import pytest
import sqlalchemy as sa

from nova.db import engines
from nova.db.main import models as main_models
from tests.functional.api.conftest import ADMIN, OTHER, fault
from tests.functional.api.test_servers import _in_cell

pytestmark = pytest.mark.parametrize("cloud_databases", ["sqlite"], indirect=True)

NETWORK_INFO = [
    {
        "id": "port-1",
        "address": "fa:16:3e:00:00:01",
        "network": {
            "label": "private",
            "subnets": [
                {
                    "cidr": "10.0.0.0/24",
                    "ips": [
                        {
                            "address": "10.0.0.3",
                            "version": 4,
                            "type": "fixed",
                            "floating_ips": [{"address": "172.24.4.9", "version": 4}],
                        }
                    ],
                },
                {"cidr": "fd00::/64", "ips": [{"address": "fd00::3", "version": 6}]},
            ],
        },
    }
]


@pytest.fixture
def server(nova_conf, flavor):
    return _in_cell(nova_conf, "cell1", metadata={"a": "1"})


def test_metadata_lifecycle(api, server):
    url = f"/v2.1/servers/{server.uuid}/metadata"
    assert api.get(url).json() == {"metadata": {"a": "1"}}
    merged = api.post(url, {"metadata": {"b": "2", "a": "one"}})
    assert merged.status_code == 200
    assert merged.json() == {"metadata": {"a": "one", "b": "2"}}
    assert api.get(f"{url}/b").json() == {"meta": {"b": "2"}}
    assert api.put(f"{url}/c", {"meta": {"c": "3"}}).json() == {"meta": {"c": "3"}}
    assert api.get(url).json()["metadata"] == {"a": "one", "b": "2", "c": "3"}
    assert api.delete(f"{url}/a").status_code == 204
    replaced = api.put(url, {"metadata": {"only": "this"}}).json()
    assert replaced == {"metadata": {"only": "this"}}
    assert api.get(url).json() == {"metadata": {"only": "this"}}
    assert fault(api.get(f"{url}/a")) == (
        "itemNotFound",
        404,
        "Metadata item was not found",
    )
    assert fault(api.delete(f"{url}/a"))[1] == 404


def test_metadata_bad_requests_change_nothing(api, server):
    url = f"/v2.1/servers/{server.uuid}/metadata"
    for method, path, body in (
        ("PUT", f"{url}/x", {"meta": {"y": "1"}}),
        ("PUT", f"{url}/x", {"meta": {"x": "1", "y": "2"}}),
        ("PUT", f"{url}/x", {"meta": {}}),
        ("POST", url, {"metadata": {"k": "v" * 256}}),
        ("POST", url, {"metadata": {"": "v"}}),
        ("POST", url, {"metadata": {"k": 1}}),
        ("PUT", url, {"meta": {"k": "v"}}),
    ):
        response = api.request(method, path, json=body)
        assert fault(response)[:2] == ("badRequest", 400), (path, body)
    assert fault(api.put(f"{url}/x", {"meta": {"y": "1"}}))[2] == (
        "Request body and URI mismatch"
    )
    assert api.get(url).json() == {"metadata": {"a": "1"}}


def test_metadata_quota_and_states(api, nova_conf, flavor, server):
    url = f"/v2.1/servers/{server.uuid}/metadata"
    too_many = {"metadata": {f"k{i}": "v" for i in range(129)}}
    assert fault(api.put(url, too_many)) == (
        "forbidden",
        403,
        "Maximum number of metadata items exceeds 128",
    )
    building = _in_cell(nova_conf, "cell1", vm_state="building")
    response = api.post(f"/v2.1/servers/{building.uuid}/metadata", {"metadata": {}})
    assert fault(response) == (
        "conflictingRequest",
        409,
        f"Cannot 'update metadata' instance {building.uuid} while it is in "
        "vm_state building",
    )
    busy = _in_cell(nova_conf, "cell1", task_state="rebooting", metadata={"a": "1"})
    assert fault(api.delete(f"/v2.1/servers/{busy.uuid}/metadata/a"))[1] == 409
    assert fault(api.delete(f"/v2.1/servers/{busy.uuid}/metadata/b"))[1] == 404
    locked = _in_cell(nova_conf, "cell1", locked=True, locked_by="owner")
    assert fault(api.post(f"/v2.1/servers/{locked.uuid}/metadata", {"metadata": {}}))[
        :2
    ] == ("conflictingRequest", 409)
    admin_post = api.post(
        f"/v2.1/servers/{locked.uuid}/metadata", {"metadata": {"k": "v"}}, token=ADMIN
    )
    assert admin_post.status_code == 200


def test_another_projects_server_is_not_found(api, server):
    url = f"/v2.1/servers/{server.uuid}"
    for path in ("/metadata", "/metadata/a", "/ips", "/tags"):
        response = api.get(url + path, token=OTHER, version="2.26")
        assert fault(response)[:2] == ("itemNotFound", 404), path


def test_tags(api, nova_conf, server):
    url = f"/v2.1/servers/{server.uuid}/tags"
    assert fault(api.get(url, version="2.25"))[1] == 404
    assert api.get(url, version="2.26").json() == {"tags": []}
    created = api.put(f"{url}/blue", None, version="2.26")
    assert created.status_code == 201
    assert created.headers["Location"].endswith(f"/servers/{server.uuid}/tags/blue")
    assert api.put(f"{url}/blue", None, version="2.26").status_code == 204
    assert api.get(f"{url}/blue", version="2.26").status_code == 204
    assert fault(api.get(f"{url}/red", version="2.26")) == (
        "itemNotFound",
        404,
        f"Server {server.uuid} has no tag 'red'",
    )
    replaced = api.put(url, {"tags": ["b", "a", "a"]}, version="2.26")
    assert replaced.json() == {"tags": ["a", "b"]}
    assert api.delete(f"{url}/a", version="2.26").status_code == 204
    assert fault(api.delete(f"{url}/a", version="2.26"))[1] == 404
    # Servers are filtered by their tags.
    _in_cell(nova_conf, "cell1", display_name="untagged")
    listed = api.get("/v2.1/servers?tags=b", version="2.26").json()["servers"]
    assert [s["id"] for s in listed] == [server.uuid]
    listed = api.get("/v2.1/servers?not-tags=b", version="2.26").json()["servers"]
    assert server.uuid not in [s["id"] for s in listed]
    assert api.delete(url, version="2.26").status_code == 204
    assert api.get(url, version="2.26").json() == {"tags": []}


def test_tag_limits_and_validation(api, server):
    url = f"/v2.1/servers/{server.uuid}/tags"
    fifty = [f"t{i}" for i in range(50)]
    assert api.put(url, {"tags": fifty}, version="2.26").status_code == 200
    assert fault(api.put(f"{url}/one-more", None, version="2.26")) == (
        "badRequest",
        400,
        "The number of tags exceeded the per-server limit 50",
    )
    assert fault(api.put(url, {"tags": [*fifty, "x"]}, version="2.26"))[1] == 400
    assert fault(api.put(url, {"tags": ["a,b"]}, version="2.26"))[1] == 400
    assert fault(api.put(f"{url}/{'x' * 61}", None, version="2.26"))[1] == 400
    assert len(api.get(url, version="2.26").json()["tags"]) == 50


def test_ips_from_the_info_cache(api, nova_conf, server):
    url = f"/v2.1/servers/{server.uuid}/ips"
    assert api.get(url).json() == {"addresses": {}}
    cell = nova_conf["cells"]["cell1"]
    with engines.transaction(cell.database_connection) as session:
        session.execute(
            sa.update(main_models.InstanceInfoCache)
            .where(main_models.InstanceInfoCache.instance_uuid == server.uuid)
            .values(network_info=json.dumps(NETWORK_INFO))
        )
    private = [
        {"version": 4, "addr": "10.0.0.3"},
        {"version": 4, "addr": "172.24.4.9"},
        {"version": 6, "addr": "fd00::3"},
    ]
    assert api.get(url).json() == {"addresses": {"private": private}}
    assert api.get(f"{url}/private").json() == {"private": private}
    assert fault(api.get(f"{url}/public")) == (
        "itemNotFound",
        404,
        "Instance is not a member of specified network",
    )


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/os-cells"),
        ("GET", "/os-cells/detail"),
        ("POST", "/os-certificates"),
        ("GET", "/os-fping"),
        ("GET", "/os-agents"),
        ("PUT", "/os-agents/1"),
        ("GET", "/os-fixed-ips/10.0.0.1"),
        ("POST", "/os-networks/add"),
        ("GET", "/os-security-group-default-rules"),
        ("GET", "/os-cloudpipe"),
        ("GET", "/servers/abc/os-virtual-interfaces"),
        ("GET", "/servers/abc/consoles"),
    ],
)
def test_removed_apis_are_gone(api, nova_conf, method, path):
    response = api.request(method, "/v2.1" + path, json={}, version="2.1")
    assert fault(response) == (
        "computeFault",
        410,
        "This resource is no longer available.  No forwarding address is given.",
    )
    latest = api.request(method, "/v2.1" + path, json={}, version="latest")
    assert latest.status_code == 410
