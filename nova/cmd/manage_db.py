"""``nova-manage db …`` and ``nova-manage api_db …``: schema migrations."""

from __future__ import annotations

import nova.conf
from nova import context as nova_context
from nova import exception, objects
from nova.cmd.manage_common import args, error, warn
from nova.db import migration

CONF = nova.conf.CONF


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
