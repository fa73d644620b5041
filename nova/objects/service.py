"""Services: the nova-* processes of a cell, one row per host and binary.

Each running service keeps its row alive: every ``report_interval`` it
bumps ``report_count``, and the database side stamps ``last_seen_up`` with
its own clock (the conductor's, for computes), so skewed clocks on compute
hosts cannot make a service look up or down. ``nova.servicegroup`` turns
that into up/down.
"""

from __future__ import annotations

from collections.abc import Iterable

import sqlalchemy as sa
from oslo_utils import uuidutils
from oslo_versionedobjects import fields

import nova.conf
from nova import exception
from nova.db import engines
from nova.db.api import models as api_models
from nova.db.main import models
from nova.notifications import events as notification_events
from nova.objects import base

CONF = nova.conf.CONF

# The version of the code a service runs, recorded in its row so that peers
# can tell what it understands: ``[upgrade_levels] compute = auto`` caps the
# compute RPC API at what the oldest nova-compute speaks. Every change to an
# RPC API bumps it and appends what the new version speaks to the history.
SERVICE_VERSION = 17

# What each service version speaks, indexed by service version. Version 0
# is a row that recorded none; it is assumed to speak the oldest API.
SERVICE_VERSION_HISTORY: tuple[dict[str, str], ...] = (
    # 0: no version recorded
    {"compute_rpc": "1.0"},
    # 1: build_and_run_instance, terminate_instance, set_host_enabled
    {"compute_rpc": "1.0"},
    # 2: external_instance_event
    {"compute_rpc": "1.1"},
    # 3: power actions and get_console_output
    {"compute_rpc": "1.2"},
    # 4: get_vnc_console
    {"compute_rpc": "1.3"},
    # 5: diagnostics, set_admin_password, trigger_crash_dump, get_host_uptime
    {"compute_rpc": "1.4"},
    # 6: snapshot_instance, backup_instance, rebuild_instance
    {"compute_rpc": "1.5"},
    # 7: rescue, unrescue, shelve, shelve_offload and unshelve
    {"compute_rpc": "1.6"},
    # 8: host_power_action, host_maintenance_mode
    {"compute_rpc": "1.7"},
    # 9: soft_delete_instance, restore_instance
    {"compute_rpc": "1.8"},
    # 10: build_and_run_instance takes BuildParameters
    {"compute_rpc": "1.9"},
    # 11: get_spice_console, get_serial_console
    {"compute_rpc": "1.10"},
    # 12: attach_interface, detach_interface
    {"compute_rpc": "1.11"},
    # 13: resize and cold migration (prep_resize ... finish_revert_resize)
    {"compute_rpc": "1.12"},
    # 14: live migration (check_can_live_migrate_destination ...)
    {"compute_rpc": "1.13"},
    # 15: evacuate (rebuild_instance with recreate)
    {"compute_rpc": "1.14"},
    # 16: live_migration_force_complete, live_migration_abort
    {"compute_rpc": "1.15"},
    # 17: attach_volume, detach_volume
    {"compute_rpc": "1.16"},
)

_COLUMNS = (
    "uuid",
    "host",
    "binary",
    "topic",
    "report_count",
    "disabled",
    "disabled_reason",
    "last_seen_up",
    "forced_down",
    "version",
)


@base.NovaObjectRegistry.register
class Service(base.NovaPersistentObject, base.NovaObject):
    """A nova-* process (``binary``) running on ``host``."""

    # Version 1.0: Initial version
    # Version 1.1: get_minimum_version
    VERSION = "1.1"

    fields = {
        "id": fields.IntegerField(read_only=True),
        "uuid": fields.UUIDField(),
        "host": fields.StringField(nullable=True),
        "binary": fields.StringField(nullable=True),
        "topic": fields.StringField(nullable=True),
        "report_count": fields.IntegerField(default=0),
        "disabled": fields.BooleanField(default=False),
        "disabled_reason": fields.StringField(nullable=True),
        # Not stored: filled in by ServiceList.get_all(set_zones=True).
        "availability_zone": fields.StringField(nullable=True),
        "last_seen_up": fields.DateTimeField(nullable=True),
        "forced_down": fields.BooleanField(default=False),
        "version": fields.IntegerField(default=0),
    }

    @classmethod
    def _from_db_object(cls, context, obj, db_row, skip=()):
        return super()._from_db_object(
            context, obj, db_row, skip={"availability_zone", *skip}
        )

    @classmethod
    def _get(cls, context, *criteria) -> Service | None:
        return cls._get_first(context, models.Service, *criteria)

    @classmethod
    @base.remotable
    def get_by_id(cls, context, service_id: int) -> Service:
        service = cls._get(context, models.Service.id == service_id)
        if service is None:
            raise exception.ServiceNotFound(service_id=service_id)
        return service

    @classmethod
    @base.remotable
    def get_by_uuid(cls, context, service_uuid: str) -> Service:
        service = cls._get(context, models.Service.uuid == service_uuid)
        if service is None:
            raise exception.ServiceNotFound(service_id=service_uuid)
        return service

    @classmethod
    @base.remotable
    def get_by_host_and_binary(cls, context, host: str, binary: str) -> Service | None:
        """The service, or None when it has no row."""
        return cls._get(
            context, models.Service.host == host, models.Service.binary == binary
        )

    @classmethod
    @base.remotable
    def get_by_host_and_topic(cls, context, host: str, topic: str) -> Service | None:
        return cls._get(
            context, models.Service.host == host, models.Service.topic == topic
        )

    @classmethod
    @base.remotable
    def get_by_compute_host(cls, context, host: str) -> Service:
        service = cls.get_by_host_and_binary(context, host, "nova-compute")
        if service is None:
            raise exception.ComputeHostNotFound(host=host)
        return service

    @classmethod
    @base.remotable
    def get_minimum_version(cls, context, binary: str) -> int:
        """The lowest service version among the live services of ``binary``
        in this cell; 0 when none recorded one.

        Services forced down are left out (an operator declared them gone),
        and so are rows without a version, which no running service of this
        code leaves.
        """
        service = models.Service
        stmt = sa.select(sa.func.min(service.version)).where(
            service.binary == binary,
            service.deleted == 0,
            service.forced_down.is_not(True),
            service.version > 0,
        )
        with engines.transaction(context.db_connection) as session:
            return session.scalar(stmt) or 0

    @base.remotable
    def create(self) -> None:
        if self.obj_attr_is_set("id"):
            raise exception.ObjectActionError(action="create", reason="already created")
        if "uuid" not in self:
            self.uuid = uuidutils.generate_uuid()
        values = base.db_values(self, _COLUMNS)
        values["last_seen_up"] = values.get("last_seen_up") or base.utcnow()
        try:
            with engines.transaction(self._context.db_connection) as session:
                row = models.Service(**values)
                session.add(row)
                session.flush()
        except sa.exc.IntegrityError as exc:
            existing = Service.get_by_host_and_topic(
                self._context, self.host, self.topic
            )
            if existing is not None and existing.binary != self.binary:
                raise exception.ServiceTopicExists(
                    host=self.host, topic=self.topic
                ) from exc
            raise exception.ServiceBinaryExists(
                host=self.host, binary=self.binary
            ) from exc
        self._from_db_object(self._context, self, row)
        notification_events.service(self._context, self, "create")

    @base.remotable
    def save(self) -> None:
        """Write the changed fields. A changed ``report_count`` is a
        heartbeat: ``last_seen_up`` becomes now."""
        changes = self.obj_get_changes()
        values = {
            name: base.db_value(value)
            for name, value in changes.items()
            if name in _COLUMNS
        }
        if not values:
            return
        if "report_count" in values:
            values["last_seen_up"] = base.utcnow()
        values["updated_at"] = base.utcnow()
        with engines.transaction(self._context.db_connection) as session:
            row = session.get(models.Service, self.id)
            if row is None or row.deleted:
                raise exception.ServiceNotFound(service_id=self.id)
            for name, value in values.items():
                setattr(row, name, value)
            session.flush()
        zone = self.availability_zone if "availability_zone" in self else None
        self._from_db_object(self._context, self, row)
        if zone is not None:
            self.availability_zone = zone
            self.obj_reset_changes(["availability_zone"])
        if notification_events.SERVICE_STATUS_FIELDS & changes.keys():
            notification_events.service(self._context, self, "update")

    @base.remotable
    def destroy(self) -> None:
        """Soft-delete the service and, for a compute, its compute nodes."""
        now = base.utcnow()
        with engines.transaction(self._context.db_connection) as session:
            result = session.execute(
                sa.update(models.Service)
                .where(models.Service.id == self.id, models.Service.deleted == 0)
                .values(deleted=models.Service.id, deleted_at=now)
            )
            if result.rowcount != 1:
                raise exception.ServiceNotFound(service_id=self.id)
            if self.binary == "nova-compute":
                session.execute(
                    sa.update(models.ComputeNode)
                    .where(
                        models.ComputeNode.host == self.host,
                        models.ComputeNode.deleted == 0,
                    )
                    .values(deleted=models.ComputeNode.id, deleted_at=now)
                )
        self.deleted = True
        self.deleted_at = now
        self.obj_reset_changes()
        notification_events.service(self._context, self, "delete")


def compute_host_availability_zones(context) -> dict[str, str]:
    """host -> availability zone, from the aggregates in the API database."""
    if not CONF.api_database.connection:
        return {}
    agg, host, meta = (
        api_models.Aggregate,
        api_models.AggregateHost,
        api_models.AggregateMetadata,
    )
    stmt = (
        sa.select(host.host, meta.value)
        .join(agg, agg.id == host.aggregate_id)
        .join(meta, meta.aggregate_id == agg.id)
        .where(meta.key == "availability_zone")
        .order_by(meta.value)
    )
    zones: dict[str, list[str]] = {}
    with engines.transaction(context.api_db_connection) as session:
        for name, zone in session.execute(stmt):
            zones.setdefault(name, []).append(zone)
    # A host in several zoned aggregates shows them all, as upstream does.
    return {name: ",".join(values) for name, values in zones.items()}


def set_availability_zone(service, zones: dict[str, str]) -> None:
    """Fill ``service.availability_zone`` from ``zones`` (host -> zone, see
    :func:`compute_host_availability_zones`): computes are in their
    aggregates' zone or the default one, other services in the internal one."""
    if service.binary == "nova-compute":
        zone = zones.get(service.host, CONF.default_availability_zone)
    else:
        zone = CONF.internal_service_availability_zone
    service.availability_zone = zone
    service.obj_reset_changes(["availability_zone"])


@base.NovaObjectRegistry.register
class ServiceList(base.ObjectListBase, base.NovaObject):
    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {"objects": fields.ListOfObjectsField("Service")}

    @classmethod
    def _get(cls, context, *criteria) -> ServiceList:
        stmt = base.NovaPersistentObject._select(context, models.Service)
        with engines.transaction(context.db_connection) as session:
            rows = session.scalars(
                stmt.where(*criteria).order_by(models.Service.id)
            ).all()
        return cls._from_db_rows(context, Service, rows)

    @classmethod
    @base.remotable
    def get_all(
        cls, context, disabled: bool | None = None, set_zones: bool = False
    ) -> ServiceList:
        """Every service of the cell; only the (en|dis)abled ones when
        ``disabled`` is given. ``set_zones`` fills ``availability_zone``."""
        criteria = []
        if disabled is not None:
            criteria.append(
                models.Service.disabled.is_(True)
                if disabled
                else models.Service.disabled.is_not(True)
            )
        services = cls._get(context, *criteria)
        if set_zones:
            zones = compute_host_availability_zones(context)
            for service in services:
                set_availability_zone(service, zones)
        return services

    @classmethod
    @base.remotable
    def get_by_binary(
        cls, context, binary: str, include_disabled: bool = False
    ) -> ServiceList:
        criteria = [models.Service.binary == binary]
        if not include_disabled:
            criteria.append(models.Service.disabled.is_not(True))
        return cls._get(context, *criteria)

    @classmethod
    def get_compute_status_by_hosts(
        cls, context, hosts: Iterable[str]
    ) -> dict[str, Service]:
        """host -> live nova-compute service of ``hosts``, holding only what
        tells whether it can take instances (up or down, disabled).

        The scheduler asks this for every candidate host of every request:
        a few columns instead of whole rows keep that cheap.
        """
        service = models.Service
        stmt = sa.select(
            service.host,
            service.disabled,
            service.forced_down,
            service.last_seen_up,
            service.updated_at,
            service.created_at,
        ).where(
            service.binary == "nova-compute",
            service.host.in_(list(hosts)),
            service.deleted == 0,
        )
        with engines.transaction(context.db_connection) as session:
            rows = session.execute(stmt).all()
        return {
            row.host: Service(
                host=row.host,
                binary="nova-compute",
                disabled=bool(row.disabled),
                forced_down=bool(row.forced_down),
                last_seen_up=row.last_seen_up,
                updated_at=row.updated_at,
                created_at=row.created_at,
            )
            for row in rows
        }

    @classmethod
    @base.remotable
    def get_by_host(cls, context, host: str) -> ServiceList:
        return cls._get(context, models.Service.host == host)

    @classmethod
    @base.remotable
    def get_by_topic(cls, context, topic: str) -> ServiceList:
        return cls._get(
            context, models.Service.topic == topic, models.Service.disabled.is_not(True)
        )
