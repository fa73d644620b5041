"""Models of the API database (``nova_api``).

Tables, columns, constraint and index names are those of upstream Nova's API
schema so that operators' tools and queries keep working. Rows here are
deleted for real: the API database has no soft delete.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy import orm

from nova.db import types

# Tables are created in utf8mb4 whatever the server's default character set.
MYSQL_TABLE_ARGS = {"mysql_engine": "InnoDB", "mysql_charset": "utf8mb4"}


class BASE(orm.DeclarativeBase):
    """Declarative base of every API database model."""


class _APIModel(types.TimestampMixin, BASE):
    __abstract__ = True

    id: orm.Mapped[int] = orm.mapped_column(
        sa.Integer, primary_key=True, sort_order=-10
    )


class CellMapping(_APIModel):
    """A cell: where its database and message queue are."""

    __tablename__ = "cell_mappings"
    __table_args__ = (
        sa.Index("uuid_idx", "uuid"),
        sa.UniqueConstraint("uuid", name="uniq_cell_mappings0uuid"),
        MYSQL_TABLE_ARGS,
    )

    uuid: orm.Mapped[str] = orm.mapped_column(sa.String(36))
    name: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    transport_url: orm.Mapped[str | None] = orm.mapped_column(sa.Text)
    database_connection: orm.Mapped[str | None] = orm.mapped_column(sa.Text)
    disabled: orm.Mapped[bool | None] = orm.mapped_column(sa.Boolean, default=False)


class HostMapping(_APIModel):
    """Which cell a compute host belongs to."""

    __tablename__ = "host_mappings"
    __table_args__ = (
        sa.Index("host_idx", "host"),
        sa.UniqueConstraint("host", name="uniq_host_mappings0host"),
        MYSQL_TABLE_ARGS,
    )

    cell_id: orm.Mapped[int] = orm.mapped_column(sa.ForeignKey("cell_mappings.id"))
    host: orm.Mapped[str] = orm.mapped_column(sa.String(255))

    cell_mapping: orm.Mapped[CellMapping] = orm.relationship()


class InstanceMapping(_APIModel):
    """Which cell an instance lives in; no cell yet while it is being built."""

    __tablename__ = "instance_mappings"
    __table_args__ = (
        sa.Index("project_id_idx", "project_id"),
        sa.Index("instance_uuid_idx", "instance_uuid"),
        sa.Index("instance_mappings_user_id_project_id_idx", "user_id", "project_id"),
        sa.UniqueConstraint(
            "instance_uuid", name="uniq_instance_mappings0instance_uuid"
        ),
        MYSQL_TABLE_ARGS,
    )

    instance_uuid: orm.Mapped[str] = orm.mapped_column(sa.String(36))
    cell_id: orm.Mapped[int | None] = orm.mapped_column(
        sa.ForeignKey("cell_mappings.id")
    )
    project_id: orm.Mapped[str] = orm.mapped_column(sa.String(255))
    # Nullable as upstream: mappings written before Stein carry no user.
    user_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    queued_for_delete: orm.Mapped[bool | None] = orm.mapped_column(
        sa.Boolean, default=False
    )

    cell_mapping: orm.Mapped[CellMapping | None] = orm.relationship()


class BuildRequest(_APIModel):
    """An instance accepted by the API but not yet created in a cell."""

    __tablename__ = "build_requests"
    __table_args__ = (
        sa.Index("build_requests_instance_uuid_idx", "instance_uuid"),
        sa.Index("build_requests_project_id_idx", "project_id"),
        sa.UniqueConstraint("instance_uuid", name="uniq_build_requests0instance_uuid"),
        MYSQL_TABLE_ARGS,
    )

    instance_uuid: orm.Mapped[str | None] = orm.mapped_column(sa.String(36))
    project_id: orm.Mapped[str] = orm.mapped_column(sa.String(255))
    instance: orm.Mapped[str | None] = orm.mapped_column(types.MediumText)
    block_device_mappings: orm.Mapped[str | None] = orm.mapped_column(types.MediumText)
    tags: orm.Mapped[str | None] = orm.mapped_column(sa.Text)


class RequestSpec(_APIModel):
    """The scheduling request of an instance, kept for later moves."""

    __tablename__ = "request_specs"
    __table_args__ = (
        sa.Index("request_spec_instance_uuid_idx", "instance_uuid"),
        sa.UniqueConstraint("instance_uuid", name="uniq_request_specs0instance_uuid"),
        MYSQL_TABLE_ARGS,
    )

    instance_uuid: orm.Mapped[str] = orm.mapped_column(sa.String(36))
    spec: orm.Mapped[str] = orm.mapped_column(types.MediumText)


class Flavors(_APIModel):
    """A flavor: the size of an instance."""

    __tablename__ = "flavors"
    __table_args__ = (
        sa.UniqueConstraint("flavorid", name="uniq_flavors0flavorid"),
        sa.UniqueConstraint("name", name="uniq_flavors0name"),
        MYSQL_TABLE_ARGS,
    )

    name: orm.Mapped[str] = orm.mapped_column(sa.String(255))
    memory_mb: orm.Mapped[int] = orm.mapped_column(sa.Integer)
    vcpus: orm.Mapped[int] = orm.mapped_column(sa.Integer)
    root_gb: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)
    ephemeral_gb: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)
    flavorid: orm.Mapped[str] = orm.mapped_column(sa.String(255))
    swap: orm.Mapped[int] = orm.mapped_column(sa.Integer, default=0)
    rxtx_factor: orm.Mapped[float | None] = orm.mapped_column(sa.Float, default=1)
    vcpu_weight: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)
    disabled: orm.Mapped[bool | None] = orm.mapped_column(sa.Boolean, default=False)
    is_public: orm.Mapped[bool | None] = orm.mapped_column(sa.Boolean, default=True)
    description: orm.Mapped[str | None] = orm.mapped_column(sa.Text)

    extra_specs: orm.Mapped[list[FlavorExtraSpecs]] = orm.relationship(
        back_populates="flavor", cascade="all, delete-orphan"
    )
    projects: orm.Mapped[list[FlavorProjects]] = orm.relationship(
        back_populates="flavor", cascade="all, delete-orphan"
    )


class FlavorExtraSpecs(_APIModel):
    """A key/value pair refining a flavor (``hw:cpu_policy`` ...)."""

    __tablename__ = "flavor_extra_specs"
    __table_args__ = (
        sa.Index("flavor_extra_specs_flavor_id_key_idx", "flavor_id", "key"),
        sa.UniqueConstraint(
            "flavor_id", "key", name="uniq_flavor_extra_specs0flavor_id0key"
        ),
        # Binary collation as upstream: keys differing only in case are
        # distinct extra specs.
        {**MYSQL_TABLE_ARGS, "mysql_collate": "utf8mb4_bin"},
    )

    key: orm.Mapped[str] = orm.mapped_column(sa.String(255))
    value: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    flavor_id: orm.Mapped[int] = orm.mapped_column(sa.ForeignKey("flavors.id"))

    flavor: orm.Mapped[Flavors] = orm.relationship(back_populates="extra_specs")


class FlavorProjects(_APIModel):
    """A project allowed to use a private flavor."""

    __tablename__ = "flavor_projects"
    __table_args__ = (
        sa.UniqueConstraint(
            "flavor_id",
            "project_id",
            name="uniq_flavor_projects0flavor_id0project_id",
        ),
        MYSQL_TABLE_ARGS,
    )

    flavor_id: orm.Mapped[int] = orm.mapped_column(sa.ForeignKey("flavors.id"))
    project_id: orm.Mapped[str] = orm.mapped_column(sa.String(255))

    flavor: orm.Mapped[Flavors] = orm.relationship(back_populates="projects")


class KeyPair(_APIModel):
    """A user's public key (SSH or x509) injected into instances."""

    __tablename__ = "key_pairs"
    __table_args__ = (
        sa.UniqueConstraint("user_id", "name", name="uniq_key_pairs0user_id0name"),
        MYSQL_TABLE_ARGS,
    )

    name: orm.Mapped[str] = orm.mapped_column(sa.String(255))
    user_id: orm.Mapped[str] = orm.mapped_column(sa.String(255))
    fingerprint: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    public_key: orm.Mapped[str | None] = orm.mapped_column(sa.Text)
    type: orm.Mapped[str] = orm.mapped_column(
        sa.Enum("ssh", "x509", name="keypair_types"), server_default="ssh"
    )


class Quota(_APIModel):
    """A project's limit on one resource; NULL hard_limit means unlimited."""

    __tablename__ = "quotas"
    __table_args__ = (
        sa.UniqueConstraint(
            "project_id", "resource", name="uniq_quotas0project_id0resource"
        ),
        MYSQL_TABLE_ARGS,
    )

    project_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    resource: orm.Mapped[str] = orm.mapped_column(sa.String(255))
    hard_limit: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)


class ProjectUserQuota(_APIModel):
    """A user's limit on one resource within a project."""

    __tablename__ = "project_user_quotas"
    __table_args__ = (
        sa.UniqueConstraint(
            "user_id",
            "project_id",
            "resource",
            name="uniq_project_user_quotas0user_id0project_id0resource",
        ),
        sa.Index("project_user_quotas_project_id_idx", "project_id"),
        sa.Index("project_user_quotas_user_id_idx", "user_id"),
        MYSQL_TABLE_ARGS,
    )

    project_id: orm.Mapped[str] = orm.mapped_column(sa.String(255))
    user_id: orm.Mapped[str] = orm.mapped_column(sa.String(255))
    resource: orm.Mapped[str] = orm.mapped_column(sa.String(255))
    hard_limit: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)


class QuotaClass(_APIModel):
    """A quota class's limit on one resource (the ``default`` class)."""

    __tablename__ = "quota_classes"
    __table_args__ = (
        sa.Index("quota_classes_class_name_idx", "class_name"),
        MYSQL_TABLE_ARGS,
    )

    class_name: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    resource: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    hard_limit: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)


class QuotaUsage(_APIModel):
    """Usage counter of one resource, from the reservation-based quota era.

    Quotas are counted from the resources themselves now; the table is kept
    because upstream's API schema still has it.
    """

    __tablename__ = "quota_usages"
    __table_args__ = (
        sa.Index("quota_usages_project_id_idx", "project_id"),
        sa.Index("quota_usages_user_id_idx", "user_id"),
        MYSQL_TABLE_ARGS,
    )

    project_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    user_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    resource: orm.Mapped[str] = orm.mapped_column(sa.String(255))
    in_use: orm.Mapped[int] = orm.mapped_column(sa.Integer)
    reserved: orm.Mapped[int] = orm.mapped_column(sa.Integer)
    until_refresh: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)


class InstanceGroup(_APIModel):
    """A server group: instances placed by one (anti-)affinity policy."""

    __tablename__ = "instance_groups"
    __table_args__ = (
        sa.UniqueConstraint("uuid", name="uniq_instance_groups0uuid"),
        MYSQL_TABLE_ARGS,
    )

    user_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    project_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    uuid: orm.Mapped[str] = orm.mapped_column(sa.String(36))
    name: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))

    policies: orm.Mapped[list[InstanceGroupPolicy]] = orm.relationship(
        cascade="all, delete-orphan"
    )
    members: orm.Mapped[list[InstanceGroupMember]] = orm.relationship(
        cascade="all, delete-orphan"
    )


class InstanceGroupPolicy(_APIModel):
    """The policy of a server group, with its rules as JSON text."""

    __tablename__ = "instance_group_policy"
    __table_args__ = (
        sa.Index("instance_group_policy_policy_idx", "policy"),
        MYSQL_TABLE_ARGS,
    )

    policy: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    group_id: orm.Mapped[int] = orm.mapped_column(sa.ForeignKey("instance_groups.id"))
    rules: orm.Mapped[str | None] = orm.mapped_column(sa.Text)


class InstanceGroupMember(_APIModel):
    """An instance in a server group."""

    __tablename__ = "instance_group_member"
    __table_args__ = (
        sa.Index("instance_group_member_instance_idx", "instance_uuid"),
        MYSQL_TABLE_ARGS,
    )

    instance_uuid: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    group_id: orm.Mapped[int] = orm.mapped_column(sa.ForeignKey("instance_groups.id"))


class Aggregate(_APIModel):
    """A host aggregate; its ``availability_zone`` metadata makes it an AZ."""

    __tablename__ = "aggregates"
    __table_args__ = (
        sa.Index("aggregate_uuid_idx", "uuid"),
        sa.UniqueConstraint("name", name="uniq_aggregate0name"),
        MYSQL_TABLE_ARGS,
    )

    uuid: orm.Mapped[str | None] = orm.mapped_column(sa.String(36))
    name: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))

    hosts: orm.Mapped[list[AggregateHost]] = orm.relationship(
        cascade="all, delete-orphan"
    )
    # Not "metadata": declarative classes reserve that name.
    metadata_items: orm.Mapped[list[AggregateMetadata]] = orm.relationship(
        cascade="all, delete-orphan"
    )


class AggregateHost(_APIModel):
    """A compute host in an aggregate."""

    __tablename__ = "aggregate_hosts"
    __table_args__ = (
        sa.UniqueConstraint(
            "host", "aggregate_id", name="uniq_aggregate_hosts0host0aggregate_id"
        ),
        MYSQL_TABLE_ARGS,
    )

    host: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    aggregate_id: orm.Mapped[int] = orm.mapped_column(sa.ForeignKey("aggregates.id"))


class AggregateMetadata(_APIModel):
    """A key/value pair of an aggregate."""

    __tablename__ = "aggregate_metadata"
    __table_args__ = (
        sa.UniqueConstraint(
            "aggregate_id", "key", name="uniq_aggregate_metadata0aggregate_id0key"
        ),
        sa.Index("aggregate_metadata_key_idx", "key"),
        MYSQL_TABLE_ARGS,
    )

    key: orm.Mapped[str] = orm.mapped_column(sa.String(255))
    value: orm.Mapped[str] = orm.mapped_column(sa.String(255))
    aggregate_id: orm.Mapped[int] = orm.mapped_column(sa.ForeignKey("aggregates.id"))
