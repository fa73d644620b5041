"""RPC runtime: context serialization, version caps, per-URL transports and
cell targeting, over oslo.messaging's in-process fake driver."""

import oslo_messaging
import pytest

from nova import context, exception, objects, rpc
from nova.conf import CONF
from nova.objects import base

objects.register_all()


@pytest.fixture
def fake_transport():
    CONF.set_override("transport_url", "fake:///")
    yield
    rpc.cleanup()
    CONF.clear_override("transport_url")


def test_context_round_trips():
    original = context.RequestContext(
        user_id="u",
        project_id="p",
        roles=["member", "reader"],
        request_id="req-00000000-0000-0000-0000-000000000001",
        global_request_id="req-00000000-0000-0000-0000-000000000002",
        overwrite=False,
    )
    original.transport_url = "rabbit://cell1"
    serializer = rpc.RequestContextSerializer()
    copy = serializer.deserialize_context(serializer.serialize_context(original))
    assert (copy.user_id, copy.project_id) == ("u", "p")
    assert copy.roles == ["member", "reader"]
    assert copy.request_id == original.request_id
    assert copy.global_request_id == original.global_request_id
    assert copy.timestamp == original.timestamp
    # Where a context is targeted does not travel.
    assert copy.transport_url is None


def test_objects_cross_with_their_version():
    ctxt = context.get_admin_context()
    serializer = rpc.RequestContextSerializer()
    fault = objects.InstanceFault(
        instance_uuid="11111111-2222-3333-4444-555555555555", code=500, message="x"
    )
    primitive = serializer.serialize_entity(ctxt, {"faults": [fault]})
    assert primitive["faults"][0]["nova_object.version"] == fault.VERSION
    back = serializer.deserialize_entity(ctxt, primitive)["faults"][0]
    assert isinstance(back, objects.InstanceFault)
    assert back.message == "x"
    assert back._context is ctxt


def test_transports_are_cached_per_url(fake_transport):
    default = rpc.get_transport()
    assert rpc.get_transport() is default
    assert rpc.get_transport("fake:///cell1") is not default


def test_a_cell_on_the_services_own_queue_shares_its_transport(fake_transport):
    # The all-in-one maps cell1 to the same in-memory queue: one broker.
    assert rpc.get_transport("fake:///") is rpc.get_transport()


def test_invalid_transport_url_is_reported_masked():
    with pytest.raises(exception.InvalidTransportURL) as error:
        rpc.get_transport("nosuchdriver://user:secret@host/")
    assert "secret" not in str(error.value)
    rpc.cleanup()


class _Echo:
    target = oslo_messaging.Target(version="1.1")

    def __init__(self, name):
        self.name = name

    def echo(self, context, value):
        return {
            "server": self.name,
            "value": value,
            "user": context.user_id,
            "request_id": context.request_id,
        }

    def fail(self, context):
        raise exception.InstanceNotFound(instance_id="abc")


class _EchoAPI(rpc.RPCAPI):
    TOPIC = "echo"
    VERSION = "1.1"
    UPGRADE_LEVEL = "compute"

    def echo(self, ctxt, value, version="1.0"):
        return self.prepare(ctxt, version=version, timeout=5).call(
            ctxt, "echo", value=value
        )


def _serve(url, name):
    server = rpc.get_server(
        oslo_messaging.Target(topic="echo", server=name),
        [_Echo(name)],
        transport=rpc.get_transport(url),
    )
    server.start()
    return server


def test_targeted_contexts_use_their_cells_transport(fake_transport):
    # (The fake driver shares its queues between URLs; the functional RPC
    # tests show the routing over two RabbitMQ vhosts.)
    ctxt = context.RequestContext(user_id="u", project_id="p", overwrite=False)
    api = _EchoAPI()
    cell = objects.CellMapping(
        uuid="6d4c2f2e-3c0b-4c6b-9b7e-1f0a2b3c4d5e",
        transport_url="fake:///cell1",
        database_connection="sqlite://",
    )
    with context.target_cell(ctxt, cell) as cctxt:
        assert cctxt.transport_url == "fake:///cell1"
        assert api.prepare(cctxt).transport is rpc.get_transport("fake:///cell1")
    assert api.prepare(ctxt).transport is rpc.get_transport()


def test_calls_carry_the_context(fake_transport):
    server = _serve(None, "h")
    try:
        ctxt = context.RequestContext(user_id="u", project_id="p", overwrite=False)
        assert _EchoAPI().echo(ctxt, 1) == {
            "server": "h",
            "value": 1,
            "user": "u",
            "request_id": ctxt.request_id,
        }
    finally:
        server.stop()
        server.wait()


def test_version_cap_refuses_newer_calls(fake_transport):
    server = _serve(None, "h")
    CONF.set_override("compute", "1.0", group="upgrade_levels")
    try:
        api = _EchoAPI()
        ctxt = context.get_admin_context()
        assert api.can_send_version("1.0") and not api.can_send_version("1.1")
        assert api.echo(ctxt, "old", version="1.0")["value"] == "old"
        with pytest.raises(exception.RPCPinnedToOldVersion):
            api.echo(ctxt, "new", version="1.1")
    finally:
        CONF.clear_override("compute", group="upgrade_levels")
        server.stop()
        server.wait()


def test_nova_exceptions_cross_as_themselves(fake_transport):
    server = _serve(None, "h")
    try:
        ctxt = context.get_admin_context()
        client = _EchoAPI().prepare(ctxt, timeout=5)
        with pytest.raises(exception.InstanceNotFound, match="abc could not be found"):
            client.call(ctxt, "fail")
    finally:
        server.stop()
        server.wait()


def test_object_serializer_is_novas():
    assert rpc.RequestContextSerializer()._base.OBJ_BASE_CLASS is base.NovaObject


def test_bounded_sends_fail_fast_when_the_broker_is_down():
    # A real rabbit transport to a port nothing listens on: nova-api's
    # clients give up (an error the API answers with 503) instead of hanging.
    import socket

    from nova.api.openstack import faults

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    CONF.set_override("transport_url", f"rabbit://guest:guest@127.0.0.1:{port}/")
    rpc.bound_sends(0)
    try:
        ctxt = context.get_admin_context()
        with pytest.raises(Exception) as caught:
            _EchoAPI().prepare(ctxt).cast(ctxt, "echo", value=1)
        assert faults.unavailable_service(caught.value) == "message queue"
    finally:
        rpc.bound_sends(None)
        rpc.cleanup()
        CONF.clear_override("transport_url")
