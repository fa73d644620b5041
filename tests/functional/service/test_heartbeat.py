"""A service over real RabbitMQ and a real database: its record, heartbeats,
up while it beats, down once silent for service_down_time."""

from __future__ import annotations

import time

import oslo_messaging
import pytest

from nova import baserpc, context, manager, objects, rpc, service, servicegroup
from nova.conf import CONF
from nova.db import engines, migration

pytestmark = [pytest.mark.rabbitmq]
objects.register_all()


class IdleManager(manager.Manager):
    target = oslo_messaging.Target(version="1.0")

    def __init__(self, host):
        super().__init__(host, "idle")


@pytest.fixture
def configured(make_db_url, transport_url):
    database = make_db_url("cell")
    migration.db_sync("main", database)
    CONF.set_override("connection", database, group="database")
    CONF.set_override("transport_url", transport_url)
    CONF.set_override("service_down_time", 2)
    yield
    rpc.cleanup()
    for name in ("transport_url", "service_down_time"):
        CONF.clear_override(name)
    CONF.clear_override("connection", group="database")
    engines.dispose(database)


def test_heartbeats_keep_a_service_up_until_it_stops(configured):
    svc = service.Service(
        "idle-host", "nova-idle", "idle", IdleManager("idle-host"), report_interval=0.5
    )
    svc.start()
    ctxt = context.get_admin_context()

    def record():
        return objects.Service.get_by_host_and_binary(ctxt, "idle-host", "nova-idle")

    try:
        # It answers pings on its topic.
        answer = baserpc.BaseAPI("idle").ping(ctxt, "hello", timeout=10)
        assert answer == {"service": "nova-idle", "arg": "hello"}
        time.sleep(3)  # longer than service_down_time: only beats keep it up
        beating = record()
        assert beating.report_count >= 3
        assert servicegroup.service_is_up(beating)
    finally:
        assert svc.stop(timeout=10)
    stopped_at = time.monotonic()
    while servicegroup.service_is_up(record()):
        assert time.monotonic() - stopped_at < 10, "still up long after it stopped"
        time.sleep(0.2)
    assert record().report_count == svc.service_ref.report_count
