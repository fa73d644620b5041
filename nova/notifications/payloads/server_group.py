"""ServerGroupPayload: a server group (server_group.*)."""

from __future__ import annotations

from oslo_versionedobjects import fields

from nova.notifications import base


@base.PayloadRegistry.register
class ServerGroupPayload(base.NotificationPayloadBase):
    # Upstream's version: 1.1 added policy and rules (policies stays, as
    # the one-element list older consumers read).
    VERSION = "1.1"
    SCHEMA = {
        name: ("group", name)
        for name in ("uuid", "name", "user_id", "project_id", "members", "policy")
    }
    fields = {
        "uuid": fields.UUIDField(),
        "name": fields.StringField(nullable=True),
        "user_id": fields.StringField(nullable=True),
        "project_id": fields.StringField(nullable=True),
        "policies": fields.ListOfStringsField(nullable=True),
        "members": fields.ListOfStringsField(nullable=True),
        "hosts": fields.ListOfStringsField(nullable=True),
        "policy": fields.StringField(nullable=True),
        "rules": fields.DictOfStringsField(),
    }

    @classmethod
    def from_group(cls, group) -> ServerGroupPayload:
        payload = cls.from_sources(group=group)
        payload.policies = [group.policy] if group.policy else []
        # Hosts are worked out from the members' cells on demand; upstream
        # sends none either.
        payload.hosts = None
        rules = group.rules if group.obj_attr_is_set("rules") else {}
        payload.rules = {key: str(value) for key, value in (rules or {}).items()}
        return payload
