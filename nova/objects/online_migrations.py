"""Online data migrations: live data brought up to date after an upgrade.

``nova-manage db online_data_migrations`` runs :data:`MIGRATIONS` in
batches while the services keep running. A migration is a function
``(context, max_count) -> (found, done)``: how many records still need it,
and how many of at most ``max_count`` it migrated now. It must be safe to
run again at any time and concurrently with the services, and it finds
nothing once its work is complete.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

import sqlalchemy as sa
from oslo_log import log as logging

from nova.db import engines
from nova.db.main import models

LOG = logging.getLogger(__name__)

DEFAULT_BATCH = 50

Migration = Callable[..., tuple[int, int]]


@dataclasses.dataclass(frozen=True)
class MigrationResult:
    name: str
    found: int
    done: int
    failed: bool = False


def populate_instance_compute_id(context, max_count: int) -> tuple[int, int]:
    """Record the compute node id of live instances that only name their
    host and node (instances built before the build flow recorded it)."""
    instance, node = models.Instance, models.ComputeNode
    missing = (
        instance.deleted == 0,
        instance.compute_id.is_(None),
        instance.host.is_not(None),
        instance.node.is_not(None),
    )
    on_its_node = sa.and_(
        node.host == instance.host,
        node.hypervisor_hostname == instance.node,
        node.deleted == 0,
    )
    with engines.transaction(context.db_connection) as session:
        found = session.scalar(sa.select(sa.func.count(instance.id)).where(*missing))
        rows = session.execute(
            sa.select(instance.id, node.id)
            .join(node, on_its_node)
            .where(*missing)
            .order_by(instance.id)
            .limit(max_count)
        ).all()
        done = 0
        for instance_id, node_id in rows:
            result = session.execute(
                sa.update(instance)
                .where(instance.id == instance_id, instance.compute_id.is_(None))
                .values(compute_id=node_id)
            )
            done += result.rowcount
    return found or 0, done


MIGRATIONS: tuple[Migration, ...] = (populate_instance_compute_id,)


def run_batch(
    context, max_count: int, migrations: Sequence[Migration] | None = None
) -> list[MigrationResult]:
    """Run the migrations (default :data:`MIGRATIONS`) in order until
    ``max_count`` records are migrated.

    A migration that raises is logged and reported as failed; the others
    still run (one may depend on another's progress).
    """
    results = []
    migrated = 0
    for migration in MIGRATIONS if migrations is None else migrations:
        if migrated >= max_count:
            break
        name = migration.__name__
        try:
            found, done = migration(context, max_count - migrated)
        except Exception:
            LOG.exception("Online data migration %s failed", name)
            results.append(MigrationResult(name, 0, 0, failed=True))
            continue
        results.append(MigrationResult(name, found, done))
        migrated += done
    return results
