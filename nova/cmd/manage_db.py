"""``nova-manage db …`` and ``nova-manage api_db …``: schema migrations,
archiving and purging deleted rows, online data migrations."""

from __future__ import annotations

import datetime
import time
import warnings
from collections import Counter

from dateutil import parser as date_parser
from dateutil import tz as date_tz

import nova.conf
from nova import context as nova_context
from nova import exception, objects
from nova.cmd.manage_common import args, error, format_table, warn
from nova.db import migration
from nova.db.api import archive as api_archive
from nova.db.main import archive
from nova.objects import online_migrations

CONF = nova.conf.CONF


def _parse_date(value: str) -> datetime.datetime:
    """A date as ``date`` prints it or ``YYYY-MM-DD[ HH:MM[:SS]]``, as naive
    UTC (what the database stores).

    :raises ValueError: not a date.
    """
    # `date` names the local zone by its abbreviation; other abbreviations
    # are ambiguous (dateutil would ignore them): refused, not guessed.
    local_zones = {name: date_tz.tzlocal() for name in time.tzname}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", date_parser.UnknownTimezoneWarning)
            parsed = date_parser.parse(value, tzinfos=local_zones)
    except (OverflowError, date_parser.UnknownTimezoneWarning) as exc:
        raise ValueError(str(exc)) from exc
    if parsed.tzinfo is not None:
        parsed = parsed.astimezone(datetime.UTC).replace(tzinfo=None)
    return parsed


def _required_connection(group: str) -> str:
    connection = CONF[group].connection
    if not connection:
        raise exception.DatabaseNotConfigured(group=group)
    return connection


class ApiDbCommands:
    """The API database (``[api_database] connection``)."""

    @args("version", metavar="VERSION", nargs="?", help="Database version")
    def sync(self, version: str | None = None) -> int:
        """Upgrade the API database schema to the newest (or given) version."""
        migration.db_sync("api", _required_connection("api_database"), version)
        return 0

    def version(self) -> int:
        """Print the API database's schema version."""
        print(migration.db_version("api", _required_connection("api_database")))
        return 0


class DbCommands:
    """Cell databases: cell0, the mapped cells and ``[database] connection``."""

    @args("version", metavar="VERSION", nargs="?", help="Database version")
    @args(
        "--local_cell",
        action="store_true",
        help="Only upgrade the database of [database] connection, not the "
        "mapped cells' databases",
    )
    def sync(self, version: str | None = None, local_cell: bool = False) -> int:
        """Upgrade cell database schemas to the newest (or given) version.

        Without --local_cell: cell0 first, then every cell mapped in the API
        database, then ``[database] connection`` if no mapped cell uses it.
        Returns 1 if a database cannot be reached or upgraded.
        """
        local = CONF.database.connection
        if local_cell:
            migration.db_sync("main", _required_connection("database"), version)
            return 0
        try:
            cells = list(
                objects.CellMappingList.get_all(nova_context.get_admin_context())
            )
        except Exception as exc:
            error(
                f"Could not read the cell mappings from the API database ({exc}). "
                "Have 'nova-manage api_db sync' and 'nova-manage cell_v2 map_cell0' "
                "been run and is [api_database] connection set? Use --local_cell "
                "to upgrade only [database] connection."
            )
            return 1
        cells.sort(key=lambda cell: not cell.is_cell0())
        if not any(cell.is_cell0() for cell in cells):
            warn("cell0 mapping not found - not syncing cell0.")
        targets = [(cell.identity, cell.database_connection) for cell in cells]
        if local and local not in {connection for _, connection in targets}:
            targets.append(("[database] connection", local))
        for name, connection in targets:
            try:
                migration.db_sync("main", connection, version)
            except Exception as exc:
                error(f"Could not upgrade the database of {name}: {exc}")
                return 1
        return 0

    def version(self) -> int:
        """Print the schema version of ``[database] connection``."""
        print(migration.db_version("main", _required_connection("database")))
        return 0

    @args(
        "--max_rows",
        type=int,
        default=1000,
        metavar="<rows>",
        help="Maximum number of deleted rows to archive per cell (and per batch "
        "with --until-complete), default 1000. An archived instance's rows (its "
        "actions, faults, ...) go with it even beyond the limit; the API "
        "database records deleted with it are not counted.",
    )
    @args("--verbose", action="store_true", help="Print how many rows were archived")
    @args(
        "--until-complete",
        action="store_true",
        dest="until_complete",
        help="Archive in batches of --max_rows until nothing is left",
    )
    @args(
        "--before",
        metavar="<date>",
        help="Archive only rows deleted before this date (as `date` prints "
        "it, or YYYY-MM-DD[ HH:MM[:SS]])",
    )
    @args("--purge", action="store_true", help="Purge the shadow tables afterwards")
    @args(
        "--all-cells",
        action="store_true",
        dest="all_cells",
        help="Archive in every cell's database, not only [database] connection",
    )
    @args(
        "--task-log",
        action="store_true",
        dest="task_log",
        help="Also archive task_log rows (never deleted otherwise; with "
        "--before, those last updated before that date)",
    )
    @args(
        "--sleep",
        type=int,
        default=0,
        metavar="<seconds>",
        help="Seconds to sleep between batches of --until-complete",
    )
    def archive_deleted_rows(
        self,
        max_rows: int = 1000,
        verbose: bool = False,
        until_complete: bool = False,
        before: str | None = None,
        purge: bool = False,
        all_cells: bool = False,
        task_log: bool = False,
        sleep: int = 0,
    ) -> int:
        """Move deleted rows from production tables to shadow tables.

        An archived instance takes its dependent rows with it, and its
        instance mapping, request spec and server group membership are
        deleted from the API database. Run until it returns 0 (or use
        --until-complete).

        Returns 0 if nothing was archived, 1 if rows were archived, 2 for
        an invalid --max_rows (or --sleep), 3 if the API database cannot be
        reached, 4 for an invalid --before.
        """
        if max_rows < 1 or sleep < 0:
            error("--max_rows must be a positive number and --sleep at least 0")
            return 2
        try:
            before_date = _parse_date(before) if before else None
        except ValueError:
            error(f"Invalid value for --before: {before}")
            return 4
        # Archived instances' records are deleted from the API database.
        cells = _cell_databases(all_cells, api_database_required=True)
        if cells is None:
            return 3
        if until_complete and verbose:
            print("Archiving", end="", flush=True)
        archived: Counter = Counter()
        for name, connection in cells:
            while True:
                batch = archive.archive_deleted_rows(
                    connection, max_rows, before_date, task_log
                )
                api_rows = api_archive.delete_instance_records(
                    CONF.api_database.connection, batch.instance_uuids
                )
                archived.update(_prefixed(name, batch.rows))
                archived.update(_prefixed("API_DB", api_rows))
                if not until_complete or not batch.rows:
                    break
                if verbose:
                    print(".", end="", flush=True)
                time.sleep(sleep)
        if until_complete and verbose:
            print("complete")
        if verbose:
            _print_counts(archived, "Number of Rows Archived", "Nothing was archived.")
        if purge:
            _purge(cells, before_date, verbose)
        return 1 if archived else 0

    @args("--all", action="store_true", dest="purge_all", help="Purge all rows")
    @args(
        "--before",
        metavar="<date>",
        help="Purge rows archived from rows deleted before this date",
    )
    @args("--verbose", action="store_true", help="Print how many rows were purged")
    @args(
        "--all-cells",
        action="store_true",
        dest="all_cells",
        help="Purge every cell's database, not only [database] connection",
    )
    def purge(
        self,
        purge_all: bool = False,
        before: str | None = None,
        verbose: bool = False,
        all_cells: bool = False,
    ) -> int:
        """Delete archived rows from the shadow tables for good.

        Returns 0 if rows were deleted, 1 without --all or --before, 2 for
        an invalid --before, 3 if nothing was purged, 4 if --all-cells cannot
        read the cells from the API database.
        """
        if not purge_all and not before:
            error("Either --before or --all is required")
            return 1
        try:
            before_date = _parse_date(before) if before else None
        except ValueError:
            error(f"Invalid value for --before: {before}")
            return 2
        cells = _cell_databases(all_cells)
        if cells is None:
            return 4
        return 0 if _purge(cells, before_date, verbose) else 3

    @args(
        "--max-count",
        type=int,
        dest="max_count",
        metavar="<count>",
        help="Migrate at most this many records; by default, batches of "
        f"{online_migrations.DEFAULT_BATCH} until done",
    )
    def online_data_migrations(self, max_count: int | None = None) -> int:
        """Bring live data up to date after an upgrade, in batches.

        Returns 0 when nothing is left to migrate, 1 when some records were
        migrated and more may be (run it again), 2 when migrations failed
        and none made progress in the last batch, 127 for an invalid
        --max-count.
        """
        if max_count is not None and max_count < 1:
            error("--max-count must be a positive number")
            return 127
        context = nova_context.get_admin_context()
        totals: dict[str, list[int]] = {}
        unlimited = max_count is None
        if unlimited:
            print(
                f"Running batches of {online_migrations.DEFAULT_BATCH} until complete"
            )
        failed = False
        while True:
            batch = online_migrations.run_batch(
                context, max_count or online_migrations.DEFAULT_BATCH
            )
            migrated = 0
            for result in batch:
                if result.found:
                    print(
                        f"{result.found} rows matched query {result.name}, "
                        f"{result.done} migrated"
                    )
                found, done = totals.setdefault(result.name, [0, 0])
                totals[result.name] = [max(found, result.found), done + result.done]
                migrated += result.done
                failed = failed or result.failed
            if not unlimited or not migrated:
                break
        rows = [(name, found, done) for name, (found, done) in sorted(totals.items())]
        print(format_table(["Migration", "Total Needed", "Completed"], rows))
        if failed and not migrated:
            error("Some migrations failed unexpectedly. Check the log for details.")
            return 2
        return 1 if migrated else 0


def _cell_databases(
    all_cells: bool, api_database_required: bool = False
) -> list[tuple[str | None, str]] | None:
    """(name, connection) of each cell database to work on: every mapped
    cell's, or ``[database] connection``. None (reported) when the API
    database is needed and cannot be read."""
    if all_cells or api_database_required:
        try:
            cells = objects.CellMappingList.get_all(nova_context.get_admin_context())
        except Exception as exc:
            error(f"Could not read the cell mappings from the API database: {exc}")
            return None
    if all_cells:
        return [(cell.name or cell.uuid, cell.database_connection) for cell in cells]
    return [(None, _required_connection("database"))]


def _purge(
    cells: list[tuple[str | None, str]],
    before: datetime.datetime | None,
    verbose: bool,
) -> Counter:
    """Purge the shadow tables of these cells; rows deleted per table."""
    purged: Counter = Counter()
    for name, connection in cells:
        purged.update(_prefixed(name, archive.purge_shadow_tables(connection, before)))
    if verbose:
        _print_counts(purged, "Number of Rows Purged", "Nothing was purged.")
    return purged


def _prefixed(prefix: str | None, counts: Counter) -> Counter:
    if prefix is None:
        return counts
    return Counter({f"{prefix}.{table}": count for table, count in counts.items()})


def _print_counts(counts: Counter, title: str, nothing: str) -> None:
    if not counts:
        print(nothing)
        return
    print(format_table(["Table", title], sorted(counts.items())))
