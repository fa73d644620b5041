"""Quotas over HTTP: os-quota-sets, os-quota-class-sets, limits, and
enforcement at server create (with racing requests on every backend)."""

from __future__ import annotations

import concurrent.futures

import pytest
import sqlalchemy as sa

from nova.db import engines
from nova.db.api import models as api_models
from tests.functional.api.conftest import ADMIN, DEMO, fault


def _server(image, **values):
    server = {"name": "q", "flavorRef": "1", "imageRef": image, "networks": "none"}
    return {"server": {**server, **values}}


def _boot(api, image, **values):
    return api.post("/v2.1/servers", _server(image, **values), version="2.96")


def _set(api, project, version="2.1", query="", **limits):
    return api.put(
        f"/v2.1/os-quota-sets/{project}{query}",
        {"quota_set": limits},
        version=version,
        token=ADMIN,
    )


def _mappings(cloud) -> int:
    with engines.transaction(cloud["urls"]["api"]) as session:
        return session.scalar(
            sa.select(sa.func.count()).select_from(api_models.InstanceMapping)
        )


def test_show_defaults_and_fields_per_microversion(api):
    old = api.get("/v2.1/os-quota-sets/demo", version="2.1").json()["quota_set"]
    assert old["id"] == "demo" and old["instances"] == 10 and old["cores"] == 20
    assert old["floating_ips"] == 10 and old["injected_files"] == 5
    new = api.get("/v2.1/os-quota-sets/demo", version="2.57").json()["quota_set"]
    assert "floating_ips" not in new and "injected_files" not in new
    assert new["server_group_members"] == 10
    defaults = api.get("/v2.1/os-quota-sets/demo/defaults").json()["quota_set"]
    assert defaults["ram"] == 51200


def test_admin_updates_user_and_project_limits_and_reverts(api):
    response = _set(api, "demo", instances=5, key_pairs=-1)
    assert response.status_code == 200
    body = response.json()["quota_set"]
    assert body["instances"] == 5 and body["key_pairs"] == -1 and "id" not in body
    assert _set(api, "demo", query="?user_id=demo", instances=3).status_code == 200
    user = api.get("/v2.1/os-quota-sets/demo?user_id=demo").json()["quota_set"]
    assert user["instances"] == 3 and user["cores"] == 20
    # A user may not get more than the project.
    assert fault(_set(api, "demo", query="?user_id=demo", instances=6))[1] == 400
    assert api.delete("/v2.1/os-quota-sets/demo", token=ADMIN).status_code == 202
    shown = api.get("/v2.1/os-quota-sets/demo").json()["quota_set"]
    assert shown["instances"] == 10 and shown["key_pairs"] == 100


@pytest.mark.parametrize(
    "limits, version",
    [
        ({"instances": -2}, "2.1"),
        ({"instances": "ten"}, "2.1"),
        ({"bogus": 1}, "2.1"),
        ({"floating_ips": 1}, "2.36"),
        ({"injected_files": 1}, "2.57"),
    ],
)
def test_bad_updates_are_400(api, limits, version):
    assert fault(_set(api, "demo", version, **limits))[1] == 400


def test_members_read_their_own_quota_only(api):
    assert api.get("/v2.1/os-quota-sets/demo").status_code == 200
    assert fault(api.get("/v2.1/os-quota-sets/other"))[1] == 403
    assert fault(_set_as(api, DEMO, instances=1))[1] == 403
    assert api.get("/v2.1/os-quota-sets/other/defaults").status_code == 200


def _set_as(api, token, **limits):
    return api.put("/v2.1/os-quota-sets/demo", {"quota_set": limits}, token=token)


def test_quota_classes(api):
    shown = api.get("/v2.1/os-quota-class-sets/default", token=ADMIN, version="2.1")
    body = shown.json()["quota_class_set"]
    assert body["id"] == "default" and "server_groups" not in body
    assert "floating_ips" in body
    response = api.put(
        "/v2.1/os-quota-class-sets/default",
        {"quota_class_set": {"instances": 7}},
        token=ADMIN,
        version="2.50",
    )
    body = response.json()["quota_class_set"]
    assert body["instances"] == 7 and "server_groups" in body and "id" not in body
    assert "floating_ips" not in body
    # The default class is what projects without limits of their own get.
    assert api.get("/v2.1/os-quota-sets/demo").json()["quota_set"]["instances"] == 7
    assert fault(api.get("/v2.1/os-quota-class-sets/default"))[1] == 403
    # nova-network's resources are kept as given, for clients that set them.
    api.put(
        "/v2.1/os-quota-class-sets/default",
        {"quota_class_set": {"floating_ips": 110}},
        token=ADMIN,
    )
    shown = api.get("/v2.1/os-quota-class-sets/default", token=ADMIN).json()
    assert shown["quota_class_set"]["floating_ips"] == 110


def test_create_is_refused_over_quota_with_upstreams_message(
    api, nova_conf, glance, flavor, conductor
):
    _set(api, "demo", instances=1)
    assert _boot(api, glance.active).status_code == 202
    response = _boot(api, glance.active)
    assert fault(response) == (
        "forbidden",
        403,
        "Quota exceeded for instances: Requested 1, but already used 1 of 1 instances",
    )
    assert _mappings(nova_conf) == 1
    detail = api.get("/v2.1/os-quota-sets/demo/detail").json()["quota_set"]
    assert detail["instances"] == {"limit": 1, "in_use": 1, "reserved": 0}
    assert detail["cores"]["in_use"] == 1 and detail["ram"]["in_use"] == 512
    # A limit under what is used needs force.
    assert fault(_set(api, "demo", instances=0))[1] == 400
    assert _set(api, "demo", instances=0, force=True).status_code == 200


def test_max_count_builds_as_many_as_fit(api, nova_conf, glance, flavor, conductor):
    _set(api, "demo", cores=3)
    response = _boot(api, glance.active, min_count=2, max_count=5)
    assert response.status_code == 202
    assert _mappings(nova_conf) == 3
    response = _boot(api, glance.active, min_count=1)
    assert fault(response)[2] == (
        "Quota exceeded for cores: Requested 1, but already used 3 of 3 cores"
    )


def test_limits(api, nova_conf, glance, flavor, conductor):
    _boot(api, glance.active)
    old = api.get("/v2.1/limits", version="2.1").json()["limits"]
    assert old["rate"] == []
    absolute = old["absolute"]
    assert absolute["maxTotalInstances"] == 10 and absolute["totalInstancesUsed"] == 1
    assert absolute["totalRAMUsed"] == 512 and absolute["maxImageMeta"] == 128
    assert absolute["maxTotalFloatingIps"] == 10
    new = api.get("/v2.1/limits", version="2.57").json()["limits"]
    assert "rate" not in new and "maxPersonality" not in new["absolute"]
    assert "maxTotalFloatingIps" not in new["absolute"]
    assert fault(api.get("/v2.1/limits?tenant_id=other"))[1] == 403
    others = api.get("/v2.1/limits?tenant_id=other", token=ADMIN).json()
    assert others["limits"]["absolute"]["totalInstancesUsed"] == 0


def test_racing_creates_never_overshoot(api, nova_conf, glance, flavor, conductor):
    """Eight creates at once against a limit of three: at most three stay,
    and every refusal is a clean 403 that leaves nothing behind.

    Like upstream's recheck, racers that all commit before any of them
    counts again may all be refused (each sees the others): the room they
    leave is then taken by the next create, which the test checks too."""
    _set(api, "demo", instances=3)

    def create(_):
        return _boot(api, glance.active).status_code

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(create, range(8)))
    assert set(codes) <= {202, 403}, codes
    accepted = codes.count(202)
    assert accepted <= 3, codes
    assert _mappings(nova_conf) == accepted
    listed = api.get("/v2.1/servers").json()["servers"]
    assert len(listed) == accepted
    # Refused racers took nothing: one at a time, creates fill the limit
    # exactly and the next is refused.
    for _ in range(3 - accepted):
        assert _boot(api, glance.active).status_code == 202
    assert fault(_boot(api, glance.active))[1] == 403
    assert _mappings(nova_conf) == 3


def test_metadata_over_the_limit_is_refused(api, nova_conf, glance, flavor, conductor):
    _set(api, "demo", metadata_items=1)
    response = _boot(api, glance.active, metadata={"a": "1", "b": "2"})
    assert fault(response) == (
        "forbidden",
        403,
        "Maximum number of metadata items exceeds 1",
    )
    assert _mappings(nova_conf) == 0
    assert _boot(api, glance.active, metadata={"a": "1"}).status_code == 202
