"""Models of a cell database (``nova_cell0``, ``nova_cell1``, ...).

Tables, columns, constraint and index names are those of upstream Nova's cell
schema so that operators' tools and queries keep working. Most tables soft
delete (see ``types.SoftDeleteMixin``): their unique constraints include
``deleted`` and their relationships to live rows filter on ``deleted == 0``.
"""

from __future__ import annotations

import datetime

import sqlalchemy as sa
from sqlalchemy import orm

from nova.db import shadow, types

# Tables are created in utf8mb4 whatever the server's default character set.
MYSQL_TABLE_ARGS = {"mysql_engine": "InnoDB", "mysql_charset": "utf8mb4"}


class BASE(orm.DeclarativeBase):
    """Declarative base of every cell database model."""


class _Id:
    id: orm.Mapped[int] = orm.mapped_column(
        sa.Integer, primary_key=True, sort_order=-10
    )


class _SoftDeletedModel(types.TimestampMixin, types.SoftDeleteMixin, _Id, BASE):
    __abstract__ = True


def _instance_uuid_fk(name: str) -> sa.ForeignKey:
    # Upstream names these constraints one by one (history from Havana);
    # keeping the names lets operators' scripts find them.
    return sa.ForeignKey("instances.uuid", name=name)


class Service(_SoftDeletedModel):
    """A running nova service (nova-compute, nova-conductor, ...) on a host."""

    __tablename__ = "services"
    __table_args__ = (
        sa.UniqueConstraint(
            "host", "topic", "deleted", name="uniq_services0host0topic0deleted"
        ),
        sa.UniqueConstraint(
            "host", "binary", "deleted", name="uniq_services0host0binary0deleted"
        ),
        sa.Index("services_uuid_idx", "uuid", unique=True),
        MYSQL_TABLE_ARGS,
    )

    uuid: orm.Mapped[str | None] = orm.mapped_column(sa.String(36))
    host: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    binary: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    topic: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    report_count: orm.Mapped[int] = orm.mapped_column(sa.Integer, default=0)
    disabled: orm.Mapped[bool | None] = orm.mapped_column(sa.Boolean, default=False)
    disabled_reason: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    last_seen_up: orm.Mapped[datetime.datetime | None] = orm.mapped_column(sa.DateTime)
    forced_down: orm.Mapped[bool | None] = orm.mapped_column(sa.Boolean, default=False)
    version: orm.Mapped[int | None] = orm.mapped_column(sa.Integer, default=0)


class ComputeNode(_SoftDeletedModel):
    """A hypervisor managed by a nova-compute service, with its inventory."""

    __tablename__ = "compute_nodes"
    __table_args__ = (
        sa.Index("compute_nodes_uuid_idx", "uuid", unique=True),
        sa.UniqueConstraint(
            "host",
            "hypervisor_hostname",
            "deleted",
            name="uniq_compute_nodes0host0hypervisor_hostname0deleted",
        ),
        MYSQL_TABLE_ARGS,
    )

    service_id: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)
    host: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    uuid: orm.Mapped[str | None] = orm.mapped_column(sa.String(36))
    vcpus: orm.Mapped[int] = orm.mapped_column(sa.Integer)
    memory_mb: orm.Mapped[int] = orm.mapped_column(sa.Integer)
    local_gb: orm.Mapped[int] = orm.mapped_column(sa.Integer)
    vcpus_used: orm.Mapped[int] = orm.mapped_column(sa.Integer)
    memory_mb_used: orm.Mapped[int] = orm.mapped_column(sa.Integer)
    local_gb_used: orm.Mapped[int] = orm.mapped_column(sa.Integer)
    hypervisor_type: orm.Mapped[str] = orm.mapped_column(types.MediumText)
    hypervisor_version: orm.Mapped[int] = orm.mapped_column(sa.Integer)
    hypervisor_hostname: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    free_ram_mb: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)
    free_disk_gb: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)
    current_workload: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)
    running_vms: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)
    # JSON documents, as produced by the virt driver and resource tracker.
    cpu_info: orm.Mapped[str] = orm.mapped_column(types.MediumText)
    disk_available_least: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)
    host_ip: orm.Mapped[str | None] = orm.mapped_column(types.IPAddress)
    supported_instances: orm.Mapped[str | None] = orm.mapped_column(sa.Text)
    metrics: orm.Mapped[str | None] = orm.mapped_column(sa.Text)
    pci_stats: orm.Mapped[str | None] = orm.mapped_column(sa.Text)
    extra_resources: orm.Mapped[str | None] = orm.mapped_column(sa.Text)
    stats: orm.Mapped[str | None] = orm.mapped_column(sa.Text, default="{}")
    numa_topology: orm.Mapped[str | None] = orm.mapped_column(sa.Text)
    ram_allocation_ratio: orm.Mapped[float | None] = orm.mapped_column(sa.Float)
    cpu_allocation_ratio: orm.Mapped[float | None] = orm.mapped_column(sa.Float)
    disk_allocation_ratio: orm.Mapped[float | None] = orm.mapped_column(sa.Float)
    # 1 once `nova-manage cell_v2 discover_hosts` created its host mapping.
    mapped: orm.Mapped[int | None] = orm.mapped_column(sa.Integer, default=0)


class Instance(_SoftDeletedModel):
    """A server: a guest on a compute node, or one that failed to get there."""

    __tablename__ = "instances"
    __table_args__ = (
        sa.Index("instances_project_id_idx", "project_id"),
        sa.Index("instances_project_id_deleted_idx", "project_id", "deleted"),
        sa.Index("instances_reservation_id_idx", "reservation_id"),
        sa.Index(
            "instances_terminated_at_launched_at_idx", "terminated_at", "launched_at"
        ),
        sa.Index("instances_uuid_deleted_idx", "uuid", "deleted"),
        sa.Index("instances_task_state_updated_at_idx", "task_state", "updated_at"),
        sa.Index("instances_host_node_deleted_idx", "host", "node", "deleted"),
        sa.Index("instances_host_deleted_cleaned_idx", "host", "deleted", "cleaned"),
        sa.Index("instances_deleted_created_at_idx", "deleted", "created_at"),
        sa.Index("instances_updated_at_project_id_idx", "updated_at", "project_id"),
        sa.Index("instances_compute_id_deleted_idx", "compute_id", "deleted"),
        sa.UniqueConstraint("uuid", name="uniq_instances0uuid"),
        MYSQL_TABLE_ARGS,
    )

    uuid: orm.Mapped[str] = orm.mapped_column(sa.String(36))
    user_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    project_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    image_ref: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    kernel_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    ramdisk_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    hostname: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    launch_index: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)
    key_name: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    key_data: orm.Mapped[str | None] = orm.mapped_column(types.MediumText)
    power_state: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)
    vm_state: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    task_state: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    memory_mb: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)
    vcpus: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)
    root_gb: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)
    ephemeral_gb: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)
    ephemeral_key_uuid: orm.Mapped[str | None] = orm.mapped_column(sa.String(36))
    # The compute service's host, the hypervisor node on it (a compute node's
    # hypervisor_hostname) and that compute node's id.
    host: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    node: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    compute_id: orm.Mapped[int | None] = orm.mapped_column(sa.BigInteger)
    # The flavor's internal id, not its public flavorid.
    instance_type_id: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)
    user_data: orm.Mapped[str | None] = orm.mapped_column(types.MediumText)
    reservation_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    launched_at: orm.Mapped[datetime.datetime | None] = orm.mapped_column(sa.DateTime)
    terminated_at: orm.Mapped[datetime.datetime | None] = orm.mapped_column(sa.DateTime)
    # The zone the user asked for at boot, not the zone of the current host.
    availability_zone: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    display_name: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    display_description: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    launched_on: orm.Mapped[str | None] = orm.mapped_column(types.MediumText)
    locked: orm.Mapped[bool | None] = orm.mapped_column(sa.Boolean)
    locked_by: orm.Mapped[str | None] = orm.mapped_column(
        sa.Enum("owner", "admin", name="instances0locked_by")
    )
    os_type: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    architecture: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    vm_mode: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    root_device_name: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    default_ephemeral_device: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    default_swap_device: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    config_drive: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    access_ip_v4: orm.Mapped[str | None] = orm.mapped_column(types.IPAddress)
    access_ip_v6: orm.Mapped[str | None] = orm.mapped_column(types.IPAddress)
    auto_disk_config: orm.Mapped[bool | None] = orm.mapped_column(sa.Boolean)
    progress: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)
    shutdown_terminate: orm.Mapped[bool | None] = orm.mapped_column(
        sa.Boolean, default=False
    )
    disable_terminate: orm.Mapped[bool | None] = orm.mapped_column(
        sa.Boolean, default=False
    )
    # Unused since cells v1 and the EC2 API left; the columns remain in
    # upstream's schema, so they remain here.
    cell_name: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    internal_id: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)
    # 1 once the instance's files were removed from its host after deletion.
    cleaned: orm.Mapped[int | None] = orm.mapped_column(sa.Integer, default=0)
    # Hidden instances are the inactive copy during a cross-cell resize.
    hidden: orm.Mapped[bool | None] = orm.mapped_column(sa.Boolean, default=False)

    extra: orm.Mapped[InstanceExtra | None] = orm.relationship(
        back_populates="instance"
    )
    info_cache: orm.Mapped[InstanceInfoCache | None] = orm.relationship(
        back_populates="instance"
    )
    # Not "metadata": declarative classes reserve that name.
    metadata_items: orm.Mapped[list[InstanceMetadata]] = orm.relationship(
        primaryjoin="and_(InstanceMetadata.instance_uuid == Instance.uuid, "
        "InstanceMetadata.deleted == 0)",
        back_populates="instance",
    )
    # Not filtered on deleted: a deleted instance keeps showing its system
    # metadata (flavor details, image properties) to admins.
    system_metadata: orm.Mapped[list[InstanceSystemMetadata]] = orm.relationship(
        back_populates="instance"
    )
    tags: orm.Mapped[list[Tag]] = orm.relationship(
        primaryjoin="Instance.uuid == foreign(Tag.resource_id)",
        cascade="all, delete-orphan",
    )


class InstanceExtra(_SoftDeletedModel):
    """Large JSON documents of an instance, kept out of the instances table.

    Each document is deferred: loading an instance loads none of them unless
    the query asks for it (``undefer``), since they can be large.
    """

    __tablename__ = "instance_extra"
    __table_args__ = (
        sa.Index("instance_extra_idx", "instance_uuid"),
        MYSQL_TABLE_ARGS,
    )

    instance_uuid: orm.Mapped[str] = orm.mapped_column(
        sa.String(36), _instance_uuid_fk("instance_extra_instance_uuid_fkey")
    )
    device_metadata: orm.Mapped[str | None] = orm.mapped_column(sa.Text, deferred=True)
    numa_topology: orm.Mapped[str | None] = orm.mapped_column(sa.Text, deferred=True)
    pci_requests: orm.Mapped[str | None] = orm.mapped_column(sa.Text, deferred=True)
    flavor: orm.Mapped[str | None] = orm.mapped_column(sa.Text, deferred=True)
    vcpu_model: orm.Mapped[str | None] = orm.mapped_column(sa.Text, deferred=True)
    migration_context: orm.Mapped[str | None] = orm.mapped_column(
        sa.Text, deferred=True
    )
    keypairs: orm.Mapped[str | None] = orm.mapped_column(sa.Text, deferred=True)
    trusted_certs: orm.Mapped[str | None] = orm.mapped_column(sa.Text, deferred=True)
    # Superseded by "resources" upstream; the column is still in the schema.
    vpmems: orm.Mapped[str | None] = orm.mapped_column(sa.Text, deferred=True)
    resources: orm.Mapped[str | None] = orm.mapped_column(sa.Text, deferred=True)

    instance: orm.Mapped[Instance] = orm.relationship(back_populates="extra")


class InstanceInfoCache(_SoftDeletedModel):
    """The instance's network info (ports, IPs) as last learned from Neutron."""

    __tablename__ = "instance_info_caches"
    __table_args__ = (
        sa.UniqueConstraint(
            "instance_uuid", name="uniq_instance_info_caches0instance_uuid"
        ),
        MYSQL_TABLE_ARGS,
    )

    network_info: orm.Mapped[str | None] = orm.mapped_column(types.MediumText)
    instance_uuid: orm.Mapped[str] = orm.mapped_column(
        sa.String(36), _instance_uuid_fk("instance_info_caches_instance_uuid_fkey")
    )

    instance: orm.Mapped[Instance] = orm.relationship(back_populates="info_cache")


class InstanceMetadata(_SoftDeletedModel):
    """A user-provided key/value pair of an instance."""

    __tablename__ = "instance_metadata"
    __table_args__ = (
        sa.Index("instance_metadata_instance_uuid_idx", "instance_uuid"),
        MYSQL_TABLE_ARGS,
    )

    key: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    value: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    instance_uuid: orm.Mapped[str | None] = orm.mapped_column(
        sa.String(36), _instance_uuid_fk("instance_metadata_instance_uuid_fkey")
    )

    instance: orm.Mapped[Instance | None] = orm.relationship(
        primaryjoin="and_(InstanceMetadata.instance_uuid == Instance.uuid, "
        "InstanceMetadata.deleted == 0)",
        back_populates="metadata_items",
    )


class InstanceSystemMetadata(_SoftDeletedModel):
    """A nova-owned key/value pair of an instance (image properties, ...)."""

    __tablename__ = "instance_system_metadata"
    __table_args__ = (
        sa.Index("instance_uuid", "instance_uuid"),
        MYSQL_TABLE_ARGS,
    )

    instance_uuid: orm.Mapped[str] = orm.mapped_column(
        sa.String(36), _instance_uuid_fk("instance_system_metadata_ibfk_1")
    )
    key: orm.Mapped[str] = orm.mapped_column(sa.String(255))
    value: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))

    instance: orm.Mapped[Instance] = orm.relationship(back_populates="system_metadata")


class InstanceFault(_SoftDeletedModel):
    """Why an instance went to ERROR (or another failure a user should see)."""

    __tablename__ = "instance_faults"
    __table_args__ = (
        sa.Index("instance_faults_host_idx", "host"),
        sa.Index(
            "instance_faults_instance_uuid_deleted_created_at_idx",
            "instance_uuid",
            "deleted",
            "created_at",
        ),
        MYSQL_TABLE_ARGS,
    )

    instance_uuid: orm.Mapped[str | None] = orm.mapped_column(
        sa.String(36), _instance_uuid_fk("fk_instance_faults_instance_uuid")
    )
    code: orm.Mapped[int] = orm.mapped_column(sa.Integer)
    message: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    details: orm.Mapped[str | None] = orm.mapped_column(types.MediumText)
    host: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))


class InstanceAction(_SoftDeletedModel):
    """One user request on an instance (create, reboot, resize, ...).

    (instance_uuid, request_id) identifies an action.
    """

    __tablename__ = "instance_actions"
    __table_args__ = (
        sa.Index("instance_uuid_idx", "instance_uuid"),
        sa.Index("request_id_idx", "request_id"),
        sa.Index(
            "instance_actions_instance_uuid_updated_at_idx",
            "instance_uuid",
            "updated_at",
        ),
        MYSQL_TABLE_ARGS,
    )

    action: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    instance_uuid: orm.Mapped[str | None] = orm.mapped_column(
        sa.String(36), _instance_uuid_fk("fk_instance_actions_instance_uuid")
    )
    request_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    user_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    project_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    start_time: orm.Mapped[datetime.datetime | None] = orm.mapped_column(
        sa.DateTime, default=types.utcnow
    )
    finish_time: orm.Mapped[datetime.datetime | None] = orm.mapped_column(sa.DateTime)
    message: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))


class InstanceActionEvent(_SoftDeletedModel):
    """A step of an instance action (compute_reboot_instance, ...)."""

    __tablename__ = "instance_actions_events"
    __table_args__ = (
        # Events are always read by action; upstream relies on MySQL's
        # implicit foreign key index, which the other backends do not create.
        sa.Index("instance_actions_events_action_id_idx", "action_id"),
        MYSQL_TABLE_ARGS,
    )

    event: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    action_id: orm.Mapped[int | None] = orm.mapped_column(
        sa.ForeignKey("instance_actions.id")
    )
    start_time: orm.Mapped[datetime.datetime | None] = orm.mapped_column(
        sa.DateTime, default=types.utcnow
    )
    finish_time: orm.Mapped[datetime.datetime | None] = orm.mapped_column(sa.DateTime)
    result: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    traceback: orm.Mapped[str | None] = orm.mapped_column(sa.Text)
    host: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    details: orm.Mapped[str | None] = orm.mapped_column(sa.Text)


class Migration(_SoftDeletedModel):
    """A move of an instance between hosts: resize, cold or live migration,
    evacuation."""

    __tablename__ = "migrations"
    __table_args__ = (
        sa.Index(
            "migrations_instance_uuid_and_status_idx",
            "deleted",
            "instance_uuid",
            "status",
        ),
        sa.Index(
            "migrations_by_host_nodes_and_status_idx",
            "deleted",
            "source_compute",
            "dest_compute",
            "source_node",
            "dest_node",
            "status",
            # Prefixes keep the key within InnoDB's 3072-byte limit.
            mysql_length={
                "source_compute": 100,
                "dest_compute": 100,
                "source_node": 100,
                "dest_node": 100,
            },
        ),
        sa.Index(
            "migrations_by_dest_host_nodes_and_status_idx",
            "deleted",
            "dest_compute",
            "dest_node",
            "status",
        ),
        sa.Index(
            "migrations_by_src_host_nodes_and_status_idx",
            "deleted",
            "source_compute",
            "source_node",
            "status",
        ),
        sa.Index("migrations_uuid", "uuid", unique=True),
        sa.Index("migrations_updated_at_idx", "updated_at"),
        sa.Index(
            "migrations_dest_compute_id_deleted_idx", "dest_compute_id", "deleted"
        ),
        MYSQL_TABLE_ARGS,
    )

    # source_compute/dest_compute are service hosts, source_node/dest_node
    # hypervisor hostnames, dest_host the destination's IP address.
    source_compute: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    dest_compute: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    source_node: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    dest_node: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    dest_host: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    dest_compute_id: orm.Mapped[int | None] = orm.mapped_column(sa.BigInteger)
    old_instance_type_id: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)
    new_instance_type_id: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)
    instance_uuid: orm.Mapped[str | None] = orm.mapped_column(
        sa.String(36), _instance_uuid_fk("fk_migrations_instance_uuid")
    )
    uuid: orm.Mapped[str | None] = orm.mapped_column(sa.String(36))
    status: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    migration_type: orm.Mapped[str | None] = orm.mapped_column(
        sa.Enum(
            "migration",
            "resize",
            "live-migration",
            "evacuation",
            name="migration_type",
        )
    )
    hidden: orm.Mapped[bool | None] = orm.mapped_column(sa.Boolean, default=False)
    memory_total: orm.Mapped[int | None] = orm.mapped_column(sa.BigInteger)
    memory_processed: orm.Mapped[int | None] = orm.mapped_column(sa.BigInteger)
    memory_remaining: orm.Mapped[int | None] = orm.mapped_column(sa.BigInteger)
    disk_total: orm.Mapped[int | None] = orm.mapped_column(sa.BigInteger)
    disk_processed: orm.Mapped[int | None] = orm.mapped_column(sa.BigInteger)
    disk_remaining: orm.Mapped[int | None] = orm.mapped_column(sa.BigInteger)
    cross_cell_move: orm.Mapped[bool | None] = orm.mapped_column(
        sa.Boolean, default=False
    )
    user_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    project_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))


class BlockDeviceMapping(_SoftDeletedModel):
    """A disk of an instance: image, volume, snapshot, ephemeral or swap."""

    __tablename__ = "block_device_mapping"
    __table_args__ = (
        sa.Index("snapshot_id", "snapshot_id"),
        sa.Index("volume_id", "volume_id"),
        sa.Index(
            "block_device_mapping_instance_uuid_device_name_idx",
            "instance_uuid",
            "device_name",
        ),
        sa.Index(
            "block_device_mapping_instance_uuid_volume_id_idx",
            "instance_uuid",
            "volume_id",
        ),
        sa.Index("block_device_mapping_instance_uuid_idx", "instance_uuid"),
        sa.UniqueConstraint("uuid", name="uniq_block_device_mapping0uuid"),
        MYSQL_TABLE_ARGS,
    )

    instance_uuid: orm.Mapped[str | None] = orm.mapped_column(
        sa.String(36), _instance_uuid_fk("block_device_mapping_instance_uuid_fkey")
    )
    # The mapping's own uuid, not that of its image, volume or snapshot.
    uuid: orm.Mapped[str | None] = orm.mapped_column(sa.String(36))
    source_type: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    destination_type: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    guest_format: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    device_type: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    disk_bus: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    boot_index: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)
    device_name: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    delete_on_termination: orm.Mapped[bool | None] = orm.mapped_column(
        sa.Boolean, default=False
    )
    snapshot_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(36))
    volume_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(36))
    volume_size: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)
    volume_type: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    image_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(36))
    no_device: orm.Mapped[bool | None] = orm.mapped_column(sa.Boolean)
    connection_info: orm.Mapped[str | None] = orm.mapped_column(types.MediumText)
    tag: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    attachment_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(36))
    encrypted: orm.Mapped[bool | None] = orm.mapped_column(sa.Boolean)
    encryption_secret_uuid: orm.Mapped[str | None] = orm.mapped_column(sa.String(36))
    encryption_format: orm.Mapped[str | None] = orm.mapped_column(sa.String(128))
    encryption_options: orm.Mapped[str | None] = orm.mapped_column(sa.String(4096))


class VirtualInterface(_SoftDeletedModel):
    """A network interface of an instance, as recorded by nova (device tags)."""

    __tablename__ = "virtual_interfaces"
    __table_args__ = (
        sa.UniqueConstraint(
            "address", "deleted", name="uniq_virtual_interfaces0address0deleted"
        ),
        sa.Index("virtual_interfaces_network_id_idx", "network_id"),
        sa.Index("virtual_interfaces_instance_uuid_fkey", "instance_uuid"),
        sa.Index("virtual_interfaces_uuid_idx", "uuid"),
        MYSQL_TABLE_ARGS,
    )

    address: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    network_id: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)
    instance_uuid: orm.Mapped[str | None] = orm.mapped_column(
        sa.String(36), _instance_uuid_fk("virtual_interfaces_instance_uuid_fkey")
    )
    uuid: orm.Mapped[str | None] = orm.mapped_column(sa.String(36))
    tag: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))


class Tag(BASE):
    """A tag on an instance. Tags are deleted for real, not soft deleted."""

    __tablename__ = "tags"
    __table_args__ = (sa.Index("tags_tag_idx", "tag"), MYSQL_TABLE_ARGS)

    resource_id: orm.Mapped[str] = orm.mapped_column(sa.String(36), primary_key=True)
    tag: orm.Mapped[str] = orm.mapped_column(sa.String(80), primary_key=True)


class ConsoleAuthToken(types.TimestampMixin, _Id, BASE):
    """A console access token; only its hash is stored. Expired tokens are
    deleted for real."""

    __tablename__ = "console_auth_tokens"
    __table_args__ = (
        sa.Index("console_auth_tokens_instance_uuid_idx", "instance_uuid"),
        sa.Index("console_auth_tokens_host_expires_idx", "host", "expires"),
        sa.Index(
            "console_auth_tokens_token_hash_instance_uuid_idx",
            "token_hash",
            "instance_uuid",
        ),
        sa.UniqueConstraint("token_hash", name="uniq_console_auth_tokens0token_hash"),
        MYSQL_TABLE_ARGS,
    )

    token_hash: orm.Mapped[str] = orm.mapped_column(sa.String(255))
    console_type: orm.Mapped[str] = orm.mapped_column(sa.String(255))
    host: orm.Mapped[str] = orm.mapped_column(sa.String(255))
    port: orm.Mapped[int] = orm.mapped_column(sa.Integer)
    tls_port: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)
    internal_access_path: orm.Mapped[str | None] = orm.mapped_column(sa.Text)
    instance_uuid: orm.Mapped[str] = orm.mapped_column(sa.String(36))
    # Seconds since the epoch, as upstream stores it.
    expires: orm.Mapped[int] = orm.mapped_column(sa.Integer)
    access_url_base: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))


class TaskLog(_SoftDeletedModel):
    """One run of a periodic host task over one audit period (the instance
    usage audit writes these; the usage audit log API reads them)."""

    __tablename__ = "task_log"
    __table_args__ = (
        sa.Index("ix_task_log_host", "host"),
        sa.Index("ix_task_log_period_beginning", "period_beginning"),
        sa.Index("ix_task_log_period_ending", "period_ending"),
        sa.UniqueConstraint(
            "task_name",
            "host",
            "period_beginning",
            "period_ending",
            name="uniq_task_log0task_name0host0period_beginning0period_ending",
        ),
        MYSQL_TABLE_ARGS,
    )

    task_name: orm.Mapped[str] = orm.mapped_column(sa.String(255))
    state: orm.Mapped[str] = orm.mapped_column(sa.String(255))
    host: orm.Mapped[str] = orm.mapped_column(sa.String(255))
    period_beginning: orm.Mapped[datetime.datetime] = orm.mapped_column(sa.DateTime)
    period_ending: orm.Mapped[datetime.datetime] = orm.mapped_column(sa.DateTime)
    message: orm.Mapped[str] = orm.mapped_column(sa.String(255))
    task_items: orm.Mapped[int | None] = orm.mapped_column(sa.Integer, default=0)
    errors: orm.Mapped[int | None] = orm.mapped_column(sa.Integer, default=0)


# Declared after every model: a shadow table copies its table's columns.
shadow.add_shadow_tables(BASE.metadata)
