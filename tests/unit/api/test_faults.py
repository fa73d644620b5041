"""Exceptions become Nova fault bodies, in one place."""

import json

import kombu.exceptions
import oslo_messaging
import pymysql
import pytest
import sqlalchemy as sa
import webob
import webob.exc

from nova import exception
from nova.api.openstack import api_version_request, faults
from tests.unit.api.conftest import make_request


@pytest.mark.parametrize(
    "error, code, name",
    [
        (exception.ValidationError(detail="bad"), 400, "badRequest"),
        (exception.NotAuthenticated(), 401, "unauthorized"),
        (exception.PolicyNotAuthorized(action="x"), 403, "forbidden"),
        (exception.InstanceNotFound(instance_id="x"), 404, "itemNotFound"),
        (exception.MethodNotAllowed(method="PATCH"), 405, "badMethod"),
        (exception.FlavorExists(name="x"), 409, "conflictingRequest"),
        (exception.InvalidGlobalAPIVersion(req_ver="3.0", min_ver="2.1",
                                           max_ver="2.103"), 406, "computeFault"),
        (exception.ImageServiceUnavailable(reason="down"), 503, "serviceUnavailable"),
        (webob.exc.HTTPNotFound(explanation="gone"), 404, "itemNotFound"),
    ],
)  # fmt: skip
def test_fault_name_and_code_follow_the_status(error, code, name):
    response = faults.fault_response(make_request(), error)
    assert response.status_int == code
    body = json.loads(response.body)
    assert list(body) == [name]
    assert body[name]["code"] == code
    assert body[name]["message"]


def test_unexpected_errors_are_500s_without_traceback():
    response = faults.fault_response(make_request(), KeyError("secret detail"))
    assert response.status_int == 500
    message = json.loads(response.body)["computeFault"]["message"]
    assert "KeyError" in message
    assert "secret detail" not in message and "Traceback" not in message


def test_faults_echo_the_negotiated_version():
    response = faults.fault_response(
        make_request(version="2.53"), exception.InstanceNotFound(instance_id="x")
    )
    assert response.headers[api_version_request.HEADER] == "compute 2.53"
    assert response.headers[api_version_request.LEGACY_HEADER] == "2.53"
    assert "Vary" in response.headers


def test_method_not_allowed_lists_the_allowed_methods():
    error = exception.MethodNotAllowed(method="PATCH", allowed=["GET", "PUT"])
    response = faults.fault_response(make_request(), error)
    assert response.headers["Allow"] == "GET, PUT"


def test_fault_wrapper_catches_what_escapes():
    def broken(environ, start_response):
        raise RuntimeError("boom")

    response = webob.Request.blank("/v2.1/servers").get_response(
        faults.FaultWrapper(broken)
    )
    assert response.status_int == 500
    assert "computeFault" in json.loads(response.body)


@pytest.mark.parametrize(
    "error, service",
    [
        (oslo_messaging.MessageDeliveryFailure("broker down"), "message queue"),
        (oslo_messaging.MessagingTimeout("no reply"), "message queue"),
        (kombu.exceptions.OperationalError("refused"), "message queue"),
        (
            sa.exc.OperationalError(
                "SELECT 1", {}, pymysql.err.OperationalError(2003, "refused")
            ),
            "database",
        ),
    ],
)
def test_a_backing_service_down_is_a_503_with_retry_after(error, service):
    response = faults.fault_response(make_request(), error)
    assert response.status_int == 503
    assert response.headers["Retry-After"] == str(faults.RETRY_AFTER_SECONDS)
    message = json.loads(response.body)["serviceUnavailable"]["message"]
    assert service in message and "retry" in message


def test_a_statement_the_database_refused_stays_a_500():
    error = sa.exc.OperationalError(
        "SELECT 1", {}, pymysql.err.OperationalError(1205, "lock wait")
    )
    assert faults.fault_response(make_request(), error).status_int == 500
