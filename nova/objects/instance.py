"""Instances: the servers of a cell, with their metadata, flavor and faults.

The ``instances`` row holds the scalar fields. The optional attributes live
in other tables and are loaded only when asked for (``expected_attrs``) or
on first access: ``metadata`` and ``system_metadata`` (key/value rows),
``info_cache`` (network info), ``fault`` (the newest instance fault),
``flavor``/``old_flavor``/``new_flavor`` (JSON in ``instance_extra``) and
``tags``.

State changes are compare-and-swap: ``save(expected_task_state=...)``
updates the row only if its task state is still one the caller expects, so
two services never silently overwrite each other's transitions.
"""

from __future__ import annotations

import json
import types
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from oslo_db.sqlalchemy import utils as sqlalchemyutils
from oslo_log import log as logging
from oslo_utils import uuidutils
from oslo_versionedobjects import fields

import nova.conf
from nova import exception
from nova.db import engines
from nova.db.main import models
from nova.objects import base
from nova.objects.instance_fault import InstanceFaultList
from nova.objects.instance_info_cache import InstanceInfoCache
from nova.objects.tag import TagList
from nova.states import task_states, vm_states

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

# Optional attributes, loaded from other tables on demand.
INSTANCE_OPTIONAL_ATTRS = (
    "metadata",
    "system_metadata",
    "info_cache",
    "fault",
    "flavor",
    "old_flavor",
    "new_flavor",
    "tags",
)
# What a plain get loads: cheap, and wanted by nearly every caller.
INSTANCE_DEFAULT_FIELDS = ("metadata", "system_metadata", "info_cache")
_FLAVOR_ATTRS = ("flavor", "old_flavor", "new_flavor")
# Dict fields callers change in place; changes are found by comparison.
_DICT_ATTRS = ("metadata", "system_metadata")
_FLAVOR_KEYS = {"flavor": "cur", "old_flavor": "old", "new_flavor": "new"}


def _expected_attrs(expected_attrs: Iterable[str] | None) -> list[str]:
    attrs = list(expected_attrs or ())
    unknown = set(attrs) - set(INSTANCE_OPTIONAL_ATTRS)
    if unknown:
        raise exception.ObjectActionError(
            action="load", reason=f"unknown instance attributes {sorted(unknown)}"
        )
    # The three flavors share one JSON document: loading one loads all.
    if any(attr in attrs for attr in _FLAVOR_ATTRS):
        attrs = [a for a in attrs if a not in _FLAVOR_ATTRS] + list(_FLAVOR_ATTRS)
    return attrs


def _as_list(value: Any) -> list[Any]:
    if isinstance(value, (list, tuple, set, frozenset)):
        return list(value)
    return [value]


def _state_condition(column, expected: Any):
    """``column`` is one of ``expected`` (None matching SQL NULL)."""
    values = _as_list(expected)
    non_null = [v for v in values if v is not None]
    conditions = []
    if non_null:
        conditions.append(column.in_(non_null))
    if len(non_null) != len(values):
        conditions.append(column.is_(None))
    return sa.or_(*conditions)


@base.NovaObjectRegistry.register
class Instance(base.NovaPersistentObject, base.NovaObject):
    """A server, stored in the database of the cell it lives in."""

    # Version 2.0: Initial version with nova-api's fields
    VERSION = "2.0"

    fields = {
        "id": fields.IntegerField(),
        "uuid": fields.UUIDField(),
        "user_id": fields.StringField(nullable=True),
        "project_id": fields.StringField(nullable=True),
        "image_ref": fields.StringField(nullable=True),
        "kernel_id": fields.StringField(nullable=True),
        "ramdisk_id": fields.StringField(nullable=True),
        "hostname": fields.StringField(nullable=True),
        "launch_index": fields.IntegerField(nullable=True),
        "key_name": fields.StringField(nullable=True),
        "key_data": fields.StringField(nullable=True),
        "power_state": fields.IntegerField(nullable=True),
        "vm_state": fields.StringField(nullable=True),
        "task_state": fields.StringField(nullable=True),
        "memory_mb": fields.IntegerField(nullable=True),
        "vcpus": fields.IntegerField(nullable=True),
        "root_gb": fields.IntegerField(nullable=True),
        "ephemeral_gb": fields.IntegerField(nullable=True),
        "ephemeral_key_uuid": fields.UUIDField(nullable=True),
        "host": fields.StringField(nullable=True),
        "node": fields.StringField(nullable=True),
        "compute_id": fields.IntegerField(nullable=True),
        "instance_type_id": fields.IntegerField(nullable=True),
        "user_data": fields.StringField(nullable=True),
        "reservation_id": fields.StringField(nullable=True),
        "launched_at": fields.DateTimeField(nullable=True),
        "terminated_at": fields.DateTimeField(nullable=True),
        "availability_zone": fields.StringField(nullable=True),
        "display_name": fields.StringField(nullable=True),
        "display_description": fields.StringField(nullable=True),
        "launched_on": fields.StringField(nullable=True),
        "locked": fields.BooleanField(default=False),
        "locked_by": fields.StringField(nullable=True),
        "os_type": fields.StringField(nullable=True),
        "architecture": fields.StringField(nullable=True),
        "vm_mode": fields.StringField(nullable=True),
        "root_device_name": fields.StringField(nullable=True),
        "default_ephemeral_device": fields.StringField(nullable=True),
        "default_swap_device": fields.StringField(nullable=True),
        "config_drive": fields.StringField(nullable=True),
        "access_ip_v4": fields.IPV4AddressField(nullable=True),
        "access_ip_v6": fields.IPV6AddressField(nullable=True),
        "auto_disk_config": fields.BooleanField(default=False),
        "progress": fields.IntegerField(nullable=True),
        "shutdown_terminate": fields.BooleanField(default=False),
        "disable_terminate": fields.BooleanField(default=False),
        "cell_name": fields.StringField(nullable=True),
        "cleaned": fields.BooleanField(default=False),
        "hidden": fields.BooleanField(default=False),
        # Optional attributes (INSTANCE_OPTIONAL_ATTRS).
        "metadata": fields.DictOfStringsField(),
        "system_metadata": fields.DictOfNullableStringsField(),
        "info_cache": fields.ObjectField("InstanceInfoCache", nullable=True),
        "fault": fields.ObjectField("InstanceFault", nullable=True),
        "flavor": fields.ObjectField("Flavor"),
        "old_flavor": fields.ObjectField("Flavor", nullable=True),
        "new_flavor": fields.ObjectField("Flavor", nullable=True),
        "tags": fields.ObjectField("TagList"),
    }

    # Fields stored in the instances row itself.
    _COLUMN_FIELDS = tuple(
        name
        for name in fields
        if name not in INSTANCE_OPTIONAL_ATTRS and name not in ("id", "deleted")
    )

    @property
    def name(self) -> str:
        """The guest's name on the hypervisor, from ``instance_name_template``.

        Empty until the instance has an id (a build request's instance).
        """
        if "id" not in self:
            return ""
        template = CONF.instance_name_template
        try:
            return template % self.id
        except TypeError:
            return template % {"id": self.id, "uuid": self.uuid}

    # metadata and system_metadata are plain dicts that callers change in
    # place, which setattr-based change tracking cannot see: their values
    # at the last reset are kept and compared.

    def obj_reset_changes(self, fields=None, recursive=False) -> None:
        super().obj_reset_changes(fields, recursive)
        originals = self.__dict__.setdefault("_original_dicts", {})
        for attr in _DICT_ATTRS:
            if (fields is None or attr in fields) and attr in self:
                originals[attr] = dict(getattr(self, attr))

    def obj_what_changed(self) -> set[str]:
        changed = set(super().obj_what_changed())
        originals = self.__dict__.get("_original_dicts", {})
        for attr in _DICT_ATTRS:
            if attr in originals and attr in self:
                if originals[attr] != getattr(self, attr):
                    changed.add(attr)
        return changed

    # -- loading --------------------------------------------------------

    @classmethod
    def _from_db_object(cls, context, obj, db_row, skip=(), optional=None):
        """Fill ``obj`` from its row and the optional attributes loaded
        for it (``optional``: attribute name -> value)."""
        super()._from_db_object(
            context, obj, db_row, skip=set(INSTANCE_OPTIONAL_ATTRS) | set(skip)
        )
        for attr, value in (optional or {}).items():
            setattr(obj, attr, value)
        obj._context = context
        obj.obj_reset_changes(recursive=True)
        return obj

    @staticmethod
    def _load_optional(
        context, session, uuids: Sequence[str], attrs: Sequence[str]
    ) -> dict[str, dict[str, Any]]:
        """The optional attributes of many instances, one query each:
        instance uuid -> attribute -> value."""
        loaded: dict[str, dict[str, Any]] = {uuid: {} for uuid in uuids}
        if not uuids or not attrs:
            return loaded
        if "metadata" in attrs:
            for uuid in uuids:
                loaded[uuid]["metadata"] = {}
            meta = models.InstanceMetadata
            for row in session.scalars(
                sa.select(meta).where(meta.instance_uuid.in_(uuids), meta.deleted == 0)
            ):
                loaded[row.instance_uuid]["metadata"][row.key] = row.value
        if "system_metadata" in attrs:
            for uuid in uuids:
                loaded[uuid]["system_metadata"] = {}
            sysmeta = models.InstanceSystemMetadata
            for row in session.scalars(
                sa.select(sysmeta).where(
                    sysmeta.instance_uuid.in_(uuids), sysmeta.deleted == 0
                )
            ):
                loaded[row.instance_uuid]["system_metadata"][row.key] = row.value
        if "info_cache" in attrs:
            for uuid in uuids:
                loaded[uuid]["info_cache"] = None
            cache = models.InstanceInfoCache
            for row in session.scalars(
                sa.select(cache).where(cache.instance_uuid.in_(uuids))
            ):
                loaded[row.instance_uuid]["info_cache"] = (
                    InstanceInfoCache._from_db_object(context, InstanceInfoCache(), row)
                )
        if "flavor" in attrs:
            extra = models.InstanceExtra
            flavors = {
                uuid: text
                for uuid, text in session.execute(
                    sa.select(extra.instance_uuid, extra.flavor).where(
                        extra.instance_uuid.in_(uuids)
                    )
                )
            }
            for uuid in uuids:
                document = json.loads(flavors.get(uuid) or "{}")
                for attr, key in _FLAVOR_KEYS.items():
                    primitive = document.get(key)
                    loaded[uuid][attr] = (
                        None
                        if primitive is None
                        else base.NovaObject.obj_from_primitive(
                            primitive, context=context
                        )
                    )
        if "tags" in attrs:
            names: dict[str, list[str]] = {uuid: [] for uuid in uuids}
            for resource_id, tag in session.execute(
                sa.select(models.Tag.resource_id, models.Tag.tag)
                .where(models.Tag.resource_id.in_(uuids))
                .order_by(models.Tag.tag)
            ):
                names[resource_id].append(tag)
            for uuid in uuids:
                loaded[uuid]["tags"] = TagList.from_names(context, uuid, names[uuid])
        return loaded

    @staticmethod
    def _load_faults(context, loaded: dict[str, dict[str, Any]]) -> None:
        faults = InstanceFaultList.get_by_instance_uuids(
            context, list(loaded), latest=True
        )
        by_uuid = {fault.instance_uuid: fault for fault in faults}
        for uuid, attrs in loaded.items():
            attrs["fault"] = by_uuid.get(uuid)

    @classmethod
    def _get(cls, context, criterion, expected_attrs, not_found) -> Instance:
        attrs = _expected_attrs(expected_attrs)
        stmt = base.NovaPersistentObject._select(context, models.Instance)
        with engines.transaction(context.db_connection) as session:
            row = session.scalars(stmt.where(criterion)).first()
            if row is None:
                raise not_found
            loaded = cls._load_optional(context, session, [row.uuid], attrs)
        if "fault" in attrs:
            cls._load_faults(context, loaded)
        return cls._from_db_object(context, cls(), row, optional=loaded[row.uuid])

    @classmethod
    @base.remotable
    def get_by_uuid(
        cls, context, uuid: str, expected_attrs: Iterable[str] | None = None
    ) -> Instance:
        """The instance, if ``context.read_deleted`` lets the caller see it.

        ``expected_attrs`` defaults to INSTANCE_DEFAULT_FIELDS.
        """
        if expected_attrs is None:
            expected_attrs = INSTANCE_DEFAULT_FIELDS
        return cls._get(
            context,
            models.Instance.uuid == uuid,
            expected_attrs,
            exception.InstanceNotFound(instance_id=uuid),
        )

    @classmethod
    @base.remotable
    def get_by_id(
        cls, context, instance_id: int, expected_attrs: Iterable[str] | None = None
    ) -> Instance:
        if expected_attrs is None:
            expected_attrs = INSTANCE_DEFAULT_FIELDS
        return cls._get(
            context,
            models.Instance.id == instance_id,
            expected_attrs,
            exception.InstanceNotFound(instance_id=instance_id),
        )

    def obj_load_attr(self, attrname: str) -> None:
        """Load an optional attribute on first access (through the conductor
        where there is no database)."""
        if attrname not in INSTANCE_OPTIONAL_ATTRS:
            raise exception.ObjectActionError(
                action="obj_load_attr", reason=f"attribute {attrname} not lazy-loadable"
            )
        if self._context is None:
            raise exception.ObjectActionError(
                action="obj_load_attr", reason="instance has no context"
            )
        LOG.debug("Lazy-loading %s of instance %s", attrname, self.uuid)
        context = self._context.elevated(read_deleted="yes")
        loaded = Instance.get_by_uuid(context, self.uuid, expected_attrs=[attrname])
        for attr in _expected_attrs([attrname]):
            if attr not in self.obj_what_changed():
                setattr(self, attr, getattr(loaded, attr))
                self.obj_reset_changes([attr])

    @base.remotable
    def refresh(self) -> None:
        """Re-read every loaded field from the database."""
        loaded_attrs = [a for a in INSTANCE_OPTIONAL_ATTRS if a in self]
        current = Instance.get_by_uuid(
            self._context.elevated(read_deleted="yes"),
            self.uuid,
            expected_attrs=loaded_attrs,
        )
        for name in self.fields:
            if name in current and (
                name not in self or getattr(self, name) != getattr(current, name)
            ):
                setattr(self, name, getattr(current, name))
        self.obj_reset_changes()

    # -- writing --------------------------------------------------------

    def _flavor_document(self, stored: dict[str, Any] | None = None) -> str:
        """The three flavors as one JSON document; a flavor this object has
        not loaded keeps its ``stored`` value rather than becoming None."""

        def primitive(attr, key):
            if attr not in self:
                return (stored or {}).get(key)
            if getattr(self, attr) is None:
                return None
            return getattr(self, attr).obj_to_primitive()

        return json.dumps(
            {key: primitive(attr, key) for attr, key in _FLAVOR_KEYS.items()},
            default=str,
        )

    @base.remotable
    def create(self) -> None:
        """Insert the instance and its optional attributes."""
        if self.obj_attr_is_set("id"):
            raise exception.ObjectActionError(action="create", reason="already created")
        if "deleted" in self and self.deleted:
            raise exception.ObjectActionError(action="create", reason="already deleted")
        if "uuid" not in self:
            self.uuid = uuidutils.generate_uuid()
        for name, default in (
            ("metadata", {}),
            ("system_metadata", {}),
            ("fault", None),
            ("old_flavor", None),
            ("new_flavor", None),
        ):
            if name not in self:
                setattr(self, name, default)
        if "info_cache" not in self or self.info_cache is None:
            self.info_cache = InstanceInfoCache(
                instance_uuid=self.uuid, network_info=[]
            )
        if "tags" not in self:
            self.tags = TagList.from_names(self._context, self.uuid, [])
        values = base.db_values(self, self._COLUMN_FIELDS)
        try:
            with engines.transaction(self._context.db_connection) as session:
                row = models.Instance(**values)
                session.add(row)
                session.flush()
                session.add(
                    models.InstanceExtra(
                        instance_uuid=self.uuid,
                        flavor=self._flavor_document() if "flavor" in self else None,
                    )
                )
                session.add(
                    models.InstanceInfoCache(
                        instance_uuid=self.uuid,
                        network_info=json.dumps(self.info_cache.network_info or []),
                    )
                )
                for key, value in self.metadata.items():
                    session.add(
                        models.InstanceMetadata(
                            instance_uuid=self.uuid, key=key, value=value
                        )
                    )
                for key, value in self.system_metadata.items():
                    session.add(
                        models.InstanceSystemMetadata(
                            instance_uuid=self.uuid, key=key, value=value
                        )
                    )
                for name in dict.fromkeys(tag.tag for tag in self.tags):
                    session.add(models.Tag(resource_id=self.uuid, tag=name))
                session.flush()
        except sa.exc.IntegrityError as exc:
            raise exception.InstanceExists(name=self.uuid) from exc
        optional = {a: getattr(self, a) for a in INSTANCE_OPTIONAL_ATTRS if a in self}
        self.info_cache.instance_uuid = self.uuid
        for tag in self.tags:
            tag.resource_id = self.uuid
        self._from_db_object(self._context, self, row, optional=optional)

    @base.remotable
    def save(
        self,
        expected_vm_state: Any = None,
        expected_task_state: Any = None,
    ) -> None:
        """Write the changed fields.

        With ``expected_task_state`` (a state or a list of states; None in
        the list matches no task) and/or ``expected_vm_state`` the row is
        updated only if it is still in one of those states, atomically.

        :raises UnexpectedDeletingTaskStateError: the instance is being
            deleted meanwhile.
        :raises UnexpectedTaskStateError: its task state is another one.
        :raises UnexpectedVMStateError: its vm_state is another one.
        :raises InstanceNotFound: it was deleted, or is being deleted in
            place (vm_state DELETED) and the save expected a state: a
            deleted instance is never written again, so that a build or an
            action racing its delete cannot bring it back.
        """
        changes = self.obj_get_changes()
        columns = {
            name: base.db_value(value)
            for name, value in changes.items()
            # deleted_at is set by a soft delete and cleared by a restore
            # while the row lives on.
            if name in self._COLUMN_FIELDS or name == "deleted_at"
        }
        checking = expected_task_state is not None or expected_vm_state is not None
        now = base.utcnow()
        model = models.Instance
        with engines.transaction(self._context.db_connection) as session:
            if columns or checking:
                columns.setdefault("updated_at", now)
                stmt = sa.update(model).where(
                    model.uuid == self.uuid, model.deleted == 0
                )
                if expected_task_state is not None:
                    stmt = stmt.where(
                        _state_condition(model.task_state, expected_task_state)
                    )
                if expected_vm_state is not None:
                    stmt = stmt.where(
                        _state_condition(model.vm_state, expected_vm_state)
                    )
                if session.execute(stmt.values(**columns)).rowcount != 1:
                    self._raise_save_conflict(
                        session, expected_vm_state, expected_task_state
                    )
            if "metadata" in changes:
                self._save_metadata(session, models.InstanceMetadata, self.metadata)
            if "system_metadata" in changes:
                self._save_metadata(
                    session, models.InstanceSystemMetadata, self.system_metadata
                )
            if any(attr in changes for attr in _FLAVOR_ATTRS):
                self._save_flavors(session)
            if "info_cache" in changes and self.info_cache is not None:
                session.execute(
                    sa.update(models.InstanceInfoCache)
                    .where(models.InstanceInfoCache.instance_uuid == self.uuid)
                    .values(network_info=json.dumps(self.info_cache.network_info or []))
                )
        if "updated_at" not in changes and (columns or checking):
            self.updated_at = now
        self.obj_reset_changes(recursive=True)

    def _save_flavors(self, session) -> None:
        where = models.InstanceExtra.instance_uuid == self.uuid
        stored = None
        if not all(attr in self for attr in _FLAVOR_ATTRS):
            stored = json.loads(
                session.scalar(sa.select(models.InstanceExtra.flavor).where(where))
                or "{}"
            )
        session.execute(
            sa.update(models.InstanceExtra)
            .where(where)
            .values(flavor=self._flavor_document(stored))
        )

    def _raise_save_conflict(self, session, expected_vm_state, expected_task_state):
        current = session.execute(
            sa.select(models.Instance.vm_state, models.Instance.task_state).where(
                models.Instance.uuid == self.uuid, models.Instance.deleted == 0
            )
        ).first()
        if current is None or current.vm_state == vm_states.DELETED:
            raise exception.InstanceNotFound(instance_id=self.uuid)
        if expected_task_state is not None and current.task_state not in _as_list(
            expected_task_state
        ):
            error = (
                exception.UnexpectedDeletingTaskStateError
                if current.task_state == task_states.DELETING
                else exception.UnexpectedTaskStateError
            )
            raise error(
                instance_uuid=self.uuid,
                expected=_as_list(expected_task_state),
                actual=current.task_state,
            )
        raise exception.UnexpectedVMStateError(
            instance_uuid=self.uuid,
            expected=_as_list(expected_vm_state),
            actual=current.vm_state,
        )

    def _save_metadata(self, session, model, desired: dict[str, Any]) -> None:
        rows = session.scalars(
            sa.select(model).where(model.instance_uuid == self.uuid, model.deleted == 0)
        ).all()
        existing = {row.key: row for row in rows}
        now = base.utcnow()
        for key, row in existing.items():
            if key not in desired:
                row.deleted = row.id
                row.deleted_at = now
            elif row.value != desired[key]:
                row.value = desired[key]
        for key, value in desired.items():
            if key not in existing:
                session.add(model(instance_uuid=self.uuid, key=key, value=value))

    @base.remotable
    def destroy(self) -> None:
        """Soft-delete the instance; its tags go for good.

        :raises ObjectActionError: the instance moved to another host
            meanwhile (the delete is left to that host).
        :raises InstanceNotFound: it is already gone.
        """
        if not self.obj_attr_is_set("id"):
            raise exception.ObjectActionError(action="destroy", reason="not created")
        model = models.Instance
        now = base.utcnow()
        stmt = sa.update(model).where(model.uuid == self.uuid, model.deleted == 0)
        if "host" in self:
            stmt = stmt.where(
                model.host.is_(None) if self.host is None else model.host == self.host
            )
        with engines.transaction(self._context.db_connection) as session:
            result = session.execute(
                stmt.values(deleted=model.id, deleted_at=now, updated_at=now)
            )
            if result.rowcount != 1:
                live = session.execute(
                    sa.select(model.host).where(
                        model.uuid == self.uuid, model.deleted == 0
                    )
                ).first()
                if live is None:
                    raise exception.InstanceNotFound(instance_id=self.uuid)
                raise exception.ObjectActionError(
                    action="destroy", reason="host changed"
                )
            session.execute(
                sa.delete(models.Tag).where(models.Tag.resource_id == self.uuid)
            )
        self.deleted = True
        self.deleted_at = now
        self.updated_at = now
        self.obj_reset_changes()


# Filters of InstanceList.get_by_filters --------------------------------

# Compared for equality (a list means any of its values).
_EXACT_FILTERS = (
    "uuid",
    "project_id",
    "user_id",
    "image_ref",
    "vm_state",
    "task_state",
    "power_state",
    "host",
    "node",
    "instance_type_id",
    "reservation_id",
    "key_name",
    "locked",
    "availability_zone",
    "launch_index",
    "config_drive",
    "cleaned",
)
# Matched as regular expressions, as the servers API's name filter is.
_REGEX_FILTERS = ("display_name", "hostname", "display_description")
# Names the servers API uses for the columns above.
_FILTER_ALIASES = {
    "name": "display_name",
    "description": "display_description",
    "image": "image_ref",
    "tenant_id": "project_id",
}


def _tag_names(value: Any) -> list[str]:
    if isinstance(value, str):
        return [tag for tag in value.split(",") if tag]
    return list(value)


def _has_tag(name: str):
    return sa.exists().where(
        models.Tag.resource_id == models.Instance.uuid, models.Tag.tag == name
    )


def _filter_conditions(context, filters: dict[str, Any]) -> list[Any]:
    """WHERE conditions for ``filters`` (see InstanceList.get_by_filters)."""
    model = models.Instance
    filters = {_FILTER_ALIASES.get(k, k): v for k, v in filters.items()}
    conditions = []
    if "deleted" in filters:
        soft_deleted = filters.get("soft_deleted")
        if filters["deleted"]:
            deleted = model.deleted != 0
            if soft_deleted is None or soft_deleted:
                deleted = sa.or_(deleted, model.vm_state == vm_states.SOFT_DELETED)
            conditions.append(deleted)
        else:
            conditions.append(model.deleted == 0)
            if not soft_deleted:
                conditions.append(
                    sa.or_(
                        model.vm_state != vm_states.SOFT_DELETED,
                        model.vm_state.is_(None),
                    )
                )
    elif context.read_deleted == "no":
        conditions.append(model.deleted == 0)
    elif context.read_deleted == "only":
        conditions.append(model.deleted != 0)
    if not filters.get("hidden"):
        conditions.append(sa.or_(model.hidden.is_(False), model.hidden.is_(None)))
    for name in _EXACT_FILTERS:
        if name in filters:
            conditions.append(_state_condition(getattr(model, name), filters[name]))
    for name in _REGEX_FILTERS:
        if filters.get(name) is not None:
            conditions.append(getattr(model, name).regexp_match(str(filters[name])))
    if filters.get("changes-since") is not None:
        conditions.append(model.updated_at >= base.db_value(filters["changes-since"]))
    if filters.get("changes-before") is not None:
        conditions.append(model.updated_at <= base.db_value(filters["changes-before"]))
    if "tags" in filters:
        conditions += [_has_tag(tag) for tag in _tag_names(filters["tags"])]
    if "tags-any" in filters:
        conditions.append(
            sa.or_(*[_has_tag(tag) for tag in _tag_names(filters["tags-any"])])
        )
    if "not-tags" in filters:
        conditions.append(
            sa.not_(sa.and_(*[_has_tag(t) for t in _tag_names(filters["not-tags"])]))
        )
    if "not-tags-any" in filters:
        conditions += [
            sa.not_(_has_tag(tag)) for tag in _tag_names(filters["not-tags-any"])
        ]
    return conditions


@base.NovaObjectRegistry.register
class InstanceList(base.ObjectListBase, base.NovaObject):
    # Version 2.0: Initial version
    # Version 2.1: get_counts; get_active_by_window_joined takes host
    VERSION = "2.1"

    fields = {"objects": fields.ListOfObjectsField("Instance")}

    @classmethod
    def _from_rows(cls, context, session, rows, expected_attrs) -> InstanceList:
        attrs = _expected_attrs(expected_attrs)
        uuids = [row.uuid for row in rows]
        loaded = Instance._load_optional(context, session, uuids, attrs)
        if "fault" in attrs:
            Instance._load_faults(context, loaded)
        result = cls(
            objects=[
                Instance._from_db_object(
                    context, Instance(), row, optional=loaded[row.uuid]
                )
                for row in rows
            ]
        )
        result._context = context
        result.obj_reset_changes()
        return result

    @classmethod
    def _get(cls, context, stmt: sa.Select, expected_attrs=()) -> InstanceList:
        with engines.transaction(context.db_connection) as session:
            rows = session.scalars(stmt).all()
            return cls._from_rows(context, session, rows, expected_attrs)

    @classmethod
    @base.remotable
    def get_by_filters(
        cls,
        context,
        filters: dict[str, Any],
        sort_key: str = "created_at",
        sort_dir: str = "desc",
        limit: int | None = None,
        marker: str | None = None,
        expected_attrs: Iterable[str] | None = None,
        use_slave: bool = False,
        sort_keys: Sequence[str] | None = None,
        sort_dirs: Sequence[str] | None = None,
    ) -> InstanceList:
        """A page of instances matching ``filters``, in the given order.

        Filters, named as the servers API names them or as the columns are:
        ``uuid``, ``project_id``/``tenant_id``, ``user_id``, ``vm_state``,
        ``task_state``, ``host``, ``node``, ``image``, ``key_name``,
        ``availability_zone``, ``locked``, … (exact; a list means any of its
        values); ``name``/``display_name``, ``hostname``, ``description``
        (regular expressions); ``changes-since``/``changes-before``
        (``updated_at`` bounds); ``deleted`` (with ``soft_deleted``);
        ``tags``, ``tags-any``, ``not-tags``, ``not-tags-any`` (lists or
        comma-separated strings). Unknown filters are ignored. Without
        ``deleted``, ``context.read_deleted`` decides.

        ``marker`` is the uuid of the last instance of the previous page.

        :raises MarkerNotFound: no instance of this cell has that uuid.
        """
        keys = list(sort_keys or [sort_key])
        dirs = list(sort_dirs or [sort_dir] * len(keys))
        dirs += [dirs[-1] if dirs else "desc"] * (len(keys) - len(dirs))
        # Pagination needs a total order: the id breaks every tie.
        if "id" not in keys:
            keys.append("id")
            dirs.append(dirs[0])
        with engines.transaction(context.db_connection) as session:
            marker_row = None
            if marker is not None:
                marker_row = session.scalars(
                    sa.select(models.Instance).where(models.Instance.uuid == marker)
                ).first()
                if marker_row is None:
                    raise exception.MarkerNotFound(marker=marker)
            query = session.query(models.Instance).filter(
                *_filter_conditions(context, filters)
            )
            query = sqlalchemyutils.paginate_query(
                query,
                models.Instance,
                limit,
                keys,
                marker=marker_row,
                sort_dirs=dirs,
            )
            return cls._from_rows(context, session, query.all(), expected_attrs)

    @classmethod
    def get_uuid_by_sort_filters(
        cls,
        context,
        sort_keys: Sequence[str],
        sort_dirs: Sequence[str],
        values: Mapping[str, Any],
    ) -> str | None:
        """The uuid of this cell's first instance that sorts after
        ``values`` (sort key -> value, as a column holds it) in the order
        of ``sort_keys``/``sort_dirs``; None if no instance does.

        A listing across cells places another cell's marker with it: asked
        in the reverse of the listing's order, it names the cell's last
        instance before the marker. Every row takes part, deleted ones too:
        only its place in the order matters.
        """
        with engines.transaction(context.db_connection) as session:
            query = sqlalchemyutils.paginate_query(
                session.query(models.Instance.uuid),
                models.Instance,
                1,
                list(sort_keys),
                marker=types.SimpleNamespace(**values),
                sort_dirs=list(sort_dirs),
            )
            row = query.first()
        return None if row is None else row.uuid

    @classmethod
    @base.remotable
    def get_by_host(
        cls, context, host: str, expected_attrs: Iterable[str] | None = None
    ) -> InstanceList:
        stmt = base.NovaPersistentObject._select(context, models.Instance)
        return cls._get(
            context,
            stmt.where(models.Instance.host == host).order_by(models.Instance.id),
            expected_attrs,
        )

    @classmethod
    @base.remotable
    def get_by_host_and_node(
        cls,
        context,
        host: str,
        node: str,
        expected_attrs: Iterable[str] | None = None,
    ) -> InstanceList:
        stmt = base.NovaPersistentObject._select(context, models.Instance).where(
            models.Instance.host == host, models.Instance.node == node
        )
        return cls._get(context, stmt.order_by(models.Instance.id), expected_attrs)

    @classmethod
    @base.remotable
    def get_active_by_window_joined(
        cls,
        context,
        begin,
        end=None,
        project_id: str | None = None,
        expected_attrs: Iterable[str] | None = None,
        host: str | None = None,
    ) -> InstanceList:
        """Instances that existed during ``[begin, end]``, deleted ones too:
        not terminated before ``begin``, launched (if at all) before ``end``
        (of ``project_id``, on ``host``, when given); in creation order."""
        begin, end = base.datetime_arg(begin), base.datetime_arg(end)
        model = models.Instance
        stmt = sa.select(model).where(
            sa.or_(model.terminated_at.is_(None), model.terminated_at > begin)
        )
        if end is not None:
            stmt = stmt.where(
                sa.or_(model.launched_at.is_(None), model.launched_at < end)
            )
        if project_id is not None:
            stmt = stmt.where(model.project_id == project_id)
        if host is not None:
            stmt = stmt.where(model.host == host)
        return cls._get(
            context, stmt.order_by(model.created_at, model.id), expected_attrs
        )

    @classmethod
    @base.remotable
    def get_counts(
        cls,
        context,
        project_id: str,
        user_id: str | None = None,
        exclude_uuids: Iterable[str] = (),
    ) -> dict[str, int]:
        """``instances``, ``cores`` and ``ram`` the project's (the user's)
        live instances of this cell use; soft-deleted ones use nothing, nor
        do those in ``exclude_uuids`` (counted elsewhere already)."""
        model = models.Instance
        stmt = sa.select(
            sa.func.count(model.id),
            sa.func.coalesce(sa.func.sum(model.vcpus), 0),
            sa.func.coalesce(sa.func.sum(model.memory_mb), 0),
        ).where(
            model.deleted == 0,
            model.project_id == project_id,
            sa.or_(model.vm_state.is_(None), model.vm_state != vm_states.SOFT_DELETED),
        )
        if user_id is not None:
            stmt = stmt.where(model.user_id == user_id)
        exclude_uuids = list(exclude_uuids)
        if exclude_uuids:
            stmt = stmt.where(model.uuid.not_in(exclude_uuids))
        with engines.transaction(context.db_connection) as session:
            instances, cores, ram = session.execute(stmt).one()
        return {"instances": instances, "cores": int(cores), "ram": int(ram)}

    @classmethod
    def get_all(cls, context, limit: int | None = None) -> InstanceList:
        stmt = base.NovaPersistentObject._select(context, models.Instance)
        return cls._get(context, stmt.order_by(models.Instance.id).limit(limit))

    @classmethod
    def get_page_oldest_first(
        cls, context, limit: int, marker: str | None = None
    ) -> InstanceList:
        """Up to ``limit`` instances in creation order, after ``marker``.

        ``marker`` is the uuid of the last instance of the previous page;
        ties on ``created_at`` are broken by id so pages never overlap.

        :raises MarkerNotFound: if no instance has the marker's uuid.
        """
        created_at, row_id = models.Instance.created_at, models.Instance.id
        stmt = base.NovaPersistentObject._select(context, models.Instance)
        with engines.transaction(context.db_connection) as session:
            if marker is not None:
                last = session.execute(
                    sa.select(created_at, row_id).where(models.Instance.uuid == marker)
                ).first()
                if last is None:
                    raise exception.MarkerNotFound(marker=marker)
                stmt = stmt.where(
                    sa.or_(
                        created_at > last.created_at,
                        sa.and_(created_at == last.created_at, row_id > last.id),
                    )
                )
            rows = session.scalars(stmt.order_by(created_at, row_id).limit(limit)).all()
            return cls._from_rows(context, session, rows, ())
