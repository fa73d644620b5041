"""Server groups as the scheduler sees them (policy, members, their hosts).

The API database operations arrive with the server groups API; the
scheduler needs only the object inside a RequestSpec.
"""

from __future__ import annotations

from oslo_versionedobjects import fields

from nova.objects import base


@base.NovaObjectRegistry.register
class InstanceGroup(base.NovaTimestampObject, base.NovaObject):
    """A server group: instances placed under one (anti-)affinity policy."""

    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {
        "id": fields.IntegerField(),
        "uuid": fields.UUIDField(),
        "name": fields.StringField(nullable=True),
        "user_id": fields.StringField(nullable=True),
        "project_id": fields.StringField(nullable=True),
        # affinity, anti-affinity, soft-affinity or soft-anti-affinity.
        "policy": fields.StringField(nullable=True),
        "rules": fields.DictOfStringsField(default={}),
        "members": fields.ListOfStringsField(default=[]),
        # Hosts of the members, filled in for the scheduler.
        "hosts": fields.ListOfStringsField(default=[]),
    }
