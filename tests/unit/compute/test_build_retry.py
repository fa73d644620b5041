"""Build attempts: recorded per host, bounded by max_attempts, and named in
the fault of a build that ran out of hosts."""

from nova import exception
from nova.compute import build_retry
from nova.conf import CONF


def test_attempts_are_recorded_and_bounded():
    properties: dict = {}
    retry = build_retry.record_attempt(properties, "h1", "n1", "disk on fire")
    assert retry == {"num_attempts": 1, "hosts": [["h1", "n1"]], "exc_reasons": [
        "disk on fire"]}  # fmt: skip
    CONF.set_override("max_attempts", 2, group="scheduler")
    try:
        assert build_retry.attempts_left(properties)
        build_retry.record_attempt(properties, "h2", "n2", "out of luck")
        assert not build_retry.attempts_left(properties)
    finally:
        CONF.clear_override("max_attempts", group="scheduler")


def test_exhausted_names_every_attempt():
    properties: dict = {}
    build_retry.record_attempt(properties, "h1", "n1", "disk on fire")
    build_retry.record_attempt(properties, "h2", "n2", "out of luck")
    error = build_retry.exhausted("uuid-1", properties)
    assert isinstance(error, exception.MaxRetriesExceeded)
    message = error.format_message()
    assert message.startswith("Exceeded maximum number of retries.")
    assert "after 2 attempt(s): h1: disk on fire; h2: out of luck." in message
