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
from sqlalchemy import orm

from nova import exception
from nova.db import engines
from nova.db.api import models
from nova.objects import base

POLICIES = ("affinity", "anti-affinity", "soft-affinity", "soft-anti-affinity")


def _select_groups() -> sa.Select:
    return sa.select(models.InstanceGroup).options(
        orm.selectinload(models.InstanceGroup.policies),
        orm.selectinload(models.InstanceGroup.members),
    )


@base.NovaObjectRegistry.register
class InstanceGroup(base.NovaTimestampObject, base.NovaObject):
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

    @classmethod
    def _from_db_object(cls, context, obj, db_row, skip=()):
        for name in ("id", "uuid", "name", "user_id", "project_id"):
            setattr(obj, name, getattr(db_row, name))
        obj.created_at = db_row.created_at
        obj.updated_at = db_row.updated_at
        policy = db_row.policies[0] if db_row.policies else None
        obj.policy = policy.policy if policy else None
        rules = json.loads(policy.rules) if policy and policy.rules else {}
        obj.rules = {key: str(value) for key, value in rules.items()}
        obj.members = [member.instance_uuid for member in db_row.members]
        obj._context = context
        obj.obj_reset_changes()
        return obj

    @classmethod
    def _get(cls, context, criterion, group_uuid) -> InstanceGroup:
        with engines.transaction(context.api_db_connection) as session:
            row = session.scalars(_select_groups().where(criterion)).first()
            if row is None:
                raise exception.InstanceGroupNotFound(group_uuid=group_uuid)
            return cls._from_db_object(context, cls(), row)

    @classmethod
    def get_by_uuid(cls, context, group_uuid: str) -> InstanceGroup:
        return cls._get(context, models.InstanceGroup.uuid == group_uuid, group_uuid)

    @classmethod
    def get_by_name(cls, context, name: str) -> InstanceGroup:
        """The group of the context's project named ``name``."""
        criterion = sa.and_(
            models.InstanceGroup.name == name,
            models.InstanceGroup.project_id == context.project_id,
        )
        return cls._get(context, criterion, name)

    @classmethod
    def get_by_instance_uuid(cls, context, instance_uuid: str) -> InstanceGroup:
        """The group ``instance_uuid`` is a member of."""
        criterion = models.InstanceGroup.members.any(instance_uuid=instance_uuid)
        return cls._get(context, criterion, instance_uuid)

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
                    policy=self.policy, rules=json.dumps(_typed_rules(rules))
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

    def destroy(self) -> None:
        """Delete the group with its policy and member list."""
        with engines.transaction(self._context.api_db_connection) as session:
            row = session.scalars(
                _select_groups().where(models.InstanceGroup.uuid == self.uuid)
            ).first()
            if row is None:
                raise exception.InstanceGroupNotFound(group_uuid=self.uuid)
            session.delete(row)

    @classmethod
    def add_members(
        cls, context, group_uuid: str, instance_uuids: list[str]
    ) -> list[str]:
        """Add instances to the group; returns the UUIDs newly added."""
        with engines.transaction(context.api_db_connection) as session:
            row = session.scalars(
                _select_groups().where(models.InstanceGroup.uuid == group_uuid)
            ).first()
            if row is None:
                raise exception.InstanceGroupNotFound(group_uuid=group_uuid)
            present = {member.instance_uuid for member in row.members}
            added = [u for u in dict.fromkeys(instance_uuids) if u not in present]
            row.members.extend(
                models.InstanceGroupMember(instance_uuid=u) for u in added
            )
        return added

    @classmethod
    def remove_members(cls, context, instance_uuids: list[str]) -> None:
        """Take deleted instances out of whatever group holds them."""
        with engines.transaction(context.api_db_connection) as session:
            session.execute(
                sa.delete(models.InstanceGroupMember).where(
                    models.InstanceGroupMember.instance_uuid.in_(instance_uuids)
                )
            )


def _typed_rules(rules: dict[str, str]) -> dict[str, object]:
    """Rules as stored: ``max_server_per_host`` is a number."""
    return {
        key: int(value) if key == "max_server_per_host" else value
        for key, value in rules.items()
    }


@base.NovaObjectRegistry.register
class InstanceGroupList(base.ObjectListBase, base.NovaObject):
    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {"objects": fields.ListOfObjectsField("InstanceGroup")}

    @classmethod
    def _get(cls, context, *criteria) -> InstanceGroupList:
        query = _select_groups().where(*criteria).order_by(models.InstanceGroup.id)
        with engines.transaction(context.api_db_connection) as session:
            return cls._from_db_rows(context, InstanceGroup, session.scalars(query))

    @classmethod
    def get_all(cls, context) -> InstanceGroupList:
        return cls._get(context)

    @classmethod
    def get_by_project_id(cls, context, project_id: str) -> InstanceGroupList:
        return cls._get(context, models.InstanceGroup.project_id == project_id)
