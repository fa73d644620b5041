"""Input a hostile caller sends, class by class (issue 18, "found from
outside"): each is upstream's 400 (or the answer upstream gives) with
Nova's fault body, never a 500, and writes nothing."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa

from nova.db import engines
from nova.db.api import models as api_models
from nova.db.main import models as main_models
from tests.functional.api.conftest import ADMIN, DEMO, fault
from tests.functional.api.test_servers import _in_cell

pytestmark = pytest.mark.parametrize("cloud_databases", ["sqlite"], indirect=True)

# Past int()'s 4300-digit limit, and within it but past any column.
HUGE = "9" * 5000
LONG = "9" * 400


def _send(api, method, path, body=None, token=DEMO, version="2.1"):
    headers = {"Content-Type": "application/json"} if body is not None else {}
    return api.request(
        method,
        path,
        token=token,
        version=version,
        headers=headers,
        data=None if body is None else body.encode("utf-8"),
    )


def _row_counts(cloud) -> dict[str, int]:
    counts = {}
    for name, models in (
        ("api", api_models.BASE.metadata.sorted_tables),
        ("cell1", main_models.BASE.metadata.sorted_tables),
    ):
        with engines.get_engine(cloud["urls"][name]).connect() as conn:
            for table in models:
                counts[f"{name}.{table.name}"] = conn.scalar(
                    sa.select(sa.func.count()).select_from(table)
                )
    return counts


def _assert_bad_request(response, fragment: str) -> None:
    assert response.status_code == 400, response.text
    name, code, message = fault(response)
    assert (name, code) == ("badRequest", 400)
    assert fragment in message, message


@pytest.fixture
def server(nova_conf, flavor):
    return _in_cell(nova_conf, "cell1", metadata={"a": "1"})


NO_SERVER_CASES = [
    # (method, path, body, token, version, fragment of the message)
    ("GET", "/v2.1/os-keypairs?x=%ff", None, DEMO, "2.1", "not valid UTF-8"),
    ("GET", "/v2.1/servers?name=%ff%fe", None, DEMO, "2.1", "not valid UTF-8"),
    ("GET", "/v2.1/flavors?minRam=%ED%A0%80", None, DEMO, "2.1", "not valid UTF-8"),
    ("GET", "/v2.1/servers?name=a%00", None, DEMO, "2.1", "NUL"),
    ("GET", "/v2.1/images?limit=abc", None, DEMO, "2.1", "limit must be an integer"),
    ("GET", f"/v2.1/images?limit={HUGE}", None, DEMO, "2.1", "must be an integer"),
    ("GET", f"/v2.1/flavors?limit={HUGE}", None, DEMO, "2.1", "must be an integer"),
    ("GET", f"/v2.1/servers?limit={HUGE}", None, DEMO, "2.1", "must be an integer"),
    ("GET", f"/v2.1/os-keypairs?limit={HUGE}", None, DEMO, "2.35", "an integer"),
    ("GET", f"/v2.1/os-migrations?limit={HUGE}", None, ADMIN, "2.59", "an integer"),
    ("GET", f"/v2.1/os-server-groups?offset={HUGE}", None, ADMIN, "2.1", "integer"),
    ("GET", f"/v2.1/os-aggregates/{HUGE}", None, ADMIN, "2.1", "id must be an integer"),
    (
        "POST",
        "/v2.1/flavors",
        json.dumps({"flavor": {"name": "f", "ram": HUGE, "vcpus": 1, "disk": 1}}),
        ADMIN,
        "2.1",
        "is greater than the maximum of 2147483647",
    ),
    (
        "POST",
        "/v2.1/flavors",
        json.dumps({"flavor": {"name": "f", "ram": LONG, "vcpus": 1, "disk": 1}}),
        ADMIN,
        "2.1",
        "is greater than the maximum of 2147483647",
    ),
    (
        "POST",
        "/v2.1/flavors",
        '{"flavor": {"name": "f", "ram": 1, "vcpus": 1, "disk": 1, '
        '"rxtx_factor": NaN}}',
        ADMIN,
        "2.1",
        "Malformed message body",
    ),
    (
        "POST",
        "/v2.1/flavors",
        '{"flavor": {"name": "f", "ram": 1, "vcpus": 1, "disk": 1, '
        '"rxtx_factor": 1e41}}',
        ADMIN,
        "2.1",
        "greater than the maximum of 3.40282e+38",
    ),
    (
        "PUT",
        "/v2.1/os-quota-sets/demo",
        json.dumps({"quota_set": {"cores": HUGE}}),
        ADMIN,
        "2.1",
        "greater than the maximum",
    ),
    (
        "POST",
        "/v2.1/flavors/1/os-extra_specs",
        json.dumps({"extra_specs": {"resources:VCPU": "1" + "0" * 300}}),
        ADMIN,
        "2.86",
        "resources:VCPU",
    ),
    (
        "POST",
        "/v2.1/os-aggregates",
        json.dumps({"aggregate": {"name": "a", "availability_zone": "a:b"}}),
        ADMIN,
        "2.1",
        "availability_zone",
    ),
    (
        "POST",
        "/v2.1/os-keypairs",
        json.dumps({"keypair": {"name": "k", "public_key": "not a key"}}),
        DEMO,
        "2.1",
        "Keypair data is invalid",
    ),
    (
        "POST",
        "/v2.1/os-keypairs",
        "[" * 50_000 + "]" * 50_000,
        DEMO,
        "2.1",
        "Malformed message body: cannot understand JSON",
    ),
    (
        # Parses, but would take validation and log masking down 900 levels.
        "POST",
        "/v2.1/os-keypairs",
        '{"keypair": ' + '{"adminPass": ' * 900 + '"x"' + "}" * 901,
        DEMO,
        "2.1",
        "Malformed message body: it nests deeper than 32 levels",
    ),
]


@pytest.mark.parametrize(
    "method, path, body, token, version, fragment",
    NO_SERVER_CASES,
    ids=[f"{c[0]} {c[1][:40]} {(c[2] or '')[:40]}" for c in NO_SERVER_CASES],
)
def test_bad_input_is_a_400_and_writes_nothing(
    api, nova_conf, flavor, method, path, body, token, version, fragment
):
    before = _row_counts(nova_conf)
    _assert_bad_request(_send(api, method, path, body, token, version), fragment)
    assert _row_counts(nova_conf) == before


SERVER_CASES = [
    (
        "/action",
        {"os-getConsoleOutput": {"length": HUGE}},
        "length must be an integer",
    ),
    (
        "/action",
        {"createBackup": {"name": "b", "backup_type": "daily", "rotation": HUGE}},
        "rotation must be an integer",
    ),
    (
        "/action",
        {"rebuild": {"imageRef": "IMAGE", "personality": [{"contents": "YQ=="}]}},
        "Bad personality format: missing 'path'",
    ),
]


@pytest.mark.parametrize("suffix, body, fragment", SERVER_CASES)
def test_bad_server_actions_are_400s(
    api, nova_conf, server, glance, compute_rpc, suffix, body, fragment
):
    text = json.dumps(body).replace("IMAGE", glance.active)
    before = _row_counts(nova_conf)
    response = _send(api, "POST", f"/v2.1/servers/{server.uuid}{suffix}", text)
    _assert_bad_request(response, fragment)
    assert _row_counts(nova_conf) == before


def _create_body(image: str, **extra) -> str:
    server = {"name": "s", "imageRef": image, "flavorRef": "1", **extra}
    return json.dumps({"server": server})


@pytest.mark.parametrize(
    "extra, fragment",
    [
        ({"min_count": "0"}, "0 is less than the minimum of 1"),
        ({"min_count": HUGE}, "min_count must be an integer"),
        ({"max_count": HUGE}, "max_count must be an integer"),
        ({"personality": [{"contents": "YQ=="}]}, "missing 'path'"),
    ],
    ids=["min_count-0", "min_count-huge", "max_count-huge", "personality-no-path"],
)
def test_bad_counts_are_400s_and_build_nothing(
    api, nova_conf, flavor, glance, conductor, extra, fragment
):
    before = _row_counts(nova_conf)
    response = _send(api, "POST", "/v2.1/servers", _create_body(glance.active, **extra))
    _assert_bad_request(response, fragment)
    assert _row_counts(nova_conf) == before
    assert conductor.builds == []


def test_a_security_group_entry_without_a_name_asks_for_nothing(
    api, flavor, glance, conductor
):
    body = _create_body(glance.active, security_groups=[{}, {"name": "web"}])
    response = _send(api, "POST", "/v2.1/servers", body)
    assert response.status_code == 202, response.text
    assert response.json()["server"]["security_groups"] == [{"name": "web"}]
    assert len(conductor.builds) == 1


def test_a_repeated_unknown_query_parameter_is_ignored_below_2_75(api, nova_conf):
    response = _send(api, "GET", "/v2.1/os-keypairs?x=1&x=2", version="2.74")
    assert response.status_code == 200, response.text
    assert response.json() == {"keypairs": []}
    assert (
        _send(api, "GET", "/v2.1/os-keypairs?x=1&x=2", version="2.75").status_code
        == 400
    )


def test_flavor_sizes_take_integer_like_strings_as_upstream(api, nova_conf):
    # Upstream's schema takes "512" for ram; anything else is refused.
    body = {"flavor": {"name": "s", "ram": "512", "vcpus": "2", "disk": "0"}}
    created = _send(api, "POST", "/v2.1/flavors", json.dumps(body), ADMIN)
    assert created.status_code == 200, created.text
    flavor = created.json()["flavor"]
    assert (flavor["ram"], flavor["vcpus"], flavor["disk"]) == (512, 2, 0)
    for field, value in (("ram", "abc"), ("vcpus", "0"), ("disk", "-1")):
        body = {"flavor": {"name": f"x{field}", "ram": 1, "vcpus": 1, "disk": 1}}
        body["flavor"][field] = value
        refused = _send(api, "POST", "/v2.1/flavors", json.dumps(body), ADMIN)
        _assert_bad_request(refused, f"field/attribute {field}")


def test_an_aggregate_id_past_the_column_is_not_found(api, nova_conf):
    response = _send(api, "GET", f"/v2.1/os-aggregates/{LONG}", token=ADMIN)
    assert fault(response)[:2] == ("itemNotFound", 404)
