"""Quota limits as stored in the API database.

Three tables hold them, one row per resource: ``quota_classes`` (limits of a
named class; ``default`` is the one in use), ``quotas`` (a project's) and
``project_user_quotas`` (a user's within a project). A limit is a number,
-1 for unlimited. Which stored limit applies, and what applies when none is
stored, is :mod:`nova.quota`'s business; this object only reads and writes
the rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy import orm

from nova.db import engines
from nova.db.api import models
from nova.objects import base


def _limits(context, model: type, *criteria: Any) -> dict[str, int | None]:
    """resource -> hard limit of the rows of ``model`` matching ``criteria``."""
    stmt = sa.select(model.resource, model.hard_limit).where(*criteria)
    with engines.transaction(context.api_db_connection) as session:
        return {resource: limit for resource, limit in session.execute(stmt)}


def _upsert(
    session: orm.Session, model: type, owner: dict[str, str], resource: str, limit: int
) -> None:
    """Set the owner's limit of ``resource``, adding the row if it has none."""
    result = session.execute(
        sa.update(model)
        .where(*(getattr(model, k) == v for k, v in owner.items()))
        .where(model.resource == resource)
        .values(hard_limit=limit)
    )
    if result.rowcount == 0:
        session.add(model(**owner, resource=resource, hard_limit=limit))


@base.NovaObjectRegistry.register
class Quotas(base.NovaObject):
    """Class methods over the stored limits; an instance holds nothing."""

    # Version 1.0: Initial version
    VERSION = "1.0"

    fields: dict[str, Any] = {}

    @classmethod
    def get_all_class_by_name(cls, context, class_name: str) -> dict[str, int | None]:
        """resource -> limit stored for the quota class ``class_name``."""
        return _limits(
            context, models.QuotaClass, models.QuotaClass.class_name == class_name
        )

    @classmethod
    def get_all_by_project(cls, context, project_id: str) -> dict[str, int | None]:
        """resource -> limit stored for the project."""
        return _limits(context, models.Quota, models.Quota.project_id == project_id)

    @classmethod
    def get_all_by_project_and_user(
        cls, context, project_id: str, user_id: str
    ) -> dict[str, int | None]:
        """resource -> limit stored for the user within the project (the
        project's own limits are not included)."""
        return _limits(
            context,
            models.ProjectUserQuota,
            models.ProjectUserQuota.project_id == project_id,
            models.ProjectUserQuota.user_id == user_id,
        )

    @classmethod
    def set_class_limits(
        cls, context, class_name: str, limits: Mapping[str, int]
    ) -> None:
        """Store the quota class's limits (resource -> limit), all at once."""
        with engines.transaction(context.api_db_connection) as session:
            for resource, limit in limits.items():
                _upsert(
                    session,
                    models.QuotaClass,
                    {"class_name": class_name},
                    resource,
                    limit,
                )

    @classmethod
    def set_limits(
        cls,
        context,
        project_id: str,
        limits: Mapping[str, int],
        user_id: str | None = None,
    ) -> None:
        """Store the project's limits, or the user's within it with
        ``user_id`` (resource -> limit), all at once."""
        if user_id is None:
            model, owner = models.Quota, {"project_id": project_id}
        else:
            model = models.ProjectUserQuota
            owner = {"project_id": project_id, "user_id": user_id}
        with engines.transaction(context.api_db_connection) as session:
            for resource, limit in limits.items():
                _upsert(session, model, owner, resource, limit)

    @classmethod
    def destroy_all_by_project(cls, context, project_id: str) -> None:
        """Forget the limits stored for the project and for all its users."""
        with engines.transaction(context.api_db_connection) as session:
            session.execute(
                sa.delete(models.ProjectUserQuota).where(
                    models.ProjectUserQuota.project_id == project_id
                )
            )
            session.execute(
                sa.delete(models.Quota).where(models.Quota.project_id == project_id)
            )

    @classmethod
    def destroy_all_by_project_and_user(
        cls, context, project_id: str, user_id: str
    ) -> None:
        """Forget the limits stored for the user within the project."""
        with engines.transaction(context.api_db_connection) as session:
            session.execute(
                sa.delete(models.ProjectUserQuota).where(
                    models.ProjectUserQuota.project_id == project_id,
                    models.ProjectUserQuota.user_id == user_id,
                )
            )
