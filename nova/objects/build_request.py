"""Build requests: servers the API accepted that no cell holds yet.

Until the superconductor has scheduled an instance and created it in a
cell, the instance exists only here, serialized, so that the API can list,
show and delete it. Deleting the build request is how a user deletes such a
server; the superconductor notices and drops the instance.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from oslo_versionedobjects import fields

from nova import exception
from nova.db import engines
from nova.db.api import models
from nova.objects import base, instance_mapping
from nova.objects.block_device import BlockDeviceMappingList
from nova.objects.instance import Instance
from nova.objects.request_spec import RequestSpec
from nova.objects.tag import TagList

_REGEX_FILTERS = {"name": "display_name", "display_name": "display_name"}
_FILTER_ALIASES = {"tenant_id": "project_id", "image": "image_ref"}


@base.NovaObjectRegistry.register
class BuildRequest(base.NovaTimestampObject, base.NovaObject):
    """An instance waiting for its cell, with its disks and tags."""

    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {
        "id": fields.IntegerField(),
        "instance_uuid": fields.UUIDField(),
        "project_id": fields.StringField(),
        "instance": fields.ObjectField("Instance"),
        "block_device_mappings": fields.ObjectField("BlockDeviceMappingList"),
        "tags": fields.ObjectField("TagList"),
    }

    @classmethod
    def _from_db_object(cls, context, obj, db_row, skip=()):
        obj.id = db_row.id
        obj.instance_uuid = db_row.instance_uuid
        obj.project_id = db_row.project_id
        obj.created_at = db_row.created_at
        obj.updated_at = db_row.updated_at
        obj.instance = base.obj_from_json(context, db_row.instance)
        # The instance was never stored: it is as old as its request.
        obj.instance.created_at = db_row.created_at
        obj.instance.updated_at = db_row.updated_at
        obj.instance.obj_reset_changes(["created_at", "updated_at"])
        obj.block_device_mappings = base.obj_from_json(
            context, db_row.block_device_mappings
        ) or BlockDeviceMappingList(objects=[])
        obj.tags = base.obj_from_json(context, db_row.tags) or TagList.from_names(
            context, db_row.instance_uuid, []
        )
        # Listing and showing a not-yet-built server shows its tags.
        obj.instance.tags = obj.tags
        obj.instance.obj_reset_changes(["tags"])
        obj._context = context
        obj.obj_reset_changes()
        return obj

    @classmethod
    def get_by_instance_uuid(cls, context, instance_uuid: str) -> BuildRequest:
        with engines.transaction(context.api_db_connection) as session:
            row = session.scalars(
                sa.select(models.BuildRequest).where(
                    models.BuildRequest.instance_uuid == instance_uuid
                )
            ).first()
            if row is None:
                raise exception.BuildRequestNotFound(uuid=instance_uuid)
        return cls._from_db_object(context, cls(), row)

    def _serialized(self) -> dict[str, Any]:
        values = {}
        if "instance" in self:
            values["instance"] = base.obj_to_json(self.instance)
        if "block_device_mappings" in self:
            values["block_device_mappings"] = base.obj_to_json(
                self.block_device_mappings
            )
        if "tags" in self:
            values["tags"] = base.obj_to_json(self.tags)
        return values

    def _new_row(self) -> models.BuildRequest:
        """The row this new build request is stored as; its instance and
        owner default to those of the instance it holds."""
        if "instance_uuid" not in self:
            self.instance_uuid = self.instance.uuid
        if "project_id" not in self:
            self.project_id = self.instance.project_id
        return models.BuildRequest(
            instance_uuid=self.instance_uuid,
            project_id=self.project_id,
            **self._serialized(),
        )

    def create(self) -> None:
        if self.obj_attr_is_set("id"):
            raise exception.ObjectActionError(action="create", reason="already created")
        try:
            with engines.transaction(self._context.api_db_connection) as session:
                row = self._new_row()
                session.add(row)
                session.flush()
        except sa.exc.IntegrityError as exc:
            raise exception.BuildRequestExists(uuid=self.instance_uuid) from exc
        self._from_db_object(self._context, self, row)

    def save(self) -> None:
        """Store the changed instance (the API updates a not-yet-built
        server's name or metadata here)."""
        with engines.transaction(self._context.api_db_connection) as session:
            result = session.execute(
                sa.update(models.BuildRequest)
                .where(models.BuildRequest.instance_uuid == self.instance_uuid)
                .values(updated_at=base.utcnow(), **self._serialized())
            )
            if result.rowcount != 1:
                raise exception.BuildRequestNotFound(uuid=self.instance_uuid)
        self.obj_reset_changes()

    def destroy(self) -> None:
        """Delete the build request.

        :raises BuildRequestNotFound: someone else deleted it first — the
            user deleting the server, or the superconductor creating it.
        """
        with engines.transaction(self._context.api_db_connection) as session:
            result = session.execute(
                sa.delete(models.BuildRequest).where(
                    models.BuildRequest.instance_uuid == self.instance_uuid
                )
            )
            if result.rowcount != 1:
                raise exception.BuildRequestNotFound(uuid=self.instance_uuid)

    def get_new_instance(self, context) -> Instance:
        """A new, not yet created Instance with this request's values."""
        instance = Instance(context)
        for name in instance.fields:
            if name not in ("id", "created_at", "updated_at") and name in self.instance:
                setattr(instance, name, getattr(self.instance, name))
        instance.tags = TagList.from_names(
            context, self.instance_uuid, [tag.tag for tag in self.tags]
        )
        return instance


def _matches(instance: Instance, filters: dict[str, Any]) -> bool:
    for key, value in filters.items():
        key = _FILTER_ALIASES.get(key, key)
        if key in ("deleted", "cleaned", "soft_deleted"):
            if value:
                # Build requests are never deleted or cleaned.
                return False
            continue
        if key in _REGEX_FILTERS:
            actual = getattr(instance, _REGEX_FILTERS[key], None) or ""
            if not re.search(str(value), actual):
                return False
        elif key in ("tags", "tags-any", "not-tags", "not-tags-any"):
            if not _tags_match(instance, key, value):
                return False
        elif key == "changes-since":
            if instance.created_at < value:
                return False
        elif key == "changes-before":
            if instance.created_at > value:
                return False
        elif key in instance.fields:
            actual = getattr(instance, key, None) if key in instance else None
            allowed = value if isinstance(value, (list, tuple, set)) else [value]
            if actual not in allowed:
                return False
    return True


def _tags_match(instance: Instance, key: str, value: Any) -> bool:
    wanted = set(value.split(",") if isinstance(value, str) else value)
    have = {tag.tag for tag in instance.tags} if "tags" in instance else set()
    if key == "tags":
        return wanted <= have
    if key == "tags-any":
        return bool(wanted & have)
    if key == "not-tags":
        return not wanted <= have
    return not wanted & have


def _compare(a: Any, b: Any) -> int:
    # None sorts before everything, as in the databases' ascending order.
    if a == b:
        return 0
    if a is None:
        return -1
    if b is None:
        return 1
    return -1 if a < b else 1


def _instance_size(instance_document: str | None) -> tuple[int, int]:
    """(vcpus, memory_mb) of the serialized instance of a build request,
    read without building the object."""
    if not instance_document:
        return 0, 0
    instance = json.loads(instance_document)["nova_object.data"]
    return int(instance.get("vcpus") or 0), int(instance.get("memory_mb") or 0)


@base.NovaObjectRegistry.register
class BuildRequestList(base.ObjectListBase, base.NovaObject):
    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {"objects": fields.ListOfObjectsField("BuildRequest")}

    @classmethod
    def get_all(cls, context) -> BuildRequestList:
        """Every build request an admin may see, or the project's own."""
        stmt = sa.select(models.BuildRequest).order_by(models.BuildRequest.id)
        if not context.is_admin:
            stmt = stmt.where(models.BuildRequest.project_id == context.project_id)
        with engines.transaction(context.api_db_connection) as session:
            rows = session.scalars(stmt).all()
        requests = [
            BuildRequest._from_db_object(context, BuildRequest(), r) for r in rows
        ]
        result = cls(objects=requests)
        result._context = context
        return result

    @classmethod
    def get_by_filters(
        cls,
        context,
        filters: dict[str, Any],
        limit: int | None = None,
        marker: str | None = None,
        sort_keys: Sequence[str] | None = None,
        sort_dirs: Sequence[str] | None = None,
    ) -> BuildRequestList:
        """Build requests whose instance matches the servers API filters of
        InstanceList.get_by_filters, sorted and paged the same way.

        :raises MarkerNotFound: no build request has the marker's uuid (the
            caller then looks for it in the cells).
        """
        if limit == 0:
            return cls(objects=[])
        keys = list(sort_keys or ["created_at"])
        dirs = list(sort_dirs or ["desc"] * len(keys))
        dirs += [dirs[-1]] * (len(keys) - len(dirs))
        requests = [
            r for r in cls.get_all(context) if _matches(r.instance, dict(filters))
        ]

        def compare(a: BuildRequest, b: BuildRequest) -> int:
            for key, direction in zip(keys, dirs, strict=False):
                result = _compare(
                    getattr(a.instance, key, None) if key in a.instance else None,
                    getattr(b.instance, key, None) if key in b.instance else None,
                )
                if result:
                    return -result if direction == "desc" else result
            return 0

        requests.sort(key=functools.cmp_to_key(compare))
        if marker is not None:
            uuids = [r.instance_uuid for r in requests]
            if marker not in uuids:
                raise exception.MarkerNotFound(marker=marker)
            requests = requests[uuids.index(marker) + 1 :]
        if limit is not None:
            requests = requests[:limit]
        result = cls(objects=requests)
        result._context = context
        return result

    @classmethod
    def get_counts(
        cls, context, project_id: str, user_id: str | None = None
    ) -> dict[str, int]:
        """``instances``, ``cores`` and ``ram`` of the project's (the
        user's) servers accepted but in no cell yet, not queued for delete.

        Once the superconductor has put an instance in a cell its mapping
        names that cell: a build request it has not deleted yet is then
        left to the cell's count.
        """
        return cls.totals(cls.get_sizes(context, project_id, user_id))

    @staticmethod
    def totals(sizes: Mapping[str, tuple[int, int]]) -> dict[str, int]:
        """``instances``, ``cores`` and ``ram`` of :meth:`get_sizes`."""
        return {
            "instances": len(sizes),
            "cores": sum(vcpus for vcpus, _ in sizes.values()),
            "ram": sum(ram for _, ram in sizes.values()),
        }

    @classmethod
    def get_sizes(
        cls, context, project_id: str, user_id: str | None = None
    ) -> dict[str, tuple[int, int]]:
        """(vcpus, memory_mb) by instance uuid of the servers
        :meth:`get_counts` counts."""
        stmt = (
            sa.select(models.BuildRequest.instance_uuid, models.BuildRequest.instance)
            .join(
                models.InstanceMapping,
                models.InstanceMapping.instance_uuid
                == models.BuildRequest.instance_uuid,
            )
            .where(
                *instance_mapping.owned_by(project_id, user_id),
                models.InstanceMapping.cell_id.is_(None),
                instance_mapping.not_queued_for_delete(),
            )
        )
        with engines.transaction(context.api_db_connection) as session:
            rows = session.execute(stmt).all()
        return {uuid: _instance_size(document) for uuid, document in rows}

    @classmethod
    def create_build_records(
        cls,
        context,
        build_requests: Sequence[BuildRequest],
        request_specs: Sequence[RequestSpec],
    ) -> None:
        """Store each build request with its request spec (same position in
        ``request_specs``) and an instance mapping without a cell, in one
        API database transaction: all of them or none.

        Afterwards the build requests and specs carry their ids, their own
        fields marked unchanged; each build request has its row's timestamps
        and its instance the row's creation time as both ``created_at`` and
        ``updated_at``. The instances are not reloaded: callers keep using
        the objects they built.
        """
        with engines.transaction(context.api_db_connection) as session:
            rows = []
            for build_request, spec in zip(build_requests, request_specs, strict=True):
                instance = build_request.instance
                mapping = instance_mapping.InstanceMapping(
                    context,
                    instance_uuid=instance.uuid,
                    cell_mapping=None,
                    project_id=instance.project_id,
                    user_id=instance.user_id,
                    queued_for_delete=False,
                )
                build_row, spec_row = build_request._new_row(), spec._new_row()
                session.add_all([build_row, spec_row, mapping._new_row()])
                rows.append((build_row, spec_row))
            session.flush()
        for (build_row, spec_row), build_request, spec in zip(
            rows, build_requests, request_specs, strict=True
        ):
            build_request.id = build_row.id
            build_request.created_at = build_row.created_at
            build_request.updated_at = build_row.updated_at
            build_request.instance.created_at = build_row.created_at
            build_request.instance.updated_at = build_row.created_at
            build_request.obj_reset_changes()
            spec._stored_as(spec_row)

    @classmethod
    def destroy_build_records(cls, context, instance_uuids: Sequence[str]) -> None:
        """Delete the build requests, request specs and instance mappings of
        ``instance_uuids`` in one API database transaction; rows already
        gone are no error."""
        with engines.transaction(context.api_db_connection) as session:
            for model in (
                models.BuildRequest,
                models.RequestSpec,
                models.InstanceMapping,
            ):
                session.execute(
                    sa.delete(model).where(model.instance_uuid.in_(instance_uuids))
                )
