"""Console tests on the API tests' databases (every backend), real
RabbitMQ for the compute RPC."""

from tests.fixtures.rabbitmq import make_vhost  # noqa: F401  (fixture)
from tests.functional.api.conftest import (  # noqa: F401  (fixtures)
    api,
    cloud_databases,
    flavor,
    nova_conf,
    parsed_conf,
)
