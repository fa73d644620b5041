# Before anything imports oslo.messaging: nova.conf makes oslo.service
# settle on native threads, as every nova process does.
import oslo_messaging
import pytest
from oslo_messaging.notify import _impl_test

import nova.conf
from nova.notifications import notifier

CONF = nova.conf.CONF


@pytest.fixture
def sent(request):
    """Notifications go to oslo.messaging's in-memory ``test`` driver, in
    the format the test's parameter names (versioned by default), with
    instance.update on vm_state changes; yields the list of what was sent
    as (event_type, priority, publisher_id, payload)."""
    notification_format = getattr(request, "param", "versioned")
    notifier.cleanup()
    oslo_messaging.get_notification_transport(CONF)  # registers the options
    overrides = [
        ("notification_format", notification_format, "notifications"),
        ("notify_on_state_change", "vm_state", "notifications"),
        ("driver", ["test"], "oslo_messaging_notifications"),
        ("transport_url", "fake://", "oslo_messaging_notifications"),
    ]
    for name, value, group in overrides:
        CONF.set_override(name, value, group=group)
    _impl_test.reset()

    class Sent(list):
        def refresh(self):
            self[:] = [
                (m["event_type"], m["priority"], m["publisher_id"], m["payload"])
                for _, m, _, _ in _impl_test.NOTIFICATIONS
            ]
            return self

    yield Sent()
    for name, _, group in overrides:
        CONF.clear_override(name, group=group)
    notifier.cleanup()
    _impl_test.reset()
