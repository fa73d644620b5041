"""Alembic environment of the API database (nova_api)."""

from nova.db import migration
from nova.db.api import models

migration.run_environment(models.BASE.metadata)
