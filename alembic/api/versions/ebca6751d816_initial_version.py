"""Initial version: the API database: cells, host and instance mappings, build
requests, request specs, flavors, key pairs, quotas, server groups, aggregates.

Table, column, constraint and index names are upstream Nova's.

Revision ID: ebca6751d816
Revises:
Create Date: 2026-12-02 15:52:08.749485
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql

# Types spelled out here rather than imported from nova.db.types: a migration
# must keep creating what it created when it was written.
MEDIUMTEXT = sa.Text().with_variant(mysql.MEDIUMTEXT(), "mysql")
MYSQL_TABLE_ARGS = {"mysql_engine": "InnoDB", "mysql_charset": "utf8mb4"}

revision = "ebca6751d816"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "aggregates",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("uuid", sa.String(length=36), nullable=True),
        sa.Column("name", sa.String(length=255), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name", name="uniq_aggregate0name"),
        sa.Index("aggregate_uuid_idx", "uuid"),
        **MYSQL_TABLE_ARGS,
    )

    op.create_table(
        "build_requests",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("instance_uuid", sa.String(length=36), nullable=True),
        sa.Column("project_id", sa.String(length=255), nullable=False),
        sa.Column("instance", MEDIUMTEXT, nullable=True),
        sa.Column("block_device_mappings", MEDIUMTEXT, nullable=True),
        sa.Column("tags", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("instance_uuid", name="uniq_build_requests0instance_uuid"),
        sa.Index("build_requests_instance_uuid_idx", "instance_uuid"),
        sa.Index("build_requests_project_id_idx", "project_id"),
        **MYSQL_TABLE_ARGS,
    )

    op.create_table(
        "cell_mappings",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("uuid", sa.String(length=36), nullable=False),
        sa.Column("name", sa.String(length=255), nullable=True),
        sa.Column("transport_url", sa.Text(), nullable=True),
        sa.Column("database_connection", sa.Text(), nullable=True),
        sa.Column("disabled", sa.Boolean(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("uuid", name="uniq_cell_mappings0uuid"),
        sa.Index("uuid_idx", "uuid"),
        **MYSQL_TABLE_ARGS,
    )

    op.create_table(
        "flavors",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=255), nullable=False),
        sa.Column("memory_mb", sa.Integer(), nullable=False),
        sa.Column("vcpus", sa.Integer(), nullable=False),
        sa.Column("root_gb", sa.Integer(), nullable=True),
        sa.Column("ephemeral_gb", sa.Integer(), nullable=True),
        sa.Column("flavorid", sa.String(length=255), nullable=False),
        sa.Column("swap", sa.Integer(), nullable=False),
        sa.Column("rxtx_factor", sa.Float(), nullable=True),
        sa.Column("vcpu_weight", sa.Integer(), nullable=True),
        sa.Column("disabled", sa.Boolean(), nullable=True),
        sa.Column("is_public", sa.Boolean(), nullable=True),
        sa.Column("description", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("flavorid", name="uniq_flavors0flavorid"),
        sa.UniqueConstraint("name", name="uniq_flavors0name"),
        **MYSQL_TABLE_ARGS,
    )
    op.create_table(
        "instance_groups",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.String(length=255), nullable=True),
        sa.Column("project_id", sa.String(length=255), nullable=True),
        sa.Column("uuid", sa.String(length=36), nullable=False),
        sa.Column("name", sa.String(length=255), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("uuid", name="uniq_instance_groups0uuid"),
        **MYSQL_TABLE_ARGS,
    )
    op.create_table(
        "key_pairs",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=255), nullable=False),
        sa.Column("user_id", sa.String(length=255), nullable=False),
        sa.Column("fingerprint", sa.String(length=255), nullable=True),
        sa.Column("public_key", sa.Text(), nullable=True),
        sa.Column(
            "type",
            sa.Enum("ssh", "x509", name="keypair_types"),
            server_default="ssh",
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("user_id", "name", name="uniq_key_pairs0user_id0name"),
        **MYSQL_TABLE_ARGS,
    )
    op.create_table(
        "project_user_quotas",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("project_id", sa.String(length=255), nullable=False),
        sa.Column("user_id", sa.String(length=255), nullable=False),
        sa.Column("resource", sa.String(length=255), nullable=False),
        sa.Column("hard_limit", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint(
            "user_id",
            "project_id",
            "resource",
            name="uniq_project_user_quotas0user_id0project_id0resource",
        ),
        sa.Index("project_user_quotas_project_id_idx", "project_id"),
        sa.Index("project_user_quotas_user_id_idx", "user_id"),
        **MYSQL_TABLE_ARGS,
    )

    op.create_table(
        "quota_classes",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("class_name", sa.String(length=255), nullable=True),
        sa.Column("resource", sa.String(length=255), nullable=True),
        sa.Column("hard_limit", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.Index("quota_classes_class_name_idx", "class_name"),
        **MYSQL_TABLE_ARGS,
    )

    op.create_table(
        "quota_usages",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("project_id", sa.String(length=255), nullable=True),
        sa.Column("user_id", sa.String(length=255), nullable=True),
        sa.Column("resource", sa.String(length=255), nullable=False),
        sa.Column("in_use", sa.Integer(), nullable=False),
        sa.Column("reserved", sa.Integer(), nullable=False),
        sa.Column("until_refresh", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.Index("quota_usages_project_id_idx", "project_id"),
        sa.Index("quota_usages_user_id_idx", "user_id"),
        **MYSQL_TABLE_ARGS,
    )

    op.create_table(
        "quotas",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("project_id", sa.String(length=255), nullable=True),
        sa.Column("resource", sa.String(length=255), nullable=False),
        sa.Column("hard_limit", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint(
            "project_id", "resource", name="uniq_quotas0project_id0resource"
        ),
        **MYSQL_TABLE_ARGS,
    )
    op.create_table(
        "request_specs",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("instance_uuid", sa.String(length=36), nullable=False),
        sa.Column("spec", MEDIUMTEXT, nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("instance_uuid", name="uniq_request_specs0instance_uuid"),
        sa.Index("request_spec_instance_uuid_idx", "instance_uuid"),
        **MYSQL_TABLE_ARGS,
    )

    op.create_table(
        "aggregate_hosts",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("host", sa.String(length=255), nullable=True),
        sa.Column("aggregate_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["aggregate_id"],
            ["aggregates.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint(
            "host", "aggregate_id", name="uniq_aggregate_hosts0host0aggregate_id"
        ),
        **MYSQL_TABLE_ARGS,
    )
    op.create_table(
        "aggregate_metadata",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=255), nullable=False),
        sa.Column("value", sa.String(length=255), nullable=False),
        sa.Column("aggregate_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["aggregate_id"],
            ["aggregates.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint(
            "aggregate_id", "key", name="uniq_aggregate_metadata0aggregate_id0key"
        ),
        sa.Index("aggregate_metadata_key_idx", "key"),
        **MYSQL_TABLE_ARGS,
    )

    op.create_table(
        "flavor_extra_specs",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=255), nullable=False),
        sa.Column("value", sa.String(length=255), nullable=True),
        sa.Column("flavor_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["flavor_id"],
            ["flavors.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint(
            "flavor_id", "key", name="uniq_flavor_extra_specs0flavor_id0key"
        ),
        sa.Index("flavor_extra_specs_flavor_id_key_idx", "flavor_id", "key"),
        mysql_collate="utf8mb4_bin",
        **MYSQL_TABLE_ARGS,
    )

    op.create_table(
        "flavor_projects",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("flavor_id", sa.Integer(), nullable=False),
        sa.Column("project_id", sa.String(length=255), nullable=False),
        sa.ForeignKeyConstraint(
            ["flavor_id"],
            ["flavors.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint(
            "flavor_id", "project_id", name="uniq_flavor_projects0flavor_id0project_id"
        ),
        **MYSQL_TABLE_ARGS,
    )
    op.create_table(
        "host_mappings",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("cell_id", sa.Integer(), nullable=False),
        sa.Column("host", sa.String(length=255), nullable=False),
        sa.ForeignKeyConstraint(
            ["cell_id"],
            ["cell_mappings.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("host", name="uniq_host_mappings0host"),
        sa.Index("host_idx", "host"),
        **MYSQL_TABLE_ARGS,
    )

    op.create_table(
        "instance_group_member",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("instance_uuid", sa.String(length=255), nullable=True),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["instance_groups.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.Index("instance_group_member_instance_idx", "instance_uuid"),
        **MYSQL_TABLE_ARGS,
    )

    op.create_table(
        "instance_group_policy",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("policy", sa.String(length=255), nullable=True),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("rules", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["instance_groups.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.Index("instance_group_policy_policy_idx", "policy"),
        **MYSQL_TABLE_ARGS,
    )

    op.create_table(
        "instance_mappings",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("instance_uuid", sa.String(length=36), nullable=False),
        sa.Column("cell_id", sa.Integer(), nullable=True),
        sa.Column("project_id", sa.String(length=255), nullable=False),
        sa.Column("user_id", sa.String(length=255), nullable=True),
        sa.Column("queued_for_delete", sa.Boolean(), nullable=True),
        sa.ForeignKeyConstraint(
            ["cell_id"],
            ["cell_mappings.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint(
            "instance_uuid", name="uniq_instance_mappings0instance_uuid"
        ),
        sa.Index("instance_mappings_user_id_project_id_idx", "user_id", "project_id"),
        sa.Index("instance_uuid_idx", "instance_uuid"),
        sa.Index("project_id_idx", "project_id"),
        **MYSQL_TABLE_ARGS,
    )


def downgrade() -> None:
    raise NotImplementedError("Nova schemas are never downgraded.")
