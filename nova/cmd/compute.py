"""``nova-compute``: runs the instances of one host.

It never opens a database, whatever the configuration files say: every
object method it calls runs in its cell's conductor over RPC.
"""

from __future__ import annotations

import sys

import nova.conf
from nova import service
from nova.conductor import rpcapi as conductor_rpcapi
from nova.objects import base as objects_base

CONF = nova.conf.CONF


def _without_database() -> None:
    # A compute host's configuration often layers the cell's file, which
    # names the cell database; an accidental query must fail, not connect.
    CONF.set_override("connection", None, group="database")
    CONF.set_override("connection", None, group="api_database")
    objects_base.NovaObject.indirection_api = conductor_rpcapi.ConductorAPI()


def main(argv=None) -> int:
    return service.main("nova-compute", "compute", argv, prepare=_without_database)


if __name__ == "__main__":
    sys.exit(main())
