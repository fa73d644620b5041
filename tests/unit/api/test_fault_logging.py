"""A refused request's log line names the field, never a secret's value,
and never repeats a huge value whole."""

from __future__ import annotations

import json
import logging

import pytest
import webob

from nova.api.openstack.compute import wsgi_app
from nova.conf import CONF
from tests.fixtures.secrets import secret

SERVER = "/v2.1/servers/8d8cc6a5-4a6b-4a0e-9d39-2cbd3b1c3f0e/action"
IMAGE = "155d900f-4e14-4e4c-a73d-069cbf4541e6"
SECRET = secret("Zq8-never-in-a-log-42")


@pytest.fixture
def compute_app():
    CONF.set_override("auth_strategy", "noauth2", group="api")
    yield wsgi_app.build_app(CONF)
    CONF.clear_override("auth_strategy", group="api")


def _post(app, path: str, body) -> webob.Response:
    req = webob.Request.blank(
        path,
        method="POST",
        body=json.dumps(body).encode(),
        headers={"X-Auth-Token": "demo:demo", "Content-Type": "application/json"},
    )
    return req.get_response(app)


def _logged(caplog) -> str:
    return "\n".join(record.getMessage() for record in caplog.records)


# adminPass values each schema refuses: not a string, or a string inside
# something that is not one.
@pytest.mark.parametrize(
    "path, body",
    [
        (SERVER, {"changePassword": {"adminPass": [SECRET]}}),
        (SERVER, {"changePassword": {"adminPass": {"nested": SECRET}}}),
        (SERVER, {"rescue": {"adminPass": [SECRET]}}),
        (SERVER, {"rebuild": {"imageRef": IMAGE, "adminPass": [SECRET]}}),
        ("/v2.1/servers",
         {"server": {"name": "s", "imageRef": IMAGE, "flavorRef": "1",
                     "adminPass": [SECRET]}}),
    ],
)  # fmt: skip
def test_a_refused_secret_is_not_logged_but_its_field_is(
    compute_app, caplog, path, body
):
    with caplog.at_level(logging.DEBUG):
        response = _post(compute_app, path, body)
    assert response.status_int == 400, response.body
    logged = _logged(caplog)
    assert "adminPass" in logged
    assert SECRET not in logged


def test_a_refused_numeric_secret_is_masked_too(compute_app, caplog):
    with caplog.at_level(logging.DEBUG):
        response = _post(
            compute_app, SERVER, {"changePassword": {"adminPass": 31415926}}
        )
    assert response.status_int == 400
    assert "31415926" not in _logged(caplog)


def test_a_huge_refused_value_is_cut_short_in_the_log(compute_app, caplog):
    name = "n" * 100_000
    with caplog.at_level(logging.DEBUG):
        response = _post(compute_app, "/v2.1/os-keypairs", {"keypair": {"name": name}})
    assert response.status_int == 400
    assert name not in _logged(caplog)
    assert max(len(record.getMessage()) for record in caplog.records) < 1000
