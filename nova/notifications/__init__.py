"""Notifications nova sends on the message bus for the rest of the cloud
(telemetry, billing, HA tools).

``[notifications] notification_format`` picks the versioned form (objects
with a name and version, on the ``versioned_notifications`` topic), the
legacy unversioned form (plain dicts, ``compute.instance.*``, on
``[oslo_messaging_notifications] topics``) or both. Call sites use
:mod:`nova.notifications.instance` and :mod:`nova.notifications.events`;
sending never fails the operation that notifies.
"""
