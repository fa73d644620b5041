"""nova.rpc.RPCServer counts the requests it handles: after stop() a
service waits for exactly those, not for idle worker threads."""

import threading

import oslo_messaging

from nova import context, rpc
from nova.conf import CONF


class _Gate:
    target = oslo_messaging.Target(version="1.0")

    def __init__(self):
        self.entered = threading.Event()
        self.release = threading.Event()

    def hold(self, ctxt):
        self.entered.set()
        self.release.wait(10)
        return "done"


def test_wait_for_requests_waits_for_the_one_in_flight():
    CONF.set_override("transport_url", "fake:///")
    gate = _Gate()
    server = rpc.get_server(oslo_messaging.Target(topic="gate", server="h"), [gate])
    server.start()
    try:
        assert server.wait_for_requests(0)  # nothing received yet
        client = oslo_messaging.get_rpc_client(
            rpc.get_transport(),
            oslo_messaging.Target(topic="gate", server="h", version="1.0"),
            serializer=rpc.RequestContextSerializer(),
        )
        answers = []
        caller = threading.Thread(
            target=lambda: answers.append(
                client.prepare(timeout=10).call(context.get_admin_context(), "hold")
            )
        )
        caller.start()
        assert gate.entered.wait(10)
        server.stop()
        assert not server.wait_for_requests(0.2)  # still held
        gate.release.set()
        assert server.wait_for_requests(5)
        caller.join(10)
        assert answers == ["done"]  # answered, not cut short
    finally:
        gate.release.set()
        server.stop()
        server.wait()
        rpc.cleanup()
        CONF.clear_override("transport_url")
