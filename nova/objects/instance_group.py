"""Server groups: instances placed under one (anti-)affinity policy.

Groups live in the API database (policy and rules in instance_group_policy,
members in instance_group_member). The scheduler gets the group inside a
RequestSpec, with ``hosts`` filled in from the members' hosts.
"""

from __future__ import annotations

import json
import uuid as uuidlib

import sqlalchemy as sa
from oslo_versionedobjects import fields

from nova import exception, objects
from nova.db import engines
from nova.db.api import models
from nova.notifications import events as notification_events
from nova.objects import api_db, base

POLICIES = ("affinity", "anti-affinity", "soft-affinity", "soft-anti-affinity")


@base.NovaObjectRegistry.register
class InstanceGroup(api_db.APIDBObject, base.NovaTimestampObject, base.NovaObject):
    """A server group: its policy, rules and member instance UUIDs."""

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

    _model = models.InstanceGroup
    _loaded_with = ("policies", "members")

    def _fill_from_row(self, db_row: models.InstanceGroup) -> None:
        for name in ("id", "uuid", "name", "user_id", "project_id"):
            setattr(self, name, getattr(db_row, name))
        self.created_at = db_row.created_at
        self.updated_at = db_row.updated_at
        policy = db_row.policies[0] if db_row.policies else None
        self.policy = policy.policy if policy else None
        rules = json.loads(policy.rules) if policy and policy.rules else {}
        self.rules = {key: str(value) for key, value in rules.items()}
        self.members = [member.instance_uuid for member in db_row.members]

    @classmethod
    def get_by_uuid(cls, context, group_uuid: str) -> InstanceGroup:
        return cls._get(
            context,
            models.InstanceGroup.uuid == group_uuid,
            exception.InstanceGroupNotFound(group_uuid=group_uuid),
        )

    @classmethod
    def get_by_name(cls, context, name: str) -> InstanceGroup:
        """The group of the context's project named ``name``."""
        criterion = sa.and_(
            models.InstanceGroup.name == name,
            models.InstanceGroup.project_id == context.project_id,
        )
        return cls._get(
            context, criterion, exception.InstanceGroupNotFound(group_uuid=name)
        )

    @classmethod
    def get_by_instance_uuid(cls, context, instance_uuid: str) -> InstanceGroup:
        """The group ``instance_uuid`` is a member of."""
        criterion = models.InstanceGroup.members.any(instance_uuid=instance_uuid)
        return cls._get(
            context,
            criterion,
            exception.InstanceGroupNotFound(group_uuid=instance_uuid),
        )

    def create(self) -> None:
        """Insert the group with its policy, rules and members.

        :raises InstanceGroupIdExists: a group with this UUID exists.
        """
        if self.obj_attr_is_set("id"):
            raise exception.ObjectActionError(action="create", reason="already created")
        if not self.obj_attr_is_set("uuid"):
            self.uuid = str(uuidlib.uuid4())
        rules = self.rules if self.obj_attr_is_set("rules") else {}
        members = self.members if self.obj_attr_is_set("members") else []
        row = models.InstanceGroup(
            uuid=self.uuid,
            name=self.name if self.obj_attr_is_set("name") else None,
            user_id=self.user_id if self.obj_attr_is_set("user_id") else None,
            project_id=self.project_id if self.obj_attr_is_set("project_id") else None,
        )
        if self.obj_attr_is_set("policy") and self.policy:
            row.policies = [
                models.InstanceGroupPolicy(
                    policy=self.policy, rules=json.dumps(typed_rules(rules))
                )
            ]
        row.members = [models.InstanceGroupMember(instance_uuid=u) for u in members]
        try:
            with engines.transaction(self._context.api_db_connection) as session:
                session.add(row)
                session.flush()
                self._from_db_object(self._context, self, row)
        except sa.exc.IntegrityError as exc:
            raise exception.InstanceGroupIdExists(group_uuid=self.uuid) from exc
        notification_events.server_group(self._context, self, "create")

    def destroy(self) -> None:
        """Delete the group with its policy and member list."""
        with engines.transaction(self._context.api_db_connection) as session:
            row = self._find_row(
                session,
                models.InstanceGroup.uuid == self.uuid,
                exception.InstanceGroupNotFound(group_uuid=self.uuid),
            )
            session.delete(row)
        notification_events.server_group(self._context, self, "delete")

    @classmethod
    def add_members(
        cls, context, group_uuid: str, instance_uuids: list[str]
    ) -> list[str]:
        """Add instances to the group; returns the UUIDs newly added."""
        with engines.transaction(context.api_db_connection) as session:
            row = cls._find_row(
                session,
                models.InstanceGroup.uuid == group_uuid,
                exception.InstanceGroupNotFound(group_uuid=group_uuid),
            )
            present = {member.instance_uuid for member in row.members}
            added = [u for u in dict.fromkeys(instance_uuids) if u not in present]
            row.members.extend(
                models.InstanceGroupMember(instance_uuid=u) for u in added
            )
        notification_events.server_group_members_added(
            context, lambda: cls.get_by_uuid(context, group_uuid), added
        )
        return added

    @base.remotable
    def get_hosts(self, exclude: list[str] | None = None) -> list[str]:
        """The hosts of the members (but those in ``exclude``), one entry
        per member on a host, so that a count per host says how many.

        Members not (yet) on a host are left out. Reads the API database
        and the members' cells: from a compute this runs in its cell
        conductor, which needs ``[api_database]`` (the "upcall").
        """
        from nova import context as nova_context

        skip = set(exclude or ())
        hosts = []
        group = self.get_by_uuid(self._context, self.uuid)
        for uuid in group.members:
            if uuid in skip:
                continue
            try:
                mapping = objects.InstanceMapping.get_by_instance_uuid(
                    self._context, uuid
                )
            except exception.InstanceMappingNotFound:
                continue
            if mapping.cell_mapping is None:
                continue
            with nova_context.target_cell(self._context, mapping.cell_mapping) as cctxt:
                try:
                    instance = objects.Instance.get_by_uuid(cctxt, uuid)
                except exception.InstanceNotFound:
                    continue
            if instance.host:
                hosts.append(instance.host)
        return hosts

    @classmethod
    def count_members(cls, context, group_uuid: str) -> int:
        """How many instances the group ``group_uuid`` has (0 if it does
        not exist)."""
        member, group = models.InstanceGroupMember, models.InstanceGroup
        return base.count_rows(
            context.api_db_connection,
            member.id,
            member.group_id == group.id,
            group.uuid == group_uuid,
        )

    @classmethod
    def remove_members(cls, context, instance_uuids: list[str]) -> None:
        """Take deleted instances out of whatever group holds them."""
        with engines.transaction(context.api_db_connection) as session:
            session.execute(
                sa.delete(models.InstanceGroupMember).where(
                    models.InstanceGroupMember.instance_uuid.in_(instance_uuids)
                )
            )


def typed_rules(rules: dict[str, str]) -> dict[str, object]:
    """Rules as stored: ``max_server_per_host`` is a number."""
    return {
        key: int(value) if key == "max_server_per_host" else value
        for key, value in rules.items()
    }


@base.NovaObjectRegistry.register
class InstanceGroupList(api_db.APIDBObjectList, base.ObjectListBase, base.NovaObject):
    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {"objects": fields.ListOfObjectsField("InstanceGroup")}

    _item_class = InstanceGroup

    @classmethod
    def get_all(cls, context) -> InstanceGroupList:
        return cls._get(context)

    @classmethod
    def get_by_project_id(cls, context, project_id: str) -> InstanceGroupList:
        return cls._get(context, models.InstanceGroup.project_id == project_id)

    @classmethod
    def get_counts(
        cls, context, project_id: str, user_id: str | None = None
    ) -> dict[str, int]:
        """``server_groups``: how many groups the project (the user within
        it) has."""
        criteria = [models.InstanceGroup.project_id == project_id]
        if user_id is not None:
            criteria.append(models.InstanceGroup.user_id == user_id)
        count = base.count_rows(
            context.api_db_connection, models.InstanceGroup.id, *criteria
        )
        return {"server_groups": count}
