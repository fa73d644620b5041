"""Initial version: a cell database: services, compute nodes, instances and their
details, migrations, block device mappings, actions, console tokens.

Table, column, constraint and index names are upstream Nova's.

Revision ID: 55b7de5964b6
Revises:
Create Date: 2026-12-02 15:52:09.906714
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql, postgresql

# Types spelled out here rather than imported from nova.db.types: a migration
# must keep creating what it created when it was written.
MEDIUMTEXT = sa.Text().with_variant(mysql.MEDIUMTEXT(), "mysql")
IP_ADDRESS = sa.String(length=39).with_variant(postgresql.INET(), "postgresql")
MYSQL_TABLE_ARGS = {"mysql_engine": "InnoDB", "mysql_charset": "utf8mb4"}

revision = "55b7de5964b6"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "compute_nodes",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("deleted_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("service_id", sa.Integer(), nullable=True),
        sa.Column("host", sa.String(length=255), nullable=True),
        sa.Column("uuid", sa.String(length=36), nullable=True),
        sa.Column("vcpus", sa.Integer(), nullable=False),
        sa.Column("memory_mb", sa.Integer(), nullable=False),
        sa.Column("local_gb", sa.Integer(), nullable=False),
        sa.Column("vcpus_used", sa.Integer(), nullable=False),
        sa.Column("memory_mb_used", sa.Integer(), nullable=False),
        sa.Column("local_gb_used", sa.Integer(), nullable=False),
        sa.Column("hypervisor_type", MEDIUMTEXT, nullable=False),
        sa.Column("hypervisor_version", sa.Integer(), nullable=False),
        sa.Column("hypervisor_hostname", sa.String(length=255), nullable=True),
        sa.Column("free_ram_mb", sa.Integer(), nullable=True),
        sa.Column("free_disk_gb", sa.Integer(), nullable=True),
        sa.Column("current_workload", sa.Integer(), nullable=True),
        sa.Column("running_vms", sa.Integer(), nullable=True),
        sa.Column("cpu_info", MEDIUMTEXT, nullable=False),
        sa.Column("disk_available_least", sa.Integer(), nullable=True),
        sa.Column("host_ip", IP_ADDRESS, nullable=True),
        sa.Column("supported_instances", sa.Text(), nullable=True),
        sa.Column("metrics", sa.Text(), nullable=True),
        sa.Column("pci_stats", sa.Text(), nullable=True),
        sa.Column("extra_resources", sa.Text(), nullable=True),
        sa.Column("stats", sa.Text(), nullable=True),
        sa.Column("numa_topology", sa.Text(), nullable=True),
        sa.Column("ram_allocation_ratio", sa.Float(), nullable=True),
        sa.Column("cpu_allocation_ratio", sa.Float(), nullable=True),
        sa.Column("disk_allocation_ratio", sa.Float(), nullable=True),
        sa.Column("mapped", sa.Integer(), nullable=True),
        sa.Column("deleted", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint(
            "host",
            "hypervisor_hostname",
            "deleted",
            name="uniq_compute_nodes0host0hypervisor_hostname0deleted",
        ),
        sa.Index("compute_nodes_uuid_idx", "uuid", unique=True),
        **MYSQL_TABLE_ARGS,
    )

    op.create_table(
        "console_auth_tokens",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=255), nullable=False),
        sa.Column("console_type", sa.String(length=255), nullable=False),
        sa.Column("host", sa.String(length=255), nullable=False),
        sa.Column("port", sa.Integer(), nullable=False),
        sa.Column("tls_port", sa.Integer(), nullable=True),
        sa.Column("internal_access_path", sa.Text(), nullable=True),
        sa.Column("instance_uuid", sa.String(length=36), nullable=False),
        sa.Column("expires", sa.Integer(), nullable=False),
        sa.Column("access_url_base", sa.String(length=255), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash", name="uniq_console_auth_tokens0token_hash"),
        sa.Index("console_auth_tokens_host_expires_idx", "host", "expires"),
        sa.Index("console_auth_tokens_instance_uuid_idx", "instance_uuid"),
        sa.Index(
            "console_auth_tokens_token_hash_instance_uuid_idx",
            "token_hash",
            "instance_uuid",
        ),
        **MYSQL_TABLE_ARGS,
    )

    op.create_table(
        "instances",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("deleted_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("uuid", sa.String(length=36), nullable=False),
        sa.Column("user_id", sa.String(length=255), nullable=True),
        sa.Column("project_id", sa.String(length=255), nullable=True),
        sa.Column("image_ref", sa.String(length=255), nullable=True),
        sa.Column("kernel_id", sa.String(length=255), nullable=True),
        sa.Column("ramdisk_id", sa.String(length=255), nullable=True),
        sa.Column("hostname", sa.String(length=255), nullable=True),
        sa.Column("launch_index", sa.Integer(), nullable=True),
        sa.Column("key_name", sa.String(length=255), nullable=True),
        sa.Column("key_data", MEDIUMTEXT, nullable=True),
        sa.Column("power_state", sa.Integer(), nullable=True),
        sa.Column("vm_state", sa.String(length=255), nullable=True),
        sa.Column("task_state", sa.String(length=255), nullable=True),
        sa.Column("memory_mb", sa.Integer(), nullable=True),
        sa.Column("vcpus", sa.Integer(), nullable=True),
        sa.Column("root_gb", sa.Integer(), nullable=True),
        sa.Column("ephemeral_gb", sa.Integer(), nullable=True),
        sa.Column("ephemeral_key_uuid", sa.String(length=36), nullable=True),
        sa.Column("host", sa.String(length=255), nullable=True),
        sa.Column("node", sa.String(length=255), nullable=True),
        sa.Column("compute_id", sa.BigInteger(), nullable=True),
        sa.Column("instance_type_id", sa.Integer(), nullable=True),
        sa.Column("user_data", MEDIUMTEXT, nullable=True),
        sa.Column("reservation_id", sa.String(length=255), nullable=True),
        sa.Column("launched_at", sa.DateTime(), nullable=True),
        sa.Column("terminated_at", sa.DateTime(), nullable=True),
        sa.Column("availability_zone", sa.String(length=255), nullable=True),
        sa.Column("display_name", sa.String(length=255), nullable=True),
        sa.Column("display_description", sa.String(length=255), nullable=True),
        sa.Column("launched_on", MEDIUMTEXT, nullable=True),
        sa.Column("locked", sa.Boolean(), nullable=True),
        sa.Column(
            "locked_by",
            sa.Enum("owner", "admin", name="instances0locked_by"),
            nullable=True,
        ),
        sa.Column("os_type", sa.String(length=255), nullable=True),
        sa.Column("architecture", sa.String(length=255), nullable=True),
        sa.Column("vm_mode", sa.String(length=255), nullable=True),
        sa.Column("root_device_name", sa.String(length=255), nullable=True),
        sa.Column("default_ephemeral_device", sa.String(length=255), nullable=True),
        sa.Column("default_swap_device", sa.String(length=255), nullable=True),
        sa.Column("config_drive", sa.String(length=255), nullable=True),
        sa.Column("access_ip_v4", IP_ADDRESS, nullable=True),
        sa.Column("access_ip_v6", IP_ADDRESS, nullable=True),
        sa.Column("auto_disk_config", sa.Boolean(), nullable=True),
        sa.Column("progress", sa.Integer(), nullable=True),
        sa.Column("shutdown_terminate", sa.Boolean(), nullable=True),
        sa.Column("disable_terminate", sa.Boolean(), nullable=True),
        sa.Column("cell_name", sa.String(length=255), nullable=True),
        sa.Column("internal_id", sa.Integer(), nullable=True),
        sa.Column("cleaned", sa.Integer(), nullable=True),
        sa.Column("hidden", sa.Boolean(), nullable=True),
        sa.Column("deleted", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("uuid", name="uniq_instances0uuid"),
        sa.Index("instances_compute_id_deleted_idx", "compute_id", "deleted"),
        sa.Index("instances_deleted_created_at_idx", "deleted", "created_at"),
        sa.Index("instances_host_deleted_cleaned_idx", "host", "deleted", "cleaned"),
        sa.Index("instances_host_node_deleted_idx", "host", "node", "deleted"),
        sa.Index("instances_project_id_deleted_idx", "project_id", "deleted"),
        sa.Index("instances_project_id_idx", "project_id"),
        sa.Index("instances_reservation_id_idx", "reservation_id"),
        sa.Index("instances_task_state_updated_at_idx", "task_state", "updated_at"),
        sa.Index(
            "instances_terminated_at_launched_at_idx", "terminated_at", "launched_at"
        ),
        sa.Index("instances_updated_at_project_id_idx", "updated_at", "project_id"),
        sa.Index("instances_uuid_deleted_idx", "uuid", "deleted"),
        **MYSQL_TABLE_ARGS,
    )

    op.create_table(
        "services",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("deleted_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("uuid", sa.String(length=36), nullable=True),
        sa.Column("host", sa.String(length=255), nullable=True),
        sa.Column("binary", sa.String(length=255), nullable=True),
        sa.Column("topic", sa.String(length=255), nullable=True),
        sa.Column("report_count", sa.Integer(), nullable=False),
        sa.Column("disabled", sa.Boolean(), nullable=True),
        sa.Column("disabled_reason", sa.String(length=255), nullable=True),
        sa.Column("last_seen_up", sa.DateTime(), nullable=True),
        sa.Column("forced_down", sa.Boolean(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=True),
        sa.Column("deleted", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint(
            "host", "binary", "deleted", name="uniq_services0host0binary0deleted"
        ),
        sa.UniqueConstraint(
            "host", "topic", "deleted", name="uniq_services0host0topic0deleted"
        ),
        sa.Index("services_uuid_idx", "uuid", unique=True),
        **MYSQL_TABLE_ARGS,
    )

    op.create_table(
        "tags",
        sa.Column("resource_id", sa.String(length=36), nullable=False),
        sa.Column("tag", sa.String(length=80), nullable=False),
        sa.PrimaryKeyConstraint("resource_id", "tag"),
        sa.Index("tags_tag_idx", "tag"),
        **MYSQL_TABLE_ARGS,
    )

    op.create_table(
        "block_device_mapping",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("deleted_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("instance_uuid", sa.String(length=36), nullable=True),
        sa.Column("uuid", sa.String(length=36), nullable=True),
        sa.Column("source_type", sa.String(length=255), nullable=True),
        sa.Column("destination_type", sa.String(length=255), nullable=True),
        sa.Column("guest_format", sa.String(length=255), nullable=True),
        sa.Column("device_type", sa.String(length=255), nullable=True),
        sa.Column("disk_bus", sa.String(length=255), nullable=True),
        sa.Column("boot_index", sa.Integer(), nullable=True),
        sa.Column("device_name", sa.String(length=255), nullable=True),
        sa.Column("delete_on_termination", sa.Boolean(), nullable=True),
        sa.Column("snapshot_id", sa.String(length=36), nullable=True),
        sa.Column("volume_id", sa.String(length=36), nullable=True),
        sa.Column("volume_size", sa.Integer(), nullable=True),
        sa.Column("volume_type", sa.String(length=255), nullable=True),
        sa.Column("image_id", sa.String(length=36), nullable=True),
        sa.Column("no_device", sa.Boolean(), nullable=True),
        sa.Column("connection_info", MEDIUMTEXT, nullable=True),
        sa.Column("tag", sa.String(length=255), nullable=True),
        sa.Column("attachment_id", sa.String(length=36), nullable=True),
        sa.Column("encrypted", sa.Boolean(), nullable=True),
        sa.Column("encryption_secret_uuid", sa.String(length=36), nullable=True),
        sa.Column("encryption_format", sa.String(length=128), nullable=True),
        sa.Column("encryption_options", sa.String(length=4096), nullable=True),
        sa.Column("deleted", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["instance_uuid"],
            ["instances.uuid"],
            name="block_device_mapping_instance_uuid_fkey",
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("uuid", name="uniq_block_device_mapping0uuid"),
        sa.Index(
            "block_device_mapping_instance_uuid_device_name_idx",
            "instance_uuid",
            "device_name",
        ),
        sa.Index("block_device_mapping_instance_uuid_idx", "instance_uuid"),
        sa.Index(
            "block_device_mapping_instance_uuid_volume_id_idx",
            "instance_uuid",
            "volume_id",
        ),
        sa.Index("snapshot_id", "snapshot_id"),
        sa.Index("volume_id", "volume_id"),
        **MYSQL_TABLE_ARGS,
    )

    op.create_table(
        "instance_actions",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("deleted_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(length=255), nullable=True),
        sa.Column("instance_uuid", sa.String(length=36), nullable=True),
        sa.Column("request_id", sa.String(length=255), nullable=True),
        sa.Column("user_id", sa.String(length=255), nullable=True),
        sa.Column("project_id", sa.String(length=255), nullable=True),
        sa.Column("start_time", sa.DateTime(), nullable=True),
        sa.Column("finish_time", sa.DateTime(), nullable=True),
        sa.Column("message", sa.String(length=255), nullable=True),
        sa.Column("deleted", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["instance_uuid"],
            ["instances.uuid"],
            name="fk_instance_actions_instance_uuid",
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.Index(
            "instance_actions_instance_uuid_updated_at_idx",
            "instance_uuid",
            "updated_at",
        ),
        sa.Index("instance_uuid_idx", "instance_uuid"),
        sa.Index("request_id_idx", "request_id"),
        **MYSQL_TABLE_ARGS,
    )

    op.create_table(
        "instance_extra",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("deleted_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("instance_uuid", sa.String(length=36), nullable=False),
        sa.Column("device_metadata", sa.Text(), nullable=True),
        sa.Column("numa_topology", sa.Text(), nullable=True),
        sa.Column("pci_requests", sa.Text(), nullable=True),
        sa.Column("flavor", sa.Text(), nullable=True),
        sa.Column("vcpu_model", sa.Text(), nullable=True),
        sa.Column("migration_context", sa.Text(), nullable=True),
        sa.Column("keypairs", sa.Text(), nullable=True),
        sa.Column("trusted_certs", sa.Text(), nullable=True),
        sa.Column("vpmems", sa.Text(), nullable=True),
        sa.Column("resources", sa.Text(), nullable=True),
        sa.Column("deleted", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["instance_uuid"],
            ["instances.uuid"],
            name="instance_extra_instance_uuid_fkey",
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.Index("instance_extra_idx", "instance_uuid"),
        **MYSQL_TABLE_ARGS,
    )

    op.create_table(
        "instance_faults",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("deleted_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("instance_uuid", sa.String(length=36), nullable=True),
        sa.Column("code", sa.Integer(), nullable=False),
        sa.Column("message", sa.String(length=255), nullable=True),
        sa.Column("details", MEDIUMTEXT, nullable=True),
        sa.Column("host", sa.String(length=255), nullable=True),
        sa.Column("deleted", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["instance_uuid"],
            ["instances.uuid"],
            name="fk_instance_faults_instance_uuid",
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.Index("instance_faults_host_idx", "host"),
        sa.Index(
            "instance_faults_instance_uuid_deleted_created_at_idx",
            "instance_uuid",
            "deleted",
            "created_at",
        ),
        **MYSQL_TABLE_ARGS,
    )

    op.create_table(
        "instance_info_caches",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("deleted_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("network_info", MEDIUMTEXT, nullable=True),
        sa.Column("instance_uuid", sa.String(length=36), nullable=False),
        sa.Column("deleted", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["instance_uuid"],
            ["instances.uuid"],
            name="instance_info_caches_instance_uuid_fkey",
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint(
            "instance_uuid", name="uniq_instance_info_caches0instance_uuid"
        ),
        **MYSQL_TABLE_ARGS,
    )
    op.create_table(
        "instance_metadata",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("deleted_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=255), nullable=True),
        sa.Column("value", sa.String(length=255), nullable=True),
        sa.Column("instance_uuid", sa.String(length=36), nullable=True),
        sa.Column("deleted", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["instance_uuid"],
            ["instances.uuid"],
            name="instance_metadata_instance_uuid_fkey",
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.Index("instance_metadata_instance_uuid_idx", "instance_uuid"),
        **MYSQL_TABLE_ARGS,
    )

    op.create_table(
        "instance_system_metadata",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("deleted_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("instance_uuid", sa.String(length=36), nullable=False),
        sa.Column("key", sa.String(length=255), nullable=False),
        sa.Column("value", sa.String(length=255), nullable=True),
        sa.Column("deleted", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["instance_uuid"],
            ["instances.uuid"],
            name="instance_system_metadata_ibfk_1",
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.Index("instance_uuid", "instance_uuid"),
        **MYSQL_TABLE_ARGS,
    )

    op.create_table(
        "migrations",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("deleted_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("source_compute", sa.String(length=255), nullable=True),
        sa.Column("dest_compute", sa.String(length=255), nullable=True),
        sa.Column("source_node", sa.String(length=255), nullable=True),
        sa.Column("dest_node", sa.String(length=255), nullable=True),
        sa.Column("dest_host", sa.String(length=255), nullable=True),
        sa.Column("dest_compute_id", sa.BigInteger(), nullable=True),
        sa.Column("old_instance_type_id", sa.Integer(), nullable=True),
        sa.Column("new_instance_type_id", sa.Integer(), nullable=True),
        sa.Column("instance_uuid", sa.String(length=36), nullable=True),
        sa.Column("uuid", sa.String(length=36), nullable=True),
        sa.Column("status", sa.String(length=255), nullable=True),
        sa.Column(
            "migration_type",
            sa.Enum(
                "migration",
                "resize",
                "live-migration",
                "evacuation",
                name="migration_type",
            ),
            nullable=True,
        ),
        sa.Column("hidden", sa.Boolean(), nullable=True),
        sa.Column("memory_total", sa.BigInteger(), nullable=True),
        sa.Column("memory_processed", sa.BigInteger(), nullable=True),
        sa.Column("memory_remaining", sa.BigInteger(), nullable=True),
        sa.Column("disk_total", sa.BigInteger(), nullable=True),
        sa.Column("disk_processed", sa.BigInteger(), nullable=True),
        sa.Column("disk_remaining", sa.BigInteger(), nullable=True),
        sa.Column("cross_cell_move", sa.Boolean(), nullable=True),
        sa.Column("user_id", sa.String(length=255), nullable=True),
        sa.Column("project_id", sa.String(length=255), nullable=True),
        sa.Column("deleted", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["instance_uuid"], ["instances.uuid"], name="fk_migrations_instance_uuid"
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.Index(
            "migrations_by_dest_host_nodes_and_status_idx",
            "deleted",
            "dest_compute",
            "dest_node",
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
            mysql_length={
                "source_compute": 100,
                "dest_compute": 100,
                "source_node": 100,
                "dest_node": 100,
            },
        ),
        sa.Index(
            "migrations_by_src_host_nodes_and_status_idx",
            "deleted",
            "source_compute",
            "source_node",
            "status",
        ),
        sa.Index(
            "migrations_dest_compute_id_deleted_idx", "dest_compute_id", "deleted"
        ),
        sa.Index(
            "migrations_instance_uuid_and_status_idx",
            "deleted",
            "instance_uuid",
            "status",
        ),
        sa.Index("migrations_updated_at_idx", "updated_at"),
        sa.Index("migrations_uuid", "uuid", unique=True),
        **MYSQL_TABLE_ARGS,
    )

    op.create_table(
        "virtual_interfaces",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("deleted_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=255), nullable=True),
        sa.Column("network_id", sa.Integer(), nullable=True),
        sa.Column("instance_uuid", sa.String(length=36), nullable=True),
        sa.Column("uuid", sa.String(length=36), nullable=True),
        sa.Column("tag", sa.String(length=255), nullable=True),
        sa.Column("deleted", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["instance_uuid"],
            ["instances.uuid"],
            name="virtual_interfaces_instance_uuid_fkey",
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint(
            "address", "deleted", name="uniq_virtual_interfaces0address0deleted"
        ),
        sa.Index("virtual_interfaces_instance_uuid_fkey", "instance_uuid"),
        sa.Index("virtual_interfaces_network_id_idx", "network_id"),
        sa.Index("virtual_interfaces_uuid_idx", "uuid"),
        **MYSQL_TABLE_ARGS,
    )

    op.create_table(
        "instance_actions_events",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("deleted_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event", sa.String(length=255), nullable=True),
        sa.Column("action_id", sa.Integer(), nullable=True),
        sa.Column("start_time", sa.DateTime(), nullable=True),
        sa.Column("finish_time", sa.DateTime(), nullable=True),
        sa.Column("result", sa.String(length=255), nullable=True),
        sa.Column("traceback", sa.Text(), nullable=True),
        sa.Column("host", sa.String(length=255), nullable=True),
        sa.Column("details", sa.Text(), nullable=True),
        sa.Column("deleted", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["action_id"],
            ["instance_actions.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.Index("instance_actions_events_action_id_idx", "action_id"),
        **MYSQL_TABLE_ARGS,
    )


def downgrade() -> None:
    raise NotImplementedError("Nova schemas are never downgraded.")
