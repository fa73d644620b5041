"""``[database]``: the cell database (cell0 for API-level services).

The options are oslo.db's own; nova registers a copy under the group so that
oslo.db's later registrations of the same options find them already there.
"""

import copy

from oslo_config import cfg
from oslo_db import options as oslo_db_options

database_group = cfg.OptGroup(
    "database",
    title="Cell database options",
    help="Connection to this service's cell database. nova-compute never uses it.",
)

database_opts = copy.deepcopy(oslo_db_options.database_opts)


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_group(database_group)
    conf.register_opts(database_opts, group=database_group)


def list_opts() -> dict:
    return {database_group: database_opts}
