"""Add task_log: one row per periodic host task and audit period (the
instance usage audit records its runs there).

Revision ID: 3c1b7a9d2f40
Revises: 55b7de5964b6
Create Date: 2026-12-03 04:30:00.000000
"""

import sqlalchemy as sa
from alembic import op

MYSQL_TABLE_ARGS = {"mysql_engine": "InnoDB", "mysql_charset": "utf8mb4"}

revision = "3c1b7a9d2f40"
down_revision = "55b7de5964b6"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "task_log",
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("deleted_at", sa.DateTime(), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False, autoincrement=True),
        sa.Column("task_name", sa.String(length=255), nullable=False),
        sa.Column("state", sa.String(length=255), nullable=False),
        sa.Column("host", sa.String(length=255), nullable=False),
        sa.Column("period_beginning", sa.DateTime(), nullable=False),
        sa.Column("period_ending", sa.DateTime(), nullable=False),
        sa.Column("message", sa.String(length=255), nullable=False),
        sa.Column("task_items", sa.Integer(), nullable=True),
        sa.Column("errors", sa.Integer(), nullable=True),
        sa.Column("deleted", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint(
            "task_name",
            "host",
            "period_beginning",
            "period_ending",
            name="uniq_task_log0task_name0host0period_beginning0period_ending",
        ),
        sa.Index("ix_task_log_host", "host"),
        sa.Index("ix_task_log_period_beginning", "period_beginning"),
        sa.Index("ix_task_log_period_ending", "period_ending"),
        **MYSQL_TABLE_ARGS,
    )


def downgrade() -> None:
    raise NotImplementedError("Nova schemas are never downgraded.")
