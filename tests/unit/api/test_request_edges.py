"""What both APIs answer before any handler runs: oversized bodies (413),
undecodable paths, absurd microversions, /healthcheck and request ids."""

from __future__ import annotations

import io
import json
import logging

import pytest
import webob
import webob.dec

from nova.api import guards
from nova.api.metadata import wsgi_app as metadata_wsgi_app
from nova.api.openstack.compute import wsgi_app
from nova.conf import CONF

LIMIT = 114688  # upstream's default [oslo_middleware] max_request_body_size


@pytest.fixture
def compute_app():
    CONF.set_override("auth_strategy", "noauth2", group="api")
    yield wsgi_app.build_app(CONF)
    CONF.clear_override("auth_strategy", group="api")


@pytest.fixture
def metadata_app():
    return metadata_wsgi_app.build_app(CONF)


def _chunked(path: str, body: bytes, **kwargs) -> webob.Request:
    """A request whose body has no Content-Length (Transfer-Encoding:
    chunked, as the WSGI server hands it on)."""
    req = webob.Request.blank(path, method="POST", **kwargs)
    req.environ["wsgi.input"] = io.BytesIO(body)
    req.environ["wsgi.input_terminated"] = True
    req.environ.pop("CONTENT_LENGTH", None)
    return req


def test_a_body_over_the_limit_is_refused_unread_with_novas_fault(compute_app, caplog):
    body = json.dumps({"server": {"name": "x" * (20 * 1024 * 1024)}}).encode()
    stream = io.BytesIO(body)
    req = webob.Request.blank(
        "/v2.1/servers",
        method="POST",
        headers={"X-Auth-Token": "demo:demo", "Content-Type": "application/json"},
    )
    req.environ["wsgi.input"] = stream
    req.content_length = len(body)
    with caplog.at_level(logging.DEBUG):
        response = req.get_response(compute_app)
    assert response.status_int == 413
    assert response.json == {
        "overLimit": {
            "code": 413,
            "message": f"Request is too large. Larger than {LIMIT} bytes.",
        }
    }
    assert stream.tell() == 0  # not a byte of it was read
    assert max(len(r.getMessage()) for r in caplog.records) < 2000
    assert response.headers["x-openstack-request-id"].startswith("req-")


def test_a_body_at_the_limit_passes(compute_app):
    body = b" " * LIMIT  # valid JSON whitespace... and nothing else: a 400
    req = webob.Request.blank(
        "/v2.1/os-keypairs",
        method="POST",
        body=body,
        headers={"X-Auth-Token": "demo:demo", "Content-Type": "application/json"},
    )
    assert req.get_response(compute_app).status_int == 400


def test_a_chunked_body_is_cut_off_at_the_limit(compute_app):
    body = json.dumps({"keypair": {"name": "k" * (2 * LIMIT)}}).encode()
    req = _chunked("/v2.1/os-keypairs", body, headers={"X-Auth-Token": "demo:demo"})
    response = req.get_response(compute_app)
    assert response.status_int == 413
    assert response.json["overLimit"]["code"] == 413


def test_the_limit_is_oslo_middlewares_option(compute_app):
    CONF.set_override("max_request_body_size", 10, group="oslo_middleware")
    try:
        req = webob.Request.blank(
            "/v2.1/os-keypairs",
            method="POST",
            body=b'{"keypair": {}}',
            headers={"X-Auth-Token": "demo:demo"},
        )
        assert req.get_response(compute_app).status_int == 413
    finally:
        CONF.clear_override("max_request_body_size", group="oslo_middleware")


def test_the_metadata_api_limits_bodies_too(metadata_app):
    req = webob.Request.blank(
        "/openstack/latest/password", method="POST", body=b"p" * (LIMIT + 1)
    )
    response = req.get_response(metadata_app)
    assert response.status_int == 413
    assert len(response.body) < 1000


def test_a_chunked_body_read_past_the_limit_is_a_413_in_the_apis_own_format():
    @webob.dec.wsgify
    def reader(req):
        return webob.Response(body=b"read %d" % len(req.body))

    app = guards.RequestGuard(reader, CONF)
    small = _chunked("/", b"x" * LIMIT).get_response(app)
    assert small.body == b"read %d" % LIMIT
    response = _chunked("/", b"x" * (LIMIT + 1)).get_response(app)
    assert response.status_int == 413
    assert b"Request is too large" in response.body


@pytest.mark.parametrize("path", ["/%ff", "/v2.1/%ff", "/v2.1/servers/%c3%28"])
def test_a_path_that_is_not_utf8_is_a_404(compute_app, path, caplog):
    req = webob.Request.blank(path, headers={"X-Auth-Token": "demo:demo"})
    with caplog.at_level(logging.INFO):
        response = req.get_response(compute_app)
    assert response.status_int == 404
    assert response.json["itemNotFound"]["code"] == 404
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_the_metadata_api_answers_an_undecodable_path_with_a_404(metadata_app):
    assert webob.Request.blank("/%ff").get_response(metadata_app).status_int == 404


@pytest.mark.parametrize(
    "header", ["OpenStack-API-Version", "X-OpenStack-Nova-API-Version"]
)
def test_a_version_of_thousands_of_digits_is_a_400(compute_app, header):
    digits = "9" * 5000
    value = (
        f"compute 2.{digits}" if header == "OpenStack-API-Version" else f"2.{digits}"
    )
    req = webob.Request.blank(
        "/v2.1/flavors", headers={"X-Auth-Token": "demo:demo", header: value}
    )
    response = req.get_response(compute_app)
    assert response.status_int == 400
    message = response.json["badRequest"]["message"]
    assert message.startswith("API Version String 2.999")
    assert message.endswith(
        "is of invalid format. Must be of format MajorNum.MinorNum."
    )


@pytest.mark.parametrize("app_fixture", ["compute_app", "metadata_app"])
def test_healthcheck_answers_without_a_token(request, app_fixture):
    app = request.getfixturevalue(app_fixture)
    response = webob.Request.blank("/healthcheck").get_response(app)
    assert response.status_int == 200
    assert response.content_type == "text/plain"
    assert response.headers["x-openstack-request-id"].startswith("req-")
    head = webob.Request.blank("/healthcheck", method="HEAD").get_response(app)
    assert head.status_int == 204


def test_healthcheck_reports_a_disabled_api(compute_app, tmp_path):
    flag = tmp_path / "healthcheck_disable"
    CONF.set_override("backends", ["disable_by_file"], group="healthcheck")
    try:
        app = wsgi_app.build_app(CONF)
        CONF.set_override("disable_by_file_path", str(flag), group="healthcheck")
        assert webob.Request.blank("/healthcheck").get_response(app).status_int == 200
        flag.touch()
        response = webob.Request.blank("/healthcheck").get_response(app)
        assert response.status_int == 503
        assert b"DISABLED BY FILE" in response.body
    finally:
        CONF.clear_override("backends", group="healthcheck")
        CONF.clear_override("disable_by_file_path", group="healthcheck")


def test_healthcheck_from_outside_the_allowed_sources_is_just_a_path(compute_app):
    CONF.set_override("allowed_source_ranges", ["10.0.0.0/8"], group="healthcheck")
    try:
        app = wsgi_app.build_app(CONF)
        req = webob.Request.blank("/healthcheck", remote_addr="192.0.2.1")
        assert req.get_response(app).status_int == 401  # no token: not public
    finally:
        CONF.clear_override("allowed_source_ranges", group="healthcheck")


@pytest.mark.parametrize("app_fixture", ["compute_app", "metadata_app"])
def test_every_response_carries_a_request_id(request, app_fixture):
    app = request.getfixturevalue(app_fixture)
    response = webob.Request.blank("/no/such/thing").get_response(app)
    assert response.status_int >= 400
    assert response.headers["x-openstack-request-id"].startswith("req-")


def test_the_compute_api_sends_the_legacy_request_id_header_too(compute_app):
    response = webob.Request.blank("/v2.1").get_response(compute_app)
    request_id = response.headers["x-openstack-request-id"]
    assert response.headers["x-compute-request-id"] == request_id


def test_the_metadata_api_logs_a_forged_instance_id_cut_short(metadata_app, caplog):
    CONF.set_override("service_metadata_proxy", True, group="neutron")
    try:
        req = webob.Request.blank(
            "/openstack/latest/meta_data.json",
            headers={
                "X-Instance-ID": "i" * 15000,
                "X-Tenant-ID": "p",
                "X-Instance-ID-Signature": "forged",
            },
        )
        with caplog.at_level(logging.DEBUG):
            assert req.get_response(metadata_app).status_int == 403
    finally:
        CONF.clear_override("service_metadata_proxy", group="neutron")
    assert "does not match" in caplog.text
    assert max(len(record.getMessage()) for record in caplog.records) < 500
