"""Host aggregates: named sets of compute hosts with key/value metadata.

Aggregates live in the API database. The scheduler reads them (availability
zones, tenant isolation, per-aggregate weigher multipliers, extra-spec
matching); the os-aggregates API writes them and mirrors membership into
Placement aggregates. An aggregate whose metadata has ``availability_zone``
defines that zone for its hosts.
"""

from __future__ import annotations

import uuid as uuidlib

import sqlalchemy as sa
from oslo_versionedobjects import fields
from sqlalchemy import orm

from nova import exception
from nova.db import engines
from nova.db.api import models
from nova.objects import api_db, base

AZ_METADATA_KEY = "availability_zone"


@base.NovaObjectRegistry.register
class Aggregate(api_db.APIDBObject, base.NovaTimestampObject, base.NovaObject):
    """An aggregate with its hosts and metadata.

    ``availability_zone`` mirrors the metadata key of that name; setting it
    before :meth:`create` or :meth:`save` writes the metadata.
    """

    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {
        "id": fields.IntegerField(),
        "uuid": fields.UUIDField(),
        "name": fields.StringField(),
        "hosts": fields.ListOfStringsField(nullable=True, default=[]),
        "metadata": fields.DictOfStringsField(nullable=True, default={}),
        "availability_zone": fields.StringField(nullable=True),
    }

    _model = models.Aggregate
    _loaded_with = ("hosts", "metadata_items")

    def _fill_from_row(self, db_row: models.Aggregate) -> None:
        self.id = db_row.id
        self.uuid = db_row.uuid
        self.name = db_row.name
        self.created_at = db_row.created_at
        self.updated_at = db_row.updated_at
        self.hosts = sorted(host.host for host in db_row.hosts)
        self.metadata = {item.key: item.value for item in db_row.metadata_items}
        self.availability_zone = self.metadata.get(AZ_METADATA_KEY)

    @classmethod
    def get_by_id(cls, context, aggregate_id: int) -> Aggregate:
        return cls._get(
            context,
            models.Aggregate.id == aggregate_id,
            exception.AggregateNotFound(aggregate_id=aggregate_id),
        )

    @classmethod
    def get_by_uuid(cls, context, aggregate_uuid: str) -> Aggregate:
        return cls._get(
            context,
            models.Aggregate.uuid == aggregate_uuid,
            exception.AggregateNotFound(aggregate_id=aggregate_uuid),
        )

    def _load_row(self, session: orm.Session) -> models.Aggregate:
        return self._find_row(
            session,
            models.Aggregate.id == self.id,
            exception.AggregateNotFound(aggregate_id=self.id),
        )

    def _metadata_to_write(self) -> dict[str, str | None]:
        metadata = dict(self.metadata) if self.obj_attr_is_set("metadata") else {}
        if "availability_zone" in self.obj_what_changed():
            metadata[AZ_METADATA_KEY] = self.availability_zone
        return metadata

    def create(self) -> None:
        """Insert the aggregate with its metadata (and hosts, if set).

        :raises AggregateNameExists: another aggregate has this name.
        """
        if self.obj_attr_is_set("id"):
            raise exception.ObjectActionError(action="create", reason="already created")
        if not self.obj_attr_is_set("uuid"):
            self.uuid = str(uuidlib.uuid4())
        metadata = {k: v for k, v in self._metadata_to_write().items() if v}
        hosts = self.hosts if self.obj_attr_is_set("hosts") else []
        try:
            with engines.transaction(self._context.api_db_connection) as session:
                self._raise_if_name_taken(session, self.name)
                row = models.Aggregate(uuid=self.uuid, name=self.name)
                row.metadata_items = [
                    models.AggregateMetadata(key=k, value=v)
                    for k, v in metadata.items()
                ]
                row.hosts = [models.AggregateHost(host=h) for h in hosts]
                session.add(row)
                session.flush()
                self._from_db_object(self._context, self, row)
        except sa.exc.IntegrityError as exc:
            raise exception.AggregateNameExists(aggregate_name=self.name) from exc

    @staticmethod
    def _raise_if_name_taken(session, name, other_than=None) -> None:
        query = sa.select(models.Aggregate.id).where(models.Aggregate.name == name)
        if other_than is not None:
            query = query.where(models.Aggregate.id != other_than)
        if session.execute(query).first() is not None:
            raise exception.AggregateNameExists(aggregate_name=name)

    def save(self) -> None:
        """Store a changed name and/or availability zone.

        :raises AggregateNameExists: another aggregate has the new name.
        """
        changes = self.obj_what_changed()
        unsupported = changes - {"name", "availability_zone"}
        if unsupported:
            raise exception.ObjectActionError(
                action="save",
                reason=f"use add_host/update_metadata for {sorted(unsupported)}",
            )
        if not changes:
            return
        try:
            with engines.transaction(self._context.api_db_connection) as session:
                row = self._load_row(session)
                if "name" in changes:
                    self._raise_if_name_taken(session, self.name, other_than=self.id)
                    row.name = self.name
                if "availability_zone" in changes:
                    _apply_metadata(
                        row, {AZ_METADATA_KEY: self.availability_zone or None}
                    )
                session.flush()
                self._from_db_object(self._context, self, row)
        except sa.exc.IntegrityError as exc:
            raise exception.AggregateNameExists(aggregate_name=self.name) from exc

    def update_metadata(self, updates: dict[str, str | None]) -> None:
        """Set metadata keys; a key whose value is None is removed.

        :raises AggregateMetadataNotFound: a key to remove is not set.
        """
        with engines.transaction(self._context.api_db_connection) as session:
            row = self._load_row(session)
            present = {item.key for item in row.metadata_items}
            for key, value in updates.items():
                if value is None and key not in present:
                    raise exception.AggregateMetadataNotFound(
                        aggregate_id=self.id, metadata_key=key
                    )
            _apply_metadata(row, updates)
            session.flush()
            self._from_db_object(self._context, self, row)

    def add_host(self, host: str) -> None:
        """:raises AggregateHostExists: ``host`` is already a member."""
        try:
            with engines.transaction(self._context.api_db_connection) as session:
                row = self._load_row(session)
                if any(member.host == host for member in row.hosts):
                    raise exception.AggregateHostExists(aggregate_id=self.id, host=host)
                row.hosts.append(models.AggregateHost(host=host))
                session.flush()
                self._from_db_object(self._context, self, row)
        except sa.exc.IntegrityError as exc:
            # A concurrent add of the same host won.
            raise exception.AggregateHostExists(
                aggregate_id=self.id, host=host
            ) from exc

    def delete_host(self, host: str) -> None:
        """:raises AggregateHostNotFound: ``host`` is not a member."""
        with engines.transaction(self._context.api_db_connection) as session:
            row = self._load_row(session)
            member = next((m for m in row.hosts if m.host == host), None)
            if member is None:
                raise exception.AggregateHostNotFound(aggregate_id=self.id, host=host)
            row.hosts.remove(member)
            session.flush()
            self._from_db_object(self._context, self, row)

    def destroy(self) -> None:
        """Delete the aggregate with its hosts and metadata."""
        with engines.transaction(self._context.api_db_connection) as session:
            session.delete(self._load_row(session))


def _apply_metadata(row: models.Aggregate, updates: dict[str, str | None]) -> None:
    items = {item.key: item for item in row.metadata_items}
    for key, value in updates.items():
        if value is None:
            if key in items:
                row.metadata_items.remove(items[key])
        elif key in items:
            items[key].value = value
        else:
            row.metadata_items.append(models.AggregateMetadata(key=key, value=value))


@base.NovaObjectRegistry.register
class AggregateList(api_db.APIDBObjectList, base.ObjectListBase, base.NovaObject):
    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {"objects": fields.ListOfObjectsField("Aggregate")}

    _item_class = Aggregate

    @classmethod
    def get_all(cls, context) -> AggregateList:
        return cls._get(context)

    @classmethod
    def get_by_host(cls, context, host: str, key: str | None = None) -> AggregateList:
        """Aggregates ``host`` belongs to; with ``key``, only those whose
        metadata has that key."""
        criteria = [models.Aggregate.hosts.any(host=host)]
        if key is not None:
            criteria.append(models.Aggregate.metadata_items.any(key=key))
        return cls._get(context, *criteria)

    @classmethod
    def get_by_metadata(
        cls, context, key: str | None = None, value: str | None = None
    ) -> AggregateList:
        """Aggregates with metadata ``key`` (and, if given, that ``value``)."""
        match = {}
        if key is not None:
            match["key"] = key
        if value is not None:
            match["value"] = value
        return cls._get(context, models.Aggregate.metadata_items.any(**match))
