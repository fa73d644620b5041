import nova.conf  # noqa: F401  (native threads before oslo.messaging)
from tests.fixtures.rabbitmq import make_vhost, transport_url  # noqa: F401
from tests.functional.api.conftest import (  # noqa: F401  (fixtures)
    glance,
    glance_images,
    parsed_conf,
)
