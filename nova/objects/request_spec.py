"""Request specs: what an instance asked the scheduler for.

Written by the API with the build request and kept in the API database for
the instance's lifetime: later moves (resize, migrate, evacuate) schedule
from it again. The scheduler reads only this object, never the instance.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa
from oslo_versionedobjects import fields

from nova import exception
from nova.db import engines
from nova.db.api import models
from nova.objects import base
from nova.objects.image_meta import ImageMeta

# Per-request fields that must not outlive the request they were set for.
_TRANSIENT_FIELDS = ("id", "retry", "limits", "ignore_hosts", "requested_destination")


@base.NovaObjectRegistry.register
class SchedulerRetries(base.NovaObject):
    """The hosts already tried for this request."""

    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {
        "num_attempts": fields.IntegerField(),
        "hosts": fields.ObjectField("ComputeNodeList"),
    }


@base.NovaObjectRegistry.register
class Destination(base.NovaObject):
    """A host, node or cell the request must land on (admin-forced)."""

    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {
        "host": fields.StringField(),
        "node": fields.StringField(nullable=True),
        "cell": fields.ObjectField("CellMapping", nullable=True),
        "aggregates": fields.ListOfStringsField(nullable=True, default=None),
        "allow_cross_cell_move": fields.BooleanField(default=False),
    }


@base.NovaObjectRegistry.register
class RequestSpec(base.NovaObject):
    """The scheduling request of one instance (or of ``num_instances``)."""

    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {
        "id": fields.IntegerField(),
        "instance_uuid": fields.UUIDField(),
        "project_id": fields.StringField(nullable=True),
        "user_id": fields.StringField(nullable=True),
        "availability_zone": fields.StringField(nullable=True),
        "flavor": fields.ObjectField("Flavor", nullable=False),
        "image": fields.ObjectField("ImageMeta", nullable=True),
        "num_instances": fields.IntegerField(default=1),
        "ignore_hosts": fields.ListOfStringsField(nullable=True),
        "force_hosts": fields.ListOfStringsField(nullable=True),
        "force_nodes": fields.ListOfStringsField(nullable=True),
        "retry": fields.ObjectField("SchedulerRetries", nullable=True),
        "limits": fields.ObjectField("SchedulerLimits", nullable=True),
        "instance_group": fields.ObjectField("InstanceGroup", nullable=True),
        "scheduler_hints": fields.DictOfListOfStringsField(nullable=True),
        "requested_destination": fields.ObjectField("Destination", nullable=True),
        "is_bfv": fields.BooleanField(default=False),
    }

    @classmethod
    def from_components(
        cls,
        context,
        instance_uuid: str,
        image: ImageMeta | dict[str, Any] | None,
        flavor,
        numa_topology=None,
        pci_requests=None,
        filter_properties: dict[str, Any] | None = None,
        instance_group=None,
        availability_zone: str | None = None,
        security_groups=None,
        project_id: str | None = None,
        user_id: str | None = None,
    ) -> RequestSpec:
        """A spec from the pieces the API has at hand when it accepts a
        server. ``filter_properties`` may carry ``scheduler_hints``,
        ``force_hosts``, ``force_nodes`` and ``ignore_hosts``.

        ``numa_topology``, ``pci_requests`` and ``security_groups`` are
        accepted for upstream's signature and not used yet.
        """
        filter_properties = filter_properties or {}
        if isinstance(image, dict):
            image = ImageMeta.from_dict(image)
        hints = filter_properties.get("scheduler_hints") or {}
        spec = cls(
            context,
            instance_uuid=instance_uuid,
            project_id=project_id if project_id is not None else context.project_id,
            user_id=user_id if user_id is not None else context.user_id,
            availability_zone=availability_zone,
            flavor=flavor,
            image=image,
            num_instances=1,
            ignore_hosts=filter_properties.get("ignore_hosts"),
            force_hosts=filter_properties.get("force_hosts"),
            force_nodes=filter_properties.get("force_nodes"),
            retry=None,
            limits=None,
            instance_group=instance_group,
            scheduler_hints={
                key: value if isinstance(value, list) else [str(value)]
                for key, value in hints.items()
            },
            requested_destination=None,
            is_bfv=False,
        )
        return spec

    def get_scheduler_hint(self, name: str, default: Any = None) -> Any:
        """A hint's value: the single value of a one-item list, else the list."""
        if "scheduler_hints" not in self or not self.scheduler_hints:
            return default
        value = self.scheduler_hints.get(name)
        if value is None:
            return default
        return value[0] if len(value) == 1 else value

    # -- persistence ------------------------------------------------------

    @classmethod
    def _from_db_object(cls, context, obj, db_row, skip=()):
        stored = base.NovaObject.obj_from_primitive(
            json.loads(db_row.spec), context=context
        )
        for name in obj.fields:
            if name in stored:
                setattr(obj, name, getattr(stored, name))
        obj.id = db_row.id
        for name in _TRANSIENT_FIELDS:
            if name != "id":
                setattr(obj, name, None)
        obj._context = context
        obj.obj_reset_changes()
        return obj

    def _spec_document(self) -> str:
        stored = self.obj_clone()
        for name in _TRANSIENT_FIELDS:
            if name in stored:
                delattr(stored, name)
        return json.dumps(stored.obj_to_primitive(), default=str)

    @classmethod
    def get_by_instance_uuid(cls, context, instance_uuid: str) -> RequestSpec:
        with engines.transaction(context.api_db_connection) as session:
            row = session.scalars(
                sa.select(models.RequestSpec).where(
                    models.RequestSpec.instance_uuid == instance_uuid
                )
            ).first()
            if row is None:
                raise exception.RequestSpecNotFound(instance_uuid=instance_uuid)
        return cls._from_db_object(context, cls(), row)

    @classmethod
    def get_by_instance_uuids(
        cls, context, instance_uuids: Iterable[str]
    ) -> dict[str, RequestSpec]:
        """instance uuid -> its request spec, in one query; instances
        without one are left out."""
        uuids = list(instance_uuids)
        if not uuids:
            return {}
        stmt = sa.select(models.RequestSpec).where(
            models.RequestSpec.instance_uuid.in_(uuids)
        )
        with engines.transaction(context.api_db_connection) as session:
            rows = session.scalars(stmt).all()
        return {
            row.instance_uuid: cls._from_db_object(context, cls(), row) for row in rows
        }

    def _new_row(self) -> models.RequestSpec:
        """The row this new spec is stored as."""
        return models.RequestSpec(
            instance_uuid=self.instance_uuid, spec=self._spec_document()
        )

    def _stored_as(self, row: models.RequestSpec) -> None:
        """Take the id of the row just stored; its fields count as saved."""
        self.id = row.id
        self.obj_reset_changes()

    def create(self) -> None:
        if self.obj_attr_is_set("id"):
            raise exception.ObjectActionError(action="create", reason="already created")
        with engines.transaction(self._context.api_db_connection) as session:
            row = self._new_row()
            session.add(row)
            session.flush()
        self._stored_as(row)

    def save(self) -> None:
        with engines.transaction(self._context.api_db_connection) as session:
            result = session.execute(
                sa.update(models.RequestSpec)
                .where(models.RequestSpec.instance_uuid == self.instance_uuid)
                .values(spec=self._spec_document(), updated_at=base.utcnow())
            )
            if result.rowcount != 1:
                raise exception.RequestSpecNotFound(instance_uuid=self.instance_uuid)
        self.obj_reset_changes()

    def destroy(self) -> None:
        with engines.transaction(self._context.api_db_connection) as session:
            result = session.execute(
                sa.delete(models.RequestSpec).where(
                    models.RequestSpec.instance_uuid == self.instance_uuid
                )
            )
            if result.rowcount != 1:
                raise exception.RequestSpecNotFound(instance_uuid=self.instance_uuid)
