"""The metadata API over HTTP, on the API tests' databases (every backend)."""

from tests.functional.api.conftest import (  # noqa: F401  (fixtures)
    WSGIServer,
    cloud_databases,
    flavor,
    nova_conf,
    parsed_conf,
)
