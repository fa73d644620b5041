"""nova-manage db online_data_migrations on every backend."""

from __future__ import annotations

import sqlalchemy as sa

from nova import context as nova_context
from nova.db import engines
from nova.db.main import models
from nova.objects import online_migrations
from tests.functional.cmd.conftest import add_compute_node, add_instance, sqlite_only


def compute_ids(url: str) -> dict[str, int | None]:
    with engines.transaction(url) as session:
        rows = session.execute(
            sa.select(models.Instance.uuid, models.Instance.compute_id)
        )
        return dict(rows.all())


def place(url: str, instance_uuid: str, host: str) -> None:
    with engines.transaction(url) as session:
        session.execute(
            sa.update(models.Instance)
            .where(models.Instance.uuid == instance_uuid)
            .values(host=host, node=host)
        )


def node_id(url: str, host: str) -> int:
    with engines.transaction(url) as session:
        return session.scalar(
            sa.select(models.ComputeNode.id).where(models.ComputeNode.host == host)
        )


def test_online_data_migrations_in_batches(nova_manage):
    cell = nova_manage.cell1
    add_compute_node(cell, "c1")
    placed = [add_instance(cell) for _ in range(3)]
    for instance_uuid in placed:
        place(cell, instance_uuid, "c1")
    unplaced = add_instance(cell)
    # On a node that no longer exists: found, never migrated.
    orphan = add_instance(cell)
    place(cell, orphan, "gone")

    first = nova_manage("db", "online_data_migrations", "--max-count", "2")

    assert first.code == 1, first.err
    assert "4 rows matched query populate_instance_compute_id, 2 migrated" in first.out
    assert sum(compute_ids(cell)[u] is not None for u in placed) == 2

    rest = nova_manage("db", "online_data_migrations")

    assert rest.code == 0, rest.err
    assert "Running batches of 50 until complete" in rest.out
    table = " ".join(rest.out.split())
    assert "| populate_instance_compute_id | 2 | 1 |" in table
    ids = compute_ids(cell)
    assert {ids[u] for u in placed} == {node_id(cell, "c1")}
    assert ids[unplaced] is None and ids[orphan] is None

    again = nova_manage("db", "online_data_migrations")
    assert again.code == 0
    assert "| populate_instance_compute_id | 1 | 0 |" in " ".join(again.out.split())


@sqlite_only
def test_online_data_migrations_refuses_a_bad_max_count(nova_manage):
    result = nova_manage("db", "online_data_migrations", "--max-count", "0")
    assert result.code == 127
    assert result.err.startswith("ERROR: ")


def broken_migration(context, max_count):
    raise RuntimeError("broken")


def finished_migration(context, max_count):
    return 0, 0


@sqlite_only
def test_a_failing_migration_is_reported_and_the_others_still_run(nova_manage):
    results = online_migrations.run_batch(
        nova_context.get_admin_context(), 50, [broken_migration, finished_migration]
    )

    assert [(r.name, r.failed) for r in results] == [
        ("broken_migration", True),
        ("finished_migration", False),
    ]


@sqlite_only
def test_failures_without_progress_exit_2(nova_manage, monkeypatch):
    monkeypatch.setattr(
        online_migrations, "MIGRATIONS", (broken_migration, finished_migration)
    )

    result = nova_manage("db", "online_data_migrations")

    assert result.code == 2
    assert "Some migrations failed" in result.err
    assert "| broken_migration | 0 | 0 |" in " ".join(result.out.split())
