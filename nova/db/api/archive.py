"""The API database's side of archiving instances.

The API database does not soft delete and has no shadow tables: once a
cell archives an instance, its mapping, request spec and server group
membership are of no use to anyone and are deleted, as upstream does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import sqlalchemy as sa

from nova.db import engines
from nova.db.api import models

INSTANCE_RECORDS = (
    models.InstanceMapping,
    models.RequestSpec,
    models.InstanceGroupMember,
)


def delete_instance_records(connection: str, instance_uuids: Sequence[str]) -> Counter:
    """Delete the API records of these (archived) instances; how many rows
    went, per table."""
    deleted: Counter = Counter()
    if not instance_uuids:
        return deleted
    with engines.transaction(connection) as session:
        for model in INSTANCE_RECORDS:
            stmt = sa.delete(model).where(model.instance_uuid.in_(instance_uuids))
            count = session.execute(stmt).rowcount
            if count:
                deleted[model.__tablename__] = count
    return deleted
