"""Migrations in a cell database."""

import sqlalchemy as sa

from nova import objects
from nova.db import engines
from nova.db.main import models
from nova.objects import migration


def _migration(ctxt, source, dest, status):
    record = objects.Migration(
        ctxt,
        source_compute=source,
        dest_compute=dest,
        status=status,
        migration_type="migration",
    )
    record.create()
    return record


def test_in_progress_count_by_host_sees_both_ends_and_skips_finished(ctxt):
    _migration(ctxt, "h1", "h2", "migrating")
    _migration(ctxt, "h3", "h1", "pre-migrating")
    for finished in migration.FINISHED_MIGRATION_STATUSES:
        _migration(ctxt, "h1", "h2", finished)
    deleted = _migration(ctxt, "h1", "h2", "running")
    with engines.transaction(ctxt.db_connection) as session:
        session.execute(
            sa.update(models.Migration)
            .where(models.Migration.id == deleted.id)
            .values(deleted=models.Migration.id)
        )

    count = objects.MigrationList.get_count_in_progress_by_host
    assert count(ctxt, "h1") == 2
    assert count(ctxt, "h2") == 1
    assert count(ctxt, "h4") == 0
