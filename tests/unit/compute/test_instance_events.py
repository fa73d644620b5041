"""The compute's registry of events its flows wait for."""

import threading
import time

from nova.compute.instance_events import InstanceEvents, event_key


def test_event_key_is_name_and_tag():
    assert event_key("network-vif-plugged", "p1") == "network-vif-plugged-p1"
    assert event_key("network-changed", None) == "network-changed"


def test_an_event_arriving_before_the_wait_is_kept():
    events = InstanceEvents()
    expected = events.prepare("i1", ["a", "b"])
    assert events.pop("i1", "a", "completed")
    threading.Timer(0.05, events.pop, ("i1", "b", "completed")).start()
    assert expected.wait(5) == ([], [])
    # Nothing is left expected once waited for.
    assert not events.pop("i1", "a", "completed")


def test_missing_and_failed_events_are_told_apart():
    events = InstanceEvents()
    expected = events.prepare("i1", ["ok", "bad", "never"])
    events.pop("i1", "ok", "completed")
    events.pop("i1", "bad", "failed")
    began = time.monotonic()
    assert expected.wait(0.2) == (["never"], ["bad"])
    assert time.monotonic() - began < 2
    assert not events.pop("i1", "never", "completed")


def test_events_of_other_instances_or_unexpected_ones_are_not_taken():
    events = InstanceEvents()
    expected = events.prepare("i1", ["a"])
    assert not events.pop("i2", "a", "completed")
    assert not events.pop("i1", "z", "completed")
    expected.cancel()
    assert not events.pop("i1", "a", "completed")
