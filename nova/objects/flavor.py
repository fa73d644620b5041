"""Flavors: the sizes a server can be built with, in the API database.

A flavor names its resources (vCPUs, RAM, root/ephemeral/swap disk), its
extra specs, whether it is public and which projects may use it when it is
not. Instances keep a copy of the flavor they were built with, so deleting
a flavor never changes an existing server.
"""

from __future__ import annotations

import sqlalchemy as sa
from oslo_db.sqlalchemy import utils as sqlalchemyutils
from oslo_versionedobjects import fields
from sqlalchemy import orm

from nova import exception
from nova.db import engines
from nova.db.api import models
from nova.notifications import events as notification_events
from nova.objects import api_db, base

# Columns a flavor list may be sorted by (the API's sort_key values).
SORT_KEYS = (
    "created_at",
    "description",
    "disabled",
    "ephemeral_gb",
    "flavorid",
    "id",
    "is_public",
    "memory_mb",
    "name",
    "root_gb",
    "rxtx_factor",
    "swap",
    "updated_at",
    "vcpu_weight",
    "vcpus",
)

_COLUMNS = (
    "id",
    "name",
    "memory_mb",
    "vcpus",
    "root_gb",
    "ephemeral_gb",
    "flavorid",
    "swap",
    "rxtx_factor",
    "vcpu_weight",
    "disabled",
    "is_public",
    "description",
    "created_at",
    "updated_at",
)


@base.NovaObjectRegistry.register
class Flavor(api_db.APIDBObject, base.NovaPersistentObject, base.NovaObject):
    """A flavor; ``flavorid`` is its public id, ``id`` the database's."""

    # Version 1.0: Initial version
    # Version 1.1: Added save_projects(), save_extra_specs()
    # Version 1.2: Added description field
    VERSION = "1.2"

    fields = {
        "id": fields.IntegerField(),
        "name": fields.StringField(nullable=True),
        "memory_mb": fields.IntegerField(),
        "vcpus": fields.IntegerField(),
        "root_gb": fields.IntegerField(),
        "ephemeral_gb": fields.IntegerField(),
        "flavorid": fields.StringField(),
        "swap": fields.IntegerField(),
        "rxtx_factor": fields.FloatField(nullable=True, default=1.0),
        "vcpu_weight": fields.IntegerField(nullable=True),
        "disabled": fields.BooleanField(),
        "is_public": fields.BooleanField(),
        "extra_specs": fields.DictOfStringsField(),
        "projects": fields.ListOfStringsField(),
        "description": fields.StringField(nullable=True),
    }

    def obj_make_compatible(self, primitive, target_version):
        super().obj_make_compatible(primitive, target_version)
        if tuple(int(p) for p in target_version.split(".")) < (1, 2):
            primitive.pop("description", None)

    _model = models.Flavors
    _loaded_with = ("extra_specs", "projects")

    def _fill_from_row(self, db_row: models.Flavors) -> None:
        for name in _COLUMNS:
            value = getattr(db_row, name)
            if name in ("root_gb", "ephemeral_gb", "swap") and value is None:
                value = 0
            if name in ("disabled", "is_public"):
                value = bool(value)
            setattr(self, name, value)
        # The API database deletes flavors for real; these exist for the
        # copies instances keep.
        self.deleted = False
        self.deleted_at = None
        self.extra_specs = {spec.key: spec.value for spec in db_row.extra_specs}
        self.projects = [access.project_id for access in db_row.projects]

    @classmethod
    def get_by_id(cls, context, flavor_id: int) -> Flavor:
        return cls._get(
            context,
            models.Flavors.id == flavor_id,
            exception.FlavorNotFound(flavor_id=flavor_id),
        )

    @classmethod
    def get_by_flavor_id(cls, context, flavorid: str) -> Flavor:
        """The flavor whose public id is ``flavorid``.

        A private flavor exists for admins and for the projects it was
        shared with; for anyone else it is not found.
        """
        criterion = models.Flavors.flavorid == str(flavorid)
        if not context.is_admin:
            criterion = sa.and_(
                criterion,
                sa.or_(
                    models.Flavors.is_public.is_(True),
                    models.Flavors.projects.any(project_id=context.project_id),
                ),
            )
        return cls._get(
            context, criterion, exception.FlavorNotFound(flavor_id=flavorid)
        )

    @classmethod
    def get_by_name(cls, context, name: str) -> Flavor:
        return cls._get(
            context,
            models.Flavors.name == name,
            exception.FlavorNotFound(flavor_id=name),
        )

    def create(self) -> None:
        """Insert the flavor, its extra specs and project access.

        :raises FlavorExists: another flavor has this name.
        :raises FlavorIdExists: another flavor has this flavorid.
        """
        if self.obj_attr_is_set("id"):
            raise exception.ObjectActionError(action="create", reason="already created")
        values = {
            name: getattr(self, name)
            for name in _COLUMNS
            if name not in ("id", "created_at", "updated_at")
            and self.obj_attr_is_set(name)
        }
        extra_specs = self.extra_specs if self.obj_attr_is_set("extra_specs") else {}
        projects = self.projects if self.obj_attr_is_set("projects") else []
        try:
            with engines.transaction(self._context.api_db_connection) as session:
                self._raise_if_taken(session)
                row = models.Flavors(**values)
                row.extra_specs = [
                    models.FlavorExtraSpecs(key=k, value=v)
                    for k, v in extra_specs.items()
                ]
                row.projects = [models.FlavorProjects(project_id=p) for p in projects]
                session.add(row)
                session.flush()
                self._from_db_object(self._context, self, row)
        except sa.exc.IntegrityError as exc:
            # A concurrent create won between our check and our insert.
            with engines.transaction(self._context.api_db_connection) as session:
                self._raise_if_taken(session)
            raise exception.FlavorExists(name=self.name) from exc
        notification_events.flavor(self._context, self, "create")

    def _raise_if_taken(self, session: orm.Session) -> None:
        taken = session.execute(
            sa.select(models.Flavors.name, models.Flavors.flavorid).where(
                sa.or_(
                    models.Flavors.name == self.name,
                    models.Flavors.flavorid == self.flavorid,
                )
            )
        ).first()
        if taken is None:
            return
        if taken.flavorid == self.flavorid:
            raise exception.FlavorIdExists(flavor_id=self.flavorid)
        raise exception.FlavorExists(name=self.name)

    def save(self) -> None:
        """Store a changed description (the only mutable column)."""
        changes = self.obj_get_changes()
        if not changes:
            return
        unsupported = set(changes) - {"description"}
        if unsupported:
            raise exception.ObjectActionError(
                action="save",
                reason=f"only the description can change, not {sorted(unsupported)}",
            )
        with engines.transaction(self._context.api_db_connection) as session:
            result = session.execute(
                sa.update(models.Flavors)
                .where(models.Flavors.flavorid == self.flavorid)
                .values(description=changes["description"])
            )
            if result.rowcount == 0:
                raise exception.FlavorNotFound(flavor_id=self.flavorid)
        self.obj_reset_changes()
        notification_events.flavor(self._context, self, "update")

    def _row_id(self, session: orm.Session) -> int:
        row_id = session.scalar(
            sa.select(models.Flavors.id).where(models.Flavors.flavorid == self.flavorid)
        )
        if row_id is None:
            raise exception.FlavorNotFound(flavor_id=self.flavorid)
        return row_id

    def update_extra_specs(self, specs: dict[str, str]) -> None:
        """Set these extra specs (adding or replacing), all or none."""
        spec_model = models.FlavorExtraSpecs
        with engines.transaction(self._context.api_db_connection) as session:
            flavor_id = self._row_id(session)
            for key, value in specs.items():
                result = session.execute(
                    sa.update(spec_model)
                    .where(spec_model.flavor_id == flavor_id, spec_model.key == key)
                    .values(value=value, updated_at=base.utcnow())
                )
                if result.rowcount == 0:
                    session.add(spec_model(flavor_id=flavor_id, key=key, value=value))
        self.extra_specs = {**self.extra_specs, **specs}
        self.obj_reset_changes(["extra_specs"])
        notification_events.flavor(self._context, self, "update")

    def delete_extra_spec(self, key: str) -> None:
        """:raises FlavorExtraSpecsNotFound: the flavor has no such spec."""
        spec_model = models.FlavorExtraSpecs
        with engines.transaction(self._context.api_db_connection) as session:
            flavor_id = self._row_id(session)
            result = session.execute(
                sa.delete(spec_model).where(
                    spec_model.flavor_id == flavor_id, spec_model.key == key
                )
            )
            if result.rowcount == 0:
                raise exception.FlavorExtraSpecsNotFound(
                    flavor_id=self.flavorid, extra_specs_key=key
                )
        self.extra_specs = {k: v for k, v in self.extra_specs.items() if k != key}
        self.obj_reset_changes(["extra_specs"])
        notification_events.flavor(self._context, self, "update")

    def add_access(self, project_id: str) -> None:
        """Let ``project_id`` use this (private) flavor.

        :raises FlavorAccessExists: it already may.
        """
        try:
            with engines.transaction(self._context.api_db_connection) as session:
                session.add(
                    models.FlavorProjects(
                        flavor_id=self._row_id(session), project_id=project_id
                    )
                )
        except sa.exc.IntegrityError as exc:
            raise exception.FlavorAccessExists(
                flavor_id=self.flavorid, project_id=project_id
            ) from exc
        self.projects = [*self.projects, project_id]
        self.obj_reset_changes(["projects"])
        notification_events.flavor(self._context, self, "update")

    def remove_access(self, project_id: str) -> None:
        """:raises FlavorAccessNotFound: the project had no access."""
        access = models.FlavorProjects
        with engines.transaction(self._context.api_db_connection) as session:
            result = session.execute(
                sa.delete(access).where(
                    access.flavor_id == self._row_id(session),
                    access.project_id == project_id,
                )
            )
            if result.rowcount == 0:
                raise exception.FlavorAccessNotFound(
                    flavor_id=self.flavorid, project_id=project_id
                )
        self.projects = [p for p in self.projects if p != project_id]
        self.obj_reset_changes(["projects"])
        notification_events.flavor(self._context, self, "update")

    def destroy(self) -> None:
        """Delete the flavor with its extra specs and project access."""
        with engines.transaction(self._context.api_db_connection) as session:
            row = self._find_row(
                session,
                models.Flavors.flavorid == self.flavorid,
                exception.FlavorNotFound(flavor_id=self.flavorid),
            )
            session.delete(row)
        notification_events.flavor(self._context, self, "delete")


@base.NovaObjectRegistry.register
class FlavorList(base.ObjectListBase, base.NovaObject):
    VERSION = "1.1"

    fields = {"objects": fields.ListOfObjectsField("Flavor")}

    @classmethod
    def get_all(
        cls,
        context,
        inactive: bool = False,
        filters: dict | None = None,
        sort_key: str = "flavorid",
        sort_dir: str = "asc",
        limit: int | None = None,
        marker: str | None = None,
    ) -> FlavorList:
        """Flavors matching ``filters``, one page after ``marker``.

        ``filters``: ``min_memory_mb``, ``min_root_gb``, ``disabled`` and
        ``is_public`` (True: public ones plus the private ones the caller's
        project may use; False: private only; None: all).

        :raises MarkerNotFound: no flavor has the marker's flavorid.
        """
        filters = filters or {}
        model = models.Flavors
        with engines.transaction(context.api_db_connection) as session:
            query = session.query(model).options(*Flavor._load_options())
            if not inactive and filters.get("disabled") is not None:
                query = query.filter(model.disabled == filters["disabled"])
            if "min_memory_mb" in filters:
                query = query.filter(model.memory_mb >= filters["min_memory_mb"])
            if "min_root_gb" in filters:
                query = query.filter(model.root_gb >= filters["min_root_gb"])
            is_public = filters.get("is_public", None)
            if is_public is not None:
                visible = [model.is_public == is_public]
                if is_public and context.project_id is not None:
                    visible.append(model.projects.any(project_id=context.project_id))
                query = query.filter(sa.or_(*visible))
            marker_row = None
            if marker is not None:
                marker_row = (
                    session.query(model).filter(model.flavorid == marker).first()
                )
                if marker_row is None:
                    raise exception.MarkerNotFound(marker=marker)
            query = sqlalchemyutils.paginate_query(
                query,
                model,
                limit,
                [sort_key, "id"],
                marker=marker_row,
                sort_dir=sort_dir,
            )
            return cls._from_db_rows(context, Flavor, query.all())
