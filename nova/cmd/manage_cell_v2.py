"""``nova-manage cell_v2 …``: cells, host mappings and instance mappings.

Exit codes are upstream's, documented per action. Everything an action
writes is validated first, so a refused action leaves the databases as they
were.
"""

from __future__ import annotations

import pathlib

import oslo_messaging
import sqlalchemy as sa
from oslo_utils import uuidutils

import nova.conf
from nova import context as nova_context
from nova import exception, objects
from nova.cmd.manage_common import args, error, format_table
from nova.db import migration
from nova.objects import host_mapping as host_mapping_obj
from nova.objects import instance_mapping as instance_mapping_obj
from nova.utils import mask_url_password

CONF = nova.conf.CONF

# cell0 receives no RPC; its transport URL names no broker.
CELL0_TRANSPORT_URL = "none:///"
MAP_INSTANCES_BATCH = 50


def validate_transport_url(url: str) -> None:
    """Raise InvalidTransportURL unless oslo.messaging can parse ``url``."""
    try:
        oslo_messaging.TransportURL.parse(CONF, url)
    except (oslo_messaging.InvalidTransportURL, ValueError) as exc:
        raise exception.InvalidTransportURL(
            url=mask_url_password(url), reason=str(exc)
        ) from exc


def validate_database_connection(url: str) -> None:
    """Raise InvalidDatabaseConnection unless SQLAlchemy can use ``url``."""
    try:
        parsed = sa.engine.make_url(url)
        parsed.get_dialect()
    except (sa.exc.ArgumentError, sa.exc.NoSuchModuleError, ValueError) as exc:
        raise exception.InvalidDatabaseConnection(
            url=mask_url_password(url), reason=str(exc)
        ) from exc
    if parsed.get_backend_name() != "sqlite" and not parsed.database:
        raise exception.InvalidDatabaseConnection(
            url=mask_url_password(url), reason="no database name"
        )


def cell0_default_connection() -> str:
    """cell0's URL: ``[database] connection`` with ``_cell0`` after the name.

    A SQLite file keeps its extension: ``nova.sqlite`` gives
    ``nova_cell0.sqlite``.
    """
    url = sa.engine.make_url(CONF.database.connection)
    if not url.database:
        raise exception.InvalidDatabaseConnection(
            url=mask_url_password(CONF.database.connection),
            reason="no database name to derive cell0's from",
        )
    database = url.database + "_cell0"
    if url.get_backend_name() == "sqlite":
        path = pathlib.PurePath(url.database)
        database = str(path.with_name(f"{path.stem}_cell0{path.suffix}"))
    return url.set(database=database).render_as_string(hide_password=False)


def _resolve_url(value, option, config_value, config_name, validate):
    """The command-line URL, else the configured one (announced), validated.

    None, after reporting why, when there is none or it is invalid.
    """
    if not value and config_value:
        print(
            f"{option} not provided on the command line, using the value of "
            f"{config_name} from the configuration file"
        )
    value = value or config_value
    if not value:
        error(
            f"Must specify {option} if {config_name} is not set in the "
            "configuration file"
        )
        return None
    try:
        validate(value)
    except exception.Invalid as exc:
        error(exc.format_message())
        return None
    return value


def _cell_using(context, transport_url, database_connection, ignore_uuid=None):
    """Another cell with this transport URL or database connection, if any."""
    for cell in objects.CellMappingList.get_all(context):
        if cell.uuid == ignore_uuid:
            continue
        if (
            cell.transport_url == transport_url
            or cell.database_connection == database_connection
        ):
            return cell
    return None


class CellV2Commands:
    """Cells v2: cell, host and instance mappings in the API database."""

    @args("--transport-url", dest="transport_url", metavar="<transport_url>")
    def simple_cell_setup(self, transport_url: str | None = None) -> int:
        """Set up cell0 and a cell for [database] connection in one go.

        Maps cell0 and upgrades its schema, maps a cell for the local
        database, its compute hosts and its instances. Returns 0 when done
        (or already done), 1 if the transport URL is missing or invalid or
        no compute host reports yet.
        """
        transport_url = _resolve_url(
            transport_url,
            "--transport-url",
            CONF.transport_url,
            "[DEFAULT] transport_url",
            validate_transport_url,
        )
        if not transport_url:
            return 1
        if not CONF.database.connection:
            error("[database] connection must name the cell's database")
            return 1
        try:
            validate_database_connection(CONF.database.connection)
        except exception.Invalid as exc:
            error(exc.format_message())
            return 1
        context = nova_context.get_admin_context()
        try:
            cell0 = objects.CellMapping.get_by_uuid(
                context, objects.CellMapping.CELL0_UUID
            )
            print("Cell0 is already setup")
        except exception.CellMappingNotFound:
            cell0 = self._map_cell0(context, cell0_default_connection())
        try:
            migration.db_sync("main", cell0.database_connection)
        except Exception as exc:
            error(f"Unable to sync cell0 schema: {exc}")
            return 1

        nodes = objects.ComputeNodeList.get_all(context)
        if not nodes:
            print("No hosts found to map to cell, exiting.")
            return 1
        cell = self._cell_of_local_database(context, nodes, transport_url)
        host_mapping_obj.discover_hosts(context, cell.uuid)
        self.map_instances(cell.uuid)
        return 0

    @staticmethod
    def _cell_of_local_database(context, nodes, transport_url):
        """The cell of ``[database] connection``: found, or created."""
        for node in nodes:
            try:
                return objects.HostMapping.get_by_host(context, node.host).cell_mapping
            except exception.HostMappingNotFound:
                continue
        for cell in objects.CellMappingList.get_all(context):
            if cell.database_connection == CONF.database.connection:
                return cell
        cell = objects.CellMapping(
            context,
            uuid=uuidutils.generate_uuid(),
            name=None,
            transport_url=transport_url,
            database_connection=CONF.database.connection,
        )
        cell.create()
        return cell

    @args(
        "--database_connection",
        metavar="<database_connection>",
        help="cell0's database URL; by default [database] connection with "
        "_cell0 appended to the database name",
    )
    def map_cell0(self, database_connection: str | None = None) -> int:
        """Create the mapping of cell0, the cell of never-scheduled instances.

        Returns 0 once cell0 is mapped (also if it already was), 1 if its
        database URL is missing or invalid.
        """
        if not database_connection and not CONF.database.connection:
            error(
                "Must specify --database_connection if [database] connection "
                "is not set in the configuration file"
            )
            return 1
        try:
            connection = database_connection or cell0_default_connection()
            validate_database_connection(connection)
        except exception.Invalid as exc:
            error(exc.format_message())
            return 1
        context = nova_context.get_admin_context()
        try:
            objects.CellMapping.get_by_uuid(context, objects.CellMapping.CELL0_UUID)
        except exception.CellMappingNotFound:
            try:
                self._map_cell0(context, connection)
                return 0
            except exception.CellMappingExists:
                pass
        print("Cell0 is already setup")
        return 0

    @staticmethod
    def _map_cell0(context, connection: str):
        cell0 = objects.CellMapping(
            context,
            uuid=objects.CellMapping.CELL0_UUID,
            name="cell0",
            transport_url=CELL0_TRANSPORT_URL,
            database_connection=connection,
        )
        cell0.create()
        return cell0

    @args("--name", metavar="<cell_name>", help="The name of the cell")
    @args(
        "--database_connection",
        metavar="<database_connection>",
        help="The cell's database URL (default: [database] connection)",
    )
    @args(
        "--transport-url",
        dest="transport_url",
        metavar="<transport_url>",
        help="The cell's message queue URL (default: [DEFAULT] transport_url)",
    )
    @args("--verbose", action="store_true", help="Print the new cell's uuid")
    @args("--disabled", action="store_true", help="Create the cell disabled")
    def create_cell(
        self,
        name: str | None = None,
        database_connection: str | None = None,
        transport_url: str | None = None,
        verbose: bool = False,
        disabled: bool = False,
    ) -> int:
        """Map a new cell: its database and message queue.

        Returns 0 on success, 1 if the transport URL or database connection
        is missing or invalid, 2 if another cell already uses either.
        """
        transport_url = _resolve_url(
            transport_url,
            "--transport-url",
            CONF.transport_url,
            "[DEFAULT] transport_url",
            validate_transport_url,
        )
        if not transport_url:
            return 1
        database_connection = _resolve_url(
            database_connection,
            "--database_connection",
            CONF.database.connection,
            "[database] connection",
            validate_database_connection,
        )
        if not database_connection:
            return 1
        context = nova_context.get_admin_context()
        other = _cell_using(context, transport_url, database_connection)
        if other is not None:
            error(
                "The transport_url and/or database_connection is already used "
                f"by the cell with uuid {other.uuid}"
            )
            return 2
        cell = objects.CellMapping(
            context,
            uuid=uuidutils.generate_uuid(),
            name=name,
            transport_url=transport_url,
            database_connection=database_connection,
            disabled=disabled,
        )
        cell.create()
        if verbose:
            print(cell.uuid)
        return 0

    @args("--cell_uuid", metavar="<cell_uuid>", required=True)
    @args("--name", metavar="<cell_name>", help="New name of the cell")
    @args(
        "--transport-url",
        dest="transport_url",
        metavar="<transport_url>",
        help="New message queue URL (running services see it after a restart)",
    )
    @args(
        "--database_connection",
        metavar="<database_connection>",
        help="New database URL (running services see it after a restart)",
    )
    @args("--disable", action="store_true", help="Stop scheduling to the cell")
    @args("--enable", action="store_true", help="Schedule to the cell again")
    def update_cell(
        self,
        cell_uuid: str,
        name: str | None = None,
        transport_url: str | None = None,
        database_connection: str | None = None,
        disable: bool = False,
        enable: bool = False,
    ) -> int:
        """Change a cell's name, URLs or disabled state.

        As upstream, URLs not given default to ``[DEFAULT] transport_url``
        and ``[database] connection`` - except for cell0, whose URLs are
        never taken from the configuration. Returns 0 on success, 1 if the
        cell does not exist, 2 if the values cannot be set (invalid URL), 3
        if another cell uses the URLs, 4 for --disable with --enable, 5 for
        disabling or enabling cell0.
        """
        context = nova_context.get_admin_context()
        try:
            cell = objects.CellMapping.get_by_uuid(context, cell_uuid)
        except exception.CellMappingNotFound:
            error(f"Cell with uuid {cell_uuid} was not found.")
            return 1
        if disable and enable:
            error("Cell cannot be disabled and enabled at the same time.")
            return 4
        if (disable or enable) and cell.is_cell0():
            error("Cell0 cannot be disabled or enabled.")
            return 5
        if not cell.is_cell0():
            transport_url = transport_url or CONF.transport_url
            database_connection = database_connection or CONF.database.connection
        try:
            if transport_url:
                validate_transport_url(transport_url)
            if database_connection:
                validate_database_connection(database_connection)
        except exception.Invalid as exc:
            error(f"Unable to update CellMapping: {exc.format_message()}")
            return 2
        other = _cell_using(context, transport_url, database_connection, cell.uuid)
        if other is not None:
            error(
                "The transport_url and/or database_connection is already used "
                f"by the cell with uuid {other.uuid}"
            )
            return 3
        if name:
            cell.name = name
        if transport_url:
            cell.transport_url = transport_url
        if database_connection:
            cell.database_connection = database_connection
        if disable or enable:
            if cell.disabled == disable:
                state = "disabled" if disable else "enabled"
                print(f"Cell {cell_uuid} is already {state}")
            cell.disabled = disable
        try:
            cell.save()
        except sa.exc.SQLAlchemyError as exc:
            error(f"Unable to update CellMapping: {exc}")
            return 2
        return 0

    @args(
        "--verbose",
        action="store_true",
        help="Show the URLs with their passwords",
    )
    def list_cells(self, verbose: bool = False) -> int:
        """List the cells; passwords in URLs are masked unless --verbose."""
        cells = objects.CellMappingList.get_all(nova_context.get_admin_context())
        show = (lambda url: url) if verbose else mask_url_password
        rows = [
            [
                cell.name or "",
                cell.uuid,
                show(cell.transport_url),
                show(cell.database_connection),
                cell.disabled,
            ]
            for cell in sorted(cells, key=lambda cell: cell.name or "")
        ]
        headers = ["Name", "UUID", "Transport URL", "Database Connection", "Disabled"]
        print(format_table(headers, rows))
        return 0

    @args("--cell_uuid", metavar="<cell_uuid>", required=True)
    @args(
        "--force",
        action="store_true",
        help="Also delete the cell's host mappings and the instance mappings "
        "of its deleted instances",
    )
    def delete_cell(self, cell_uuid: str, force: bool = False) -> int:
        """Delete a cell mapping.

        Returns 0 once deleted, 1 if the cell does not exist, 2 if hosts are
        mapped to it (without --force), 3 if it still has live instances, 4
        if only deleted instances remain mapped to it (without --force).
        """
        context = nova_context.get_admin_context()
        try:
            cell = objects.CellMapping.get_by_uuid(context, cell_uuid)
        except exception.CellMappingNotFound:
            error(f"Cell with uuid {cell_uuid} was not found.")
            return 1
        host_mappings = objects.HostMappingList.get_by_cell_id(context, cell.id)
        if host_mappings and not force:
            error(f"There are existing hosts mapped to cell with uuid {cell_uuid}.")
            return 2
        instance_mappings = objects.InstanceMappingList.get_by_cell_id(context, cell.id)
        if instance_mappings:
            with nova_context.target_cell(context, cell) as cell_context:
                live = objects.InstanceList.get_all(cell_context, limit=1)
            if live:
                error(f"There are existing instances mapped to cell {cell_uuid}.")
                return 3
            if not force:
                error(
                    f"There are instance mappings to cell with uuid {cell_uuid}, "
                    "but all instances have been deleted in the cell; run "
                    "'nova-manage db archive_deleted_rows' to delete them."
                )
                return 4
        if host_mappings:
            # Unmapped nodes are found again by discover_hosts should the
            # hosts join another cell later.
            with nova_context.target_cell(context, cell) as cell_context:
                for node in objects.ComputeNodeList.get_all(cell_context):
                    node.mapped = 0
                    node.save()
        cell.destroy(with_host_and_instance_mappings=force)
        return 0

    @args("--cell_uuid", metavar="<cell_uuid>", help="Only list this cell's hosts")
    def list_hosts(self, cell_uuid: str | None = None) -> int:
        """List the mapped hosts of all cells, or of one (1 if unknown)."""
        context = nova_context.get_admin_context()
        if cell_uuid:
            try:
                cell = objects.CellMapping.get_by_uuid(context, cell_uuid)
            except exception.CellMappingNotFound:
                error(f"Cell with uuid {cell_uuid} was not found.")
                return 1
            mappings = objects.HostMappingList.get_by_cell_id(context, cell.id)
        else:
            mappings = objects.HostMappingList.get_all(context)
        rows = [
            [mapping.cell_mapping.name or "", mapping.cell_mapping.uuid, mapping.host]
            for mapping in sorted(mappings, key=lambda mapping: mapping.host)
        ]
        print(format_table(["Cell Name", "Cell UUID", "Hostname"], rows))
        return 0

    @args("--cell_uuid", metavar="<cell_uuid>", required=True)
    @args("--host", metavar="<host>", required=True, help="The host to delete")
    def delete_host(self, cell_uuid: str, host: str) -> int:
        """Delete a host's mapping.

        Returns 0 once deleted, 1 if the cell does not exist, 2 if the host
        is not mapped, 3 if it is mapped to another cell, 4 if it still has
        instances.
        """
        context = nova_context.get_admin_context()
        try:
            cell = objects.CellMapping.get_by_uuid(context, cell_uuid)
        except exception.CellMappingNotFound:
            error(f"Cell with uuid {cell_uuid} was not found.")
            return 1
        try:
            mapping = objects.HostMapping.get_by_host(context, host)
        except exception.HostMappingNotFound:
            error(f"The host {host} was not found.")
            return 2
        if mapping.cell_mapping.uuid != cell.uuid:
            error(f"The host {host} was not found in the cell {cell_uuid}.")
            return 3
        with nova_context.target_cell(context, cell) as cell_context:
            if objects.InstanceList.get_by_host(cell_context, host):
                error(f"There are instances on the host {host}.")
                return 4
            try:
                nodes = objects.ComputeNodeList.get_all_by_host(cell_context, host)
            except exception.ComputeHostNotFound:
                nodes = []
            for node in nodes:
                node.mapped = 0
                node.save()
        mapping.destroy()
        return 0

    @args("--cell_uuid", metavar="<cell_uuid>", help="Only search this cell")
    @args("--verbose", action="store_true", help="Report each step")
    @args(
        "--strict",
        action="store_true",
        help="Succeed (exit 0) only if an unmapped host was found and mapped",
    )
    @args(
        "--by-service",
        dest="by_service",
        action="store_true",
        help="Find hosts by their nova-compute service rather than by "
        "compute node (for drivers such as ironic)",
    )
    def discover_hosts(
        self,
        cell_uuid: str | None = None,
        verbose: bool = False,
        strict: bool = False,
        by_service: bool = False,
    ) -> int:
        """Map the compute hosts of all cells (or one) that are not mapped yet.

        Safe to repeat and to run concurrently with itself or the scheduler's
        periodic discovery. Returns 0, or with --strict 0 only if a host was
        newly mapped; 1 if nothing was mapped under --strict or on error.
        """
        status = print if verbose else None
        try:
            created = host_mapping_obj.discover_hosts(
                nova_context.get_admin_context(), cell_uuid, status, by_service
            )
        except Exception as exc:
            error(f"Could not discover hosts: {exc}")
            return 1
        if strict and not created:
            return 1
        return 0

    @args("--cell_uuid", metavar="<cell_uuid>", required=True)
    @args(
        "--max-count",
        dest="max_count",
        metavar="<max_count>",
        help="Map at most this many instances in this run (default: all, in "
        "batches of 50)",
    )
    @args(
        "--reset",
        dest="reset_marker",
        action="store_true",
        help="Start from the oldest instance, not where the last run stopped",
    )
    def map_instances(
        self,
        cell_uuid: str,
        max_count: str | None = None,
        reset_marker: bool = False,
    ) -> int:
        """Map a cell's unmapped instances, oldest first.

        A run with --max-count resumes where the previous one stopped.
        Returns 0 when all instances are mapped, 1 if some remain, 127 for
        an invalid --max-count.
        """
        if max_count is None:
            map_all, batch = True, MAP_INSTANCES_BATCH
        else:
            map_all = False
            try:
                batch = int(max_count)
            except ValueError:
                batch = 0
            if batch < 1:
                error("Must supply a positive value for max-count")
                return 127
        context = nova_context.get_admin_context()
        cell = objects.CellMapping.get_by_uuid(context, cell_uuid)
        marker = instance_mapping_obj.pop_migration_marker(context)
        if reset_marker:
            marker = None
        while True:
            marker = self._map_instance_batch(context, cell, batch, marker)
            if marker is None:
                return 0
            if not map_all:
                instance_mapping_obj.save_migration_marker(context, marker)
                return 1

    @staticmethod
    def _map_instance_batch(context, cell, limit: int, marker: str | None):
        """Map one page of instances; the page's last uuid, or None at the end."""
        with nova_context.target_cell(context, cell) as cell_context:
            reader = cell_context.elevated(read_deleted="yes")
            try:
                instances = objects.InstanceList.get_page_oldest_first(
                    reader, limit, marker
                )
            except exception.MarkerNotFound:
                print(f"Instance {marker} is gone; starting from the oldest instance.")
                instances = objects.InstanceList.get_page_oldest_first(reader, limit)
        for instance in instances:
            mapping = objects.InstanceMapping(
                context,
                instance_uuid=instance.uuid,
                cell_mapping=cell,
                project_id=instance.project_id,
                user_id=instance.user_id,
            )
            try:
                mapping.create()
            except exception.InstanceMappingExists:
                continue
        if len(instances) < limit:
            return None
        return instances[-1].uuid

    @args("--uuid", metavar="<instance_uuid>", required=True)
    @args("--quiet", action="store_true", help="Print nothing")
    def verify_instance(self, uuid: str, quiet: bool = False) -> int:
        """Check that an instance is mapped to a cell that has it.

        Returns 0 if it is, 1 if it has no mapping, 2 if its mapping has no
        cell yet, 3 if it is deleted but still mapped, 4 if it is archived
        (gone from its cell) but still mapped.
        """

        def say(message: str) -> None:
            if not quiet:
                print(message)

        context = nova_context.get_admin_context()
        try:
            mapping = objects.InstanceMapping.get_by_instance_uuid(context, uuid)
        except exception.InstanceMappingNotFound:
            say(
                f"Instance {uuid} is not mapped to a cell (upgrade is incomplete) "
                "or instance does not exist"
            )
            return 1
        cell = mapping.cell_mapping
        if cell is None:
            say(f"Instance {uuid} is not mapped to a cell")
            return 2
        with nova_context.target_cell(context, cell) as cell_context:
            try:
                instance = objects.Instance.get_by_uuid(
                    cell_context.elevated(read_deleted="yes"), uuid
                )
            except exception.InstanceNotFound:
                say(f"The instance with uuid {uuid} has been archived.")
                say("However its instance_mapping remains.")
                return 4
        if instance.deleted:
            say(f"The instance with uuid {uuid} has been deleted.")
            say(
                "Execute `nova-manage db archive_deleted_rows` to archive this "
                "deleted instance and remove its instance_mapping."
            )
            return 3
        say(f"Instance {uuid} is in cell: {cell.name} ({cell.uuid})")
        return 0
