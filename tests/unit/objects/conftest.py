"""Objects against SQLite databases created straight from the models."""

import pytest

from nova import context, objects
from nova.conf import CONF
from nova.db import engines
from nova.db.api import models as api_models
from nova.db.main import models as main_models

objects.register_all()


@pytest.fixture
def ctxt(tmp_path):
    """An admin context whose API and local cell databases are empty."""
    api = f"sqlite:///{tmp_path / 'api.sqlite'}"
    cell = f"sqlite:///{tmp_path / 'cell.sqlite'}"
    api_models.BASE.metadata.create_all(engines.get_engine(api))
    main_models.BASE.metadata.create_all(engines.get_engine(cell))
    CONF.set_override("connection", api, group="api_database")
    CONF.set_override("connection", cell, group="database")
    yield context.get_admin_context()
    CONF.clear_override("connection", group="api_database")
    CONF.clear_override("connection", group="database")
    engines.dispose(api)
    engines.dispose(cell)
