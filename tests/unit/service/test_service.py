"""The service runner, in-process over the fake transport and SQLite."""

import threading

import oslo_messaging
import pytest

from nova import context, exception, manager, objects, rpc, service
from nova.conf import CONF
from nova.db import engines
from nova.db.main import models

objects.register_all()


class RecordingManager(manager.Manager):
    target = oslo_messaging.Target(version="1.0")

    def __init__(self, host):
        super().__init__(host, "recording")
        self.calls = []
        self.release = threading.Event()
        self.started = threading.Event()
        self.finished = threading.Event()
        self.resets = 0

    def init_host(self, service_ref):
        self.calls.append(("init_host", service_ref.host))

    def cleanup_host(self):
        self.calls.append(("cleanup_host",))

    def reset(self):
        self.resets += 1

    def periodic_tasks(self):
        return [
            manager.PeriodicTask(
                "tick", lambda ctx: self.calls.append(("tick",)), 0.05, True
            )
        ]

    def slow(self, context):
        self.started.set()
        self.release.wait(10)
        self.finished.set()
        return "done"


@pytest.fixture
def cell_db(tmp_path):
    url = f"sqlite:///{tmp_path / 'cell.sqlite'}"
    models.BASE.metadata.create_all(engines.get_engine(url))
    CONF.set_override("connection", url, group="database")
    CONF.set_override("transport_url", "fake:///")
    yield url
    rpc.cleanup()
    CONF.clear_override("connection", group="database")
    CONF.clear_override("transport_url")
    engines.dispose(url)


def _start(report_interval=0.05):
    svc = service.Service(
        "host1",
        "nova-recording",
        "recording",
        RecordingManager("host1"),
        report_interval=report_interval,
        periodic_enable=True,
    )
    svc.start()
    return svc


def test_start_records_beats_and_stops(cell_db):
    svc = _start()
    ctxt = context.get_admin_context()
    try:
        record = objects.Service.get_by_host_and_binary(ctxt, "host1", "nova-recording")
        assert record.topic == "recording"
        assert record.version == objects.service.SERVICE_VERSION
        assert svc.manager.calls[0] == ("init_host", "host1")

        def beats():
            return objects.Service.get_by_host_and_binary(
                ctxt, "host1", "nova-recording"
            ).report_count

        first = beats()
        threading.Event().wait(0.3)
        assert beats() > first
        assert ("tick",) in svc.manager.calls
    finally:
        assert svc.stop(timeout=5)
    assert svc.manager.calls[-1] == ("cleanup_host",)
    assert svc.wait(0)


def test_restart_reuses_the_service_record(cell_db):
    first = _start(report_interval=0)
    first.stop(timeout=5)
    second = _start(report_interval=0)
    second.stop(timeout=5)
    assert first.service_ref.id == second.service_ref.id


def test_a_service_older_than_its_peers_does_not_start(cell_db):
    newer = objects.Service(
        context.get_admin_context(),
        host="host2",
        binary="nova-recording",
        topic="recording",
        version=objects.service.SERVICE_VERSION + 1,
    )
    newer.create()
    svc = service.Service(
        "host1", "nova-recording", "recording", RecordingManager("host1")
    )
    with pytest.raises(exception.ServiceTooOld, match="older"):
        svc.start()
    assert svc.manager.calls == []
    # Once the newer service is gone (forced down), it starts.
    newer.forced_down = True
    newer.save()
    svc.start()
    svc.stop(timeout=5)


def test_stop_finishes_requests_in_flight(cell_db):
    svc = _start(report_interval=0)
    ctxt = context.get_admin_context()
    client = oslo_messaging.get_rpc_client(
        rpc.get_transport(),
        oslo_messaging.Target(topic="recording", version="1.0"),
        serializer=rpc.RequestContextSerializer(),
    )
    result = {}
    caller = threading.Thread(
        target=lambda: result.setdefault("value", client.call(ctxt, "slow"))
    )
    caller.start()
    assert svc.manager.started.wait(5)
    stopper = threading.Thread(target=svc.stop, kwargs={"timeout": 10})
    stopper.start()
    threading.Event().wait(0.2)
    assert not svc.manager.finished.is_set()
    svc.manager.release.set()
    stopper.join(10)
    caller.join(10)
    assert svc.manager.finished.is_set()
    assert result == {"value": "done"}


def test_stop_gives_up_after_the_timeout(cell_db):
    svc = _start(report_interval=0)
    ctxt = context.get_admin_context()
    client = oslo_messaging.get_rpc_client(
        rpc.get_transport(),
        oslo_messaging.Target(topic="recording", version="1.0"),
        serializer=rpc.RequestContextSerializer(),
    )
    client.prepare(timeout=5).cast(ctxt, "slow")
    assert svc.manager.started.wait(5)
    assert svc.stop(timeout=0.2) is False
    svc.manager.release.set()


def test_reload_mutates_the_configuration(cell_db, monkeypatch):
    svc = _start(report_interval=0)
    mutated = []
    monkeypatch.setattr(CONF, "mutate_config_files", lambda: mutated.append(True))
    svc.reset()
    svc.stop(timeout=5)
    assert mutated == [True]
    assert svc.manager.resets == 1
