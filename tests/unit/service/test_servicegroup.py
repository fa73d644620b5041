"""Up or down, from the heartbeat the service row records."""

import datetime

import pytest

from nova import objects, servicegroup
from nova.conf import CONF

objects.register_all()
NOW = datetime.datetime(2030, 1, 1, 12, 0, tzinfo=datetime.UTC)


def _service(**values):
    return objects.Service(forced_down=False, **values)


@pytest.mark.parametrize(
    ("seconds_ago", "up"), [(0, True), (59, True), (61, False), (-30, True)]
)
def test_last_seen_up_within_service_down_time(seconds_ago, up):
    CONF.set_override("service_down_time", 60)
    try:
        service = _service(last_seen_up=NOW - datetime.timedelta(seconds=seconds_ago))
        assert servicegroup.service_is_up(service, now=NOW) is up
    finally:
        CONF.clear_override("service_down_time")


def test_forced_down_wins():
    service = _service(last_seen_up=NOW)
    service.forced_down = True
    assert not servicegroup.service_is_up(service, now=NOW)


def test_older_timestamps_stand_in_for_last_seen_up():
    assert servicegroup.service_is_up(_service(updated_at=NOW), now=NOW)
    assert servicegroup.service_is_up(_service(created_at=NOW), now=NOW)
    assert not servicegroup.service_is_up(_service(), now=NOW)


def test_naive_timestamps_are_utc():
    service = _service(last_seen_up=NOW.replace(tzinfo=None))
    assert servicegroup.last_heartbeat(service) == NOW
