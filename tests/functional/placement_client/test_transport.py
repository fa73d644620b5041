"""Headers, timeouts, failures and configuration against a real Placement."""

import socket
import time
import uuid
from collections.abc import Iterator

import pytest
from oslo_config import cfg

import placement_client
from placement_client import exception
from tests.fixtures.placement import NOAUTH_TOKEN, make_client
from tests.fixtures.secrets import secret

SECRET = secret("s3cret-never-shown")


class Context:
    def __init__(self, global_id: str) -> None:
        self.global_id = global_id


@pytest.fixture
def closed_port() -> int:
    """A loopback port nothing listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A loopback port that accepts connections and never answers."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(8)
        yield sock.getsockname()[1]


def _headers_of(lines: list[str], request: str) -> str:
    (line,) = [line for line in lines if f'"{request} HTTP/1.1"' in line]
    return line


def test_each_call_sends_the_microversion_it_needs(
    placement_client, placement_server, make_provider, aggregate
):
    seen = len(placement_server.access_log())
    rp_uuid = make_provider({"VCPU": 4})
    consumer, target = str(uuid.uuid4()), str(uuid.uuid4())
    placement_client.get_allocation_candidates({"VCPU": 1}, member_of=[aggregate])
    placement_client.claim_resources(
        consumer, {"allocations": {rp_uuid: {"resources": {"VCPU": 1}}}}, "p", "u"
    )
    placement_client.move_allocations(consumer, target)
    placement_client.get_usages("p")

    lines = placement_server.access_log()[seen:]

    expected = {
        "POST /resource_providers": "1.23",
        f"PUT /resource_providers/{rp_uuid}/inventories": "1.26",
        f"PUT /resource_providers/{rp_uuid}/aggregates": "1.23",
        f"GET /allocation_candidates?resources=VCPU%3A1&member_of={aggregate}": "1.39",
        f"PUT /allocations/{consumer}": "1.28",
        "POST /allocations": "1.28",
        "GET /usages?project_id=p": "1.9",
    }
    for request, version in expected.items():
        assert f'version="placement {version}"' in _headers_of(lines, request)


def test_global_request_id_is_sent(placement_client, placement_server):
    global_id = f"req-{uuid.uuid4()}"
    rp_uuid = str(uuid.uuid4())
    seen = len(placement_server.access_log())

    with pytest.raises(exception.ResourceProviderNotFound):
        placement_client.get_provider(rp_uuid, context=Context(global_id))
    placement_client.delete_provider(rp_uuid)

    lines = placement_server.access_log()[seen:]
    get_line = _headers_of(lines, f"GET /resource_providers/{rp_uuid}")
    assert f'request_id="{global_id}"' in get_line
    delete_line = _headers_of(lines, f"DELETE /resource_providers/{rp_uuid}")
    assert 'request_id="-"' in delete_line


def test_api_error_carries_status_code_and_detail(placement_client):
    with pytest.raises(exception.PlacementAPIError) as raised:
        placement_client.get_allocation_candidates({"NO_SUCH_CLASS": 1})

    error = raised.value
    assert error.status == 400
    assert error.code == "placement.undefined_code"
    assert "NO_SUCH_CLASS" in error.detail
    assert "NO_SUCH_CLASS" in error.body
    assert error.request_id.startswith("req-")
    assert "GET /allocation_candidates returned 400" in str(error)
    assert NOAUTH_TOKEN not in str(error)


def test_connection_refused_is_unavailable(closed_port):
    client = make_client(f"http://127.0.0.1:{closed_port}", timeout=2)

    with pytest.raises(exception.PlacementUnavailable) as raised:
        client.get_provider(str(uuid.uuid4()))
    assert "ConnectFailure" in str(raised.value)


def test_silent_server_times_out(silent_port):
    client = make_client(f"http://127.0.0.1:{silent_port}", timeout=0.5)

    started = time.monotonic()
    with pytest.raises(exception.PlacementUnavailable) as raised:
        client.get_allocation_candidates({"VCPU": 1})
    elapsed = time.monotonic() - started

    assert 0.4 < elapsed < 3
    assert "timed out" in str(raised.value)


def _conf(tmp_path, text: str) -> cfg.ConfigOpts:
    path = tmp_path / "nova.conf"
    path.write_text(text)
    conf = cfg.ConfigOpts()
    conf(["--config-file", str(path)], project="nova", default_config_files=[])
    return conf


def test_from_conf_with_token_and_endpoint_override(tmp_path, placement_endpoint):
    conf = _conf(
        tmp_path,
        f"""
[placement]
auth_type = admin_token
token = {NOAUTH_TOKEN}
endpoint_override = {placement_endpoint}
timeout = 7
""",
    )

    client = placement_client.from_conf(conf)

    assert client._transport.timeout == 7
    rp = client.create_provider(f"conf-{uuid.uuid4()}")
    assert client.get_provider(rp.uuid) == rp


def _password_conf(tmp_path, keystone_port: int, extra: str = "") -> cfg.ConfigOpts:
    return _conf(
        tmp_path,
        f"""
[placement]
auth_type = password
auth_url = http://127.0.0.1:{keystone_port}/v3
username = placement
password = {SECRET}
project_name = service
user_domain_name = Default
project_domain_name = Default
{extra}
""",
    )


def test_from_conf_password_with_keystone_down(tmp_path, closed_port):
    conf = _password_conf(tmp_path, closed_port, "valid_interfaces = internal")
    client = placement_client.from_conf(conf)

    with pytest.raises(exception.PlacementUnavailable) as raised:
        client.get_provider(str(uuid.uuid4()))
    assert "ConnectFailure" in str(raised.value)
    assert SECRET not in str(raised.value)
    assert client._transport.adapter.interface == ["internal"]


def test_from_conf_defaults(tmp_path, closed_port):
    client = placement_client.from_conf(_password_conf(tmp_path, closed_port))

    adapter = client._transport.adapter
    assert adapter.service_type == "placement"
    assert adapter.interface == ["internal", "public"]
    assert client._transport.timeout == 30
