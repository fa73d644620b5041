"""Strings no database column can hold (a lone UTF-16 surrogate, NUL) are
a 400 on every backend, before anything is written: on MariaDB and
PostgreSQL they used to fail at the insert as a 500."""

from __future__ import annotations

import pytest

from nova import context as nova_context
from nova import objects
from tests.functional.api.conftest import ADMIN, DEMO, fault
from tests.functional.api.test_hostile_input import _row_counts, _send
from tests.functional.api.test_servers import _in_cell

SURROGATE = '"\\ud800"'
NUL = '"a\\u0000b"'


@pytest.fixture
def server(nova_conf, flavor):
    return _in_cell(nova_conf, "cell1", metadata={"a": "1"})


@pytest.fixture
def aggregate(nova_conf):
    context = nova_context.get_admin_context()
    created = objects.Aggregate(context, name="agg-unstorable")
    created.create()
    return created


def _cases(server_id: str, aggregate_id: int, text: str):
    base = f"/v2.1/servers/{server_id}"
    return [
        ("POST", f"{base}/metadata", f'{{"metadata": {{"k": {text}}}}}', DEMO, "2.1"),
        ("PUT", f"{base}/metadata/k", f'{{"meta": {{"k": {text}}}}}', DEMO, "2.1"),
        ("PUT", f"{base}/tags", f'{{"tags": [{text}]}}', DEMO, "2.26"),
        ("PUT", base, f'{{"server": {{"name": {text}}}}}', DEMO, "2.1"),
        ("POST", f"{base}/action", f'{{"lock": {{"locked_reason": {text}}}}}',
         DEMO, "2.73"),
        ("POST", "/v2.1/flavors/1/os-extra_specs",
         f'{{"extra_specs": {{"hw:cpu_policy": {text}}}}}', ADMIN, "2.1"),
        ("PUT", "/v2.1/flavors/1/os-extra_specs/k", f'{{"k": {text}}}', ADMIN, "2.1"),
        ("POST", f"/v2.1/os-aggregates/{aggregate_id}/action",
         f'{{"set_metadata": {{"metadata": {{"k": {text}}}}}}}', ADMIN, "2.1"),
        ("POST", "/v2.1/os-keypairs",
         f'{{"keypair": {{"name": "k", "public_key": {text}}}}}', DEMO, "2.1"),
    ]  # fmt: skip


@pytest.mark.parametrize(
    "text, reason",
    [(SURROGATE, "lone UTF-16 surrogate"), (NUL, "NUL character")],
    ids=["surrogate", "nul"],
)
def test_unstorable_strings_are_400_and_write_nothing(
    api, nova_conf, server, aggregate, text, reason
):
    before = _row_counts(nova_conf)
    for method, path, body, token, version in _cases(server.uuid, aggregate.id, text):
        response = _send(api, method, path, body, token, version)
        assert response.status_code == 400, (path, body, response.text)
        assert fault(response) == (
            "badRequest",
            400,
            f"Malformed message body: a string holds a {reason}",
        )
    assert _row_counts(nova_conf) == before


def test_a_nul_in_a_path_parameter_matches_no_route(api, nova_conf, server):
    # PostgreSQL refuses NUL in any query: these were 500s there.
    for path in (
        "/v2.1/servers/a%00b",
        f"/v2.1/servers/{server.uuid}/metadata/a%00b",
        "/v2.1/os-keypairs/a%00b",
        "/v2.1/flavors/a%00b",
        "/v2.1/flavors/a%00b/os-flavor-access",
        "/v2.1/os-server-groups/a%00b",
        "/v2.1/os-quota-sets/a%00b",
    ):
        for method in ("GET", "DELETE"):
            response = _send(api, method, path, token=ADMIN)
            assert fault(response) == (
                "itemNotFound",
                404,
                "The resource could not be found.",
            ), (method, path, response.text)


def test_ids_from_the_url_longer_than_their_column_are_400(api, nova_conf):
    # MariaDB refuses a 300-character project id or class name: a 500 there.
    long_id = "a" * 300
    before = _row_counts(nova_conf)
    for path, body, name in (
        (f"/v2.1/os-quota-sets/{long_id}", '{"quota_set": {"cores": 1}}', "project_id"),
        (
            f"/v2.1/os-quota-sets/demo?user_id={long_id}",
            '{"quota_set": {"cores": 1}}',
            "user_id",
        ),
        (
            f"/v2.1/os-quota-class-sets/{long_id}",
            '{"quota_class_set": {"cores": 1}}',
            "quota_class_name",
        ),
    ):
        response = _send(api, "PUT", path, body, token=ADMIN)
        assert fault(response) == (
            "badRequest",
            400,
            f"{name} has more than 255 characters.",
        ), response.text
    assert _row_counts(nova_conf) == before
