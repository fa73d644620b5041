import pytest

# Before anything imports oslo.messaging: nova.conf makes oslo.service
# settle on native threads, as every nova process does.
import nova.conf  # noqa: F401
from tests.fixtures.rabbitmq import make_vhost, transport_url  # noqa: F401
from tests.functional.boot.deployment import configured_deployment


@pytest.fixture
def compute_options() -> dict:
    """More [DEFAULT] options of the computes; a test module overrides this
    fixture to set some (e.g. reclaim_instance_interval)."""
    return {}


@pytest.fixture
def common_options() -> dict:
    """More sections of every daemon's configuration; a test module
    overrides this fixture to set some (e.g. [upgrade_levels])."""
    return {}


@pytest.fixture
def deployment(
    make_db_url,
    make_vhost,  # noqa: F811
    placement_endpoint,
    tmp_path,
    compute_options,
    common_options,
):
    """A configured deployment with its databases and cells created; this
    process plays nova-api (with the computes' ``compute_options`` too).
    Tests start the daemons they need."""
    with configured_deployment(
        make_db_url,
        make_vhost,
        placement_endpoint,
        tmp_path / "deployment",
        compute_options=compute_options,
        common_options=common_options,
    ) as deployment:
        yield deployment
