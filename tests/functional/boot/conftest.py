import pytest

# Before anything imports oslo.messaging: nova.conf makes oslo.service
# settle on native threads, as every nova process does.
import nova.conf  # noqa: F401
from nova import objects, rpc
from nova.conf import CONF
from nova.db import engines
from tests.fixtures.rabbitmq import make_vhost, transport_url  # noqa: F401
from tests.functional.boot.deployment import Deployment


@pytest.fixture
def compute_options() -> dict:
    """More [DEFAULT] options of the computes; a test module overrides this
    fixture to set some (e.g. reclaim_instance_interval)."""
    return {}


@pytest.fixture
def deployment(make_db_url, make_vhost, placement_endpoint, tmp_path, compute_options):  # noqa: F811
    """A configured deployment with its databases and cells created; this
    process plays nova-api (with the computes' ``compute_options`` too).
    Tests start the daemons they need."""
    objects.register_all()
    deployment = Deployment(
        directory=tmp_path / "deployment",
        api_db=make_db_url("api"),
        cell0_db=make_db_url("cell0"),
        cell1_db=make_db_url("cell1"),
        api_transport_url=make_vhost("api"),
        cell1_transport_url=make_vhost("cell1"),
        placement_endpoint=placement_endpoint,
        compute_options=compute_options,
    )
    deployment.write_configs()
    deployment.configure_api()
    for name, value in compute_options.items():
        CONF.set_override(name, value)
    deployment.create_databases()
    try:
        yield deployment
    finally:
        deployment.stop_all()
        rpc.cleanup()
        for url in (deployment.api_db, deployment.cell0_db, deployment.cell1_db):
            engines.dispose(url)
        CONF.clear_override("transport_url")
        for group in ("api_database", "database"):
            CONF.clear_override("connection", group=group)
        CONF.clear_override("service_down_time")
        for name in compute_options:
            CONF.clear_override(name)
