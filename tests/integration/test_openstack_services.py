"""Keystone, Placement and Glance as the launcher runs them, seen through
the unmodified ``openstack`` CLI and keystoneauth1."""

from __future__ import annotations

import os
import urllib.request

import pytest

from nova.launcher import proc

pytestmark = pytest.mark.integration

_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _get_status(url: str) -> int:
    try:
        with _OPENER.open(url, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_services_answer(openstack_services):
    assert _get_status(openstack_services.auth_url) == 200
    assert _get_status(openstack_services.placement_url + "/") == 200
    assert _get_status(openstack_services.glance_url + "/") in (200, 300)
    assert sorted(openstack_services.pids) == ["glance", "keystone", "placement"]
    for pid in openstack_services.pids.values():
        assert proc.is_alive(pid)


def test_catalog_lists_our_services(openstack_services):
    catalog = openstack_services.openstack("catalog", "list")
    by_type = {entry["Type"]: entry for entry in catalog}
    assert {"identity", "placement", "image", "compute"} <= set(by_type)
    compute = by_type["compute"]["Endpoints"]
    interfaces = {endpoint["interface"] for endpoint in compute}
    assert interfaces == {"public", "internal", "admin"}
    assert {endpoint["url"] for endpoint in compute} == {openstack_services.compute_url}


def test_image_upload_and_download_round_trip(openstack_services, tmp_path):
    original = tmp_path / "img1.raw"
    original.write_bytes(os.urandom(1024 * 1024))
    name = f"img-{os.getpid()}-{tmp_path.name}"
    image = openstack_services.openstack(
        "image", "create", "--file", str(original),
        "--disk-format", "raw", "--container-format", "bare", name,
    )  # fmt: skip
    try:
        assert image["status"] == "active"
        assert image["size"] == 1024 * 1024
        downloaded = tmp_path / "img1.download"
        openstack_services.openstack(
            "image", "save", "--file", str(downloaded), image["id"], json_output=False
        )
        assert downloaded.read_bytes() == original.read_bytes()
    finally:
        openstack_services.openstack("image", "delete", image["id"], json_output=False)


def test_resource_providers_through_osc_placement(openstack_services):
    name = f"rp-{os.getpid()}"
    created = openstack_services.openstack("resource", "provider", "create", name)
    try:
        listed = openstack_services.openstack("resource", "provider", "list")
        assert created["uuid"] in {provider["uuid"] for provider in listed}
    finally:
        openstack_services.openstack(
            "resource", "provider", "delete", created["uuid"], json_output=False
        )


def test_demo_and_reader_users_get_tokens(openstack_services):
    demo_project = openstack_services.openstack("project", "show", "demo")
    for cloud in (openstack_services.demo_cloud, openstack_services.reader_cloud):
        token = openstack_services.openstack("token", "issue", cloud=cloud)
        assert token["project_id"] == demo_project["id"]
    roles = openstack_services.openstack(
        "role", "assignment", "list", "--project", "demo", "--names"
    )
    held = {(row["User"], row["Role"]) for row in roles}
    assert ("demo@Default", "member") in held
    assert ("demo-reader@Default", "reader") in held


def test_service_users_hold_admin_and_service_roles(openstack_services):
    roles = openstack_services.openstack(
        "role", "assignment", "list", "--project", "service", "--names"
    )
    held = {(row["User"], row["Role"]) for row in roles}
    for user in ("placement", "glance", "nova"):
        assert (f"{user}@Default", "admin") in held
        assert (f"{user}@Default", "service") in held
    for name, credentials in openstack_services.service_users.items():
        session = openstack_services.session(credentials)
        assert session.get_token(), name


def test_registering_the_catalog_again_changes_nothing(openstack_services):
    from keystoneauth1 import adapter

    from nova.launcher.catalog import IdentityAdmin

    services = openstack_services
    identity = adapter.Adapter(services.session(), endpoint_override=services.auth_url)

    def snapshot() -> dict[str, list]:
        return {
            kind: sorted(str(item) for item in identity.get(f"/{kind}").json()[kind])
            for kind in ("endpoints", "services", "users", "projects", "roles")
        }

    before = snapshot()
    IdentityAdmin(services.auth_url, services.admin.password).register(
        services.upstream.catalog_plan()
    )
    assert snapshot() == before
    # Existing service users had their (unchanged) passwords set again.
    assert services.session(services.service_users["nova"]).get_token()
