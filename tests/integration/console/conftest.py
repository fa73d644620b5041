"""The console tests' fixtures (databases, RPC compute, VNC server)."""

from tests.functional.console.conftest import (  # noqa: F401  (fixtures)
    api,
    cloud_databases,
    compute,
    flavor,
    make_vhost,
    nova_conf,
    parsed_conf,
    vnc_server,
)
