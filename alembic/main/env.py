"""Alembic environment of the cell databases (nova_cell0, nova_cell1, ...)."""

from nova.db import migration
from nova.db.main import models

migration.run_environment(models.BASE.metadata)
