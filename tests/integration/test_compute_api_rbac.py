"""The Compute API's resources through real clients against real Keystone.

The launched cloud (``local_cloud``) authenticates with keystonemiddleware
against the real Keystone. Two projects: the cloud's ``demo`` project (its
member ``demo`` and reader ``demo-reader``) and a project made here with a
member of its own. Key pairs, quotas, limits, flavor extra specs and flavor
access go through the unmodified ``openstack`` CLI; who gets a 403 and who
a 404 is checked over HTTP with each persona's own Keystone token.
"""

from __future__ import annotations

import uuid

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519

from tests.fixtures.openstack_services import Credentials, OpenStackCLIError
from tests.integration.test_boot_path import image  # noqa: F401  (fixture)

pytestmark = [pytest.mark.integration, pytest.mark.mysql, pytest.mark.rabbitmq]


def _unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


@pytest.fixture(scope="module")
def other_member(local_cloud) -> Credentials:
    """A member of a second project, with no role in ``demo``."""
    from keystoneauth1 import adapter

    identity = adapter.Adapter(
        local_cloud.services.session(), service_type="identity", interface="public"
    )
    project = identity.post(
        "/projects",
        json={"project": {"name": _unique("other"), "domain_id": "default"}},
    ).json()["project"]
    name, password = _unique("other-member"), uuid.uuid4().hex
    user = identity.post(
        "/users",
        json={"user": {"name": name, "password": password, "domain_id": "default"}},
    ).json()["user"]
    role = identity.get("/roles", params={"name": "member"}).json()["roles"][0]
    identity.put(f"/projects/{project['id']}/users/{user['id']}/roles/{role['id']}")
    return Credentials(name, password, project["name"])


def _public_key(tmp_path) -> str:
    key = ed25519.Ed25519PrivateKey.generate().public_key()
    path = tmp_path / "key.pub"
    path.write_bytes(
        key.public_bytes(
            serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH
        )
    )
    return str(path)


def test_keypairs_through_the_openstack_cli(local_cloud, tmp_path):
    services = local_cloud.services
    name = _unique("key")
    created = local_cloud.openstack(
        "keypair", "create", "--public-key", _public_key(tmp_path), name,
        cloud=services.demo_cloud,
    )  # fmt: skip
    assert created["name"] == name and len(created["fingerprint"].split(":")) == 16
    listed = local_cloud.openstack("keypair", "list", cloud=services.demo_cloud)
    assert name in [k["Name"] for k in listed]
    shown = local_cloud.openstack("keypair", "show", name, cloud=services.demo_cloud)
    assert shown["fingerprint"] == created["fingerprint"]
    # Key pairs are a user's: the reader of the same project has its own.
    reader_keys = local_cloud.openstack("keypair", "list", cloud=services.reader_cloud)
    assert name not in [k["Name"] for k in reader_keys]
    local_cloud.openstack(
        "keypair", "delete", name, cloud=services.demo_cloud, json_output=False
    )
    with pytest.raises(OpenStackCLIError):
        local_cloud.openstack("keypair", "show", name, cloud=services.demo_cloud)


def test_quotas_and_limits_through_the_openstack_cli(local_cloud):
    services = local_cloud.services
    with local_cloud.exclusive():
        local_cloud.openstack(
            "quota", "set", "--instances", "7", "--key-pairs", "9", "demo",
            json_output=False,
        )  # fmt: skip
        try:
            shown = local_cloud.openstack("quota", "show", "demo")
            values = {row["Resource"]: row["Limit"] for row in shown}
            assert values["instances"] == 7 and values["key-pairs"] == 9
            limits = local_cloud.openstack(
                "limits", "show", "--absolute", cloud=services.demo_cloud
            )
            # The CLI names the limits as openstacksdk does.
            absolute = {row["Name"]: row["Value"] for row in limits}
            assert absolute["instances"] == 7 and absolute["keypairs"] == 9
            # Members may not change their own quota.
            with pytest.raises(OpenStackCLIError, match="403|Forbidden|allow"):
                local_cloud.openstack(
                    "quota", "set", "--instances", "100", "demo",
                    cloud=services.demo_cloud, json_output=False,
                )  # fmt: skip
        finally:
            local_cloud.openstack("quota", "delete", "demo", json_output=False)
        shown = local_cloud.openstack("quota", "show", "demo")
        assert {r["Resource"]: r["Limit"] for r in shown}["instances"] == 10


def test_flavor_extra_specs_and_access_through_the_openstack_cli(local_cloud):
    services = local_cloud.services
    name = _unique("private")
    flavor = local_cloud.openstack(
        "flavor", "create", "--private", "--ram", "64", "--vcpus", "1",
        "--disk", "0", "--property", "hw:cpu_policy=dedicated", name,
    )  # fmt: skip
    try:
        assert flavor["properties"] == {"hw:cpu_policy": "dedicated"}
        with pytest.raises(OpenStackCLIError):
            local_cloud.openstack("flavor", "show", name, cloud=services.demo_cloud)
        local_cloud.openstack(
            "flavor", "set", "--project", "demo", "--property", "quota:cpu_shares=5",
            name, json_output=False,
        )  # fmt: skip
        seen = local_cloud.openstack(
            "flavor", "show", flavor["id"], cloud=services.demo_cloud
        )
        assert seen["properties"]["quota:cpu_shares"] == "5"
        local_cloud.openstack(
            "flavor", "unset", "--property", "hw:cpu_policy", name, json_output=False
        )
        shown = local_cloud.openstack("flavor", "show", name)
        assert "hw:cpu_policy" not in shown["properties"]
    finally:
        local_cloud.openstack("flavor", "delete", name, json_output=False)


def test_403_and_404_per_persona(local_cloud, other_member, image):  # noqa: F811
    """Another project's resources do not exist for its members (404); what
    a persona may see but not do is a 403."""
    services = local_cloud.services
    admin = local_cloud.compute(microversion="2.92")
    member = local_cloud.compute(services.demo, microversion="2.92")
    reader = local_cloud.compute(services.reader, microversion="2.92")
    other = local_cloud.compute(other_member, microversion="2.92")

    flavor_id = _unique("f")
    response = admin.post(
        "/flavors",
        json={
            "flavor": {
                "name": flavor_id,
                "id": flavor_id,
                "ram": 64,
                "vcpus": 1,
                # A root disk: only admins boot images on zero-disk flavors.
                "disk": 1,
            }
        },
    )
    assert response.status_code == 200, response.text
    try:
        # Flavors: everyone reads, only admins write.
        for persona in (member, reader, other):
            assert persona.get(f"/flavors/{flavor_id}").status_code == 200
            specs = persona.post(
                f"/flavors/{flavor_id}/os-extra_specs",
                json={"extra_specs": {"a": "b"}},
            )
            assert specs.status_code == 403
        # Quotas: a project reads its own, another project's is a 403.
        project_id = services.session(services.demo).get_project_id()
        assert reader.get(f"/os-quota-sets/{project_id}").status_code == 200
        assert other.get(f"/os-quota-sets/{project_id}").status_code == 403
        assert (
            member.put(
                f"/os-quota-sets/{project_id}", json={"quota_set": {"instances": 1}}
            ).status_code
            == 403
        )
        assert other.get(f"/limits?tenant_id={project_id}").status_code == 403
        assert admin.get(f"/limits?tenant_id={project_id}").status_code == 200
        # A private flavor of another project is not found.
        assert (
            admin.post(
                "/flavors",
                json={
                    "flavor": {
                        "name": f"{flavor_id}-p",
                        "id": f"{flavor_id}-p",
                        "ram": 64,
                        "vcpus": 1,
                        "disk": 0,
                        "os-flavor-access:is_public": False,
                    }
                },  # fmt: skip
            ).status_code
            == 200
        )
        assert other.get(f"/flavors/{flavor_id}-p").status_code == 404
        assert admin.get(f"/flavors/{flavor_id}-p").status_code == 200
        # Servers: another project's server does not exist for its
        # members; the owning project's reader sees it but may not delete.
        response = member.post(
            "/servers",
            json={"server": {"name": _unique("rbac"), "flavorRef": flavor_id,
                             "imageRef": image["id"], "networks": "none"}},
        )  # fmt: skip
        assert response.status_code == 202, response.text
        server = f"/servers/{response.json()['server']['id']}"
        assert reader.get(server).status_code == 200
        assert admin.get(server).status_code == 200
        assert other.get(server).status_code == 404
        assert other.delete(server).status_code == 404
        assert reader.delete(server).status_code == 403
        assert other.get("/servers?all_tenants=1").status_code == 403
        assert member.delete(server).status_code == 204
    finally:
        admin.delete(f"/flavors/{flavor_id}")
        admin.delete(f"/flavors/{flavor_id}-p")
