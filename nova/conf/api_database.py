"""``[api_database]``: the API database (``nova_api``).

Same options as ``[database]`` (oslo.db's), in a group of their own; a
conductor with ``[api_database] connection`` set acts as the superconductor.
"""

import copy

from oslo_config import cfg
from oslo_db import options as oslo_db_options

api_database_group = cfg.OptGroup(
    "api_database",
    title="API database options",
    help="Connection to the API database, used by the API services, the "
    "scheduler and the superconductor.",
)

api_database_opts = copy.deepcopy(oslo_db_options.database_opts)


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_group(api_database_group)
    conf.register_opts(api_database_opts, group=api_database_group)


def list_opts() -> dict:
    return {api_database_group: api_database_opts}
