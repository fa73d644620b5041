from tests.fixtures.rabbitmq import make_vhost, transport_url  # noqa: F401
