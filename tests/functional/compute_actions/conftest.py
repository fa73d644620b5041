"""Server actions through the real HTTP API, on the API tests' databases;
those that reach nova-compute use a real ComputeManager on the fake driver
serving RPC over real RabbitMQ (the console tests' ``compute`` fixture)."""

from __future__ import annotations

import pytest

from nova import context as nova_context
from nova import objects
from tests.fixtures.rabbitmq import make_vhost  # noqa: F401  (fixture)
from tests.functional.api.conftest import (  # noqa: F401  (fixtures)
    api,
    cloud_databases,
    flavor,
    nova_conf,
    parsed_conf,
)
from tests.functional.console.conftest import (  # noqa: F401  (fixtures)
    COMPUTE_HOST,
    cell_conf,
    compute,
    console_instance,
    vnc_server,
)

ADMIN = "admin:admin"


def server(cloud, compute=None, **values):  # noqa: F811 - not the fixture
    """A server of the demo project in cell1 on COMPUTE_HOST (a running
    guest of ``compute``'s fake driver when given)."""
    values.setdefault("display_name", "s1")
    # As the compute API creates them.
    values.setdefault("locked", False)
    return console_instance(cloud, compute, **values)


def cell_instance(cloud, uuid: str):
    context = nova_context.get_admin_context()
    with nova_context.target_cell(context, cloud["cells"]["cell1"]) as cctxt:
        return objects.Instance.get_by_uuid(
            cctxt, uuid, expected_attrs=["system_metadata"]
        )


def action(client, uuid: str, body: dict, **kwargs):
    return client.post(f"/v2.1/servers/{uuid}/action", body, **kwargs)


@pytest.fixture
def compute_service(nova_conf):  # noqa: F811 - fixture arguments
    """COMPUTE_HOST's nova-compute service record (up) in cell1."""
    context = nova_context.get_admin_context()
    with nova_context.target_cell(context, nova_conf["cells"]["cell1"]) as cctxt:
        service = objects.Service(
            cctxt, host=COMPUTE_HOST, binary="nova-compute", topic="compute"
        )
        service.create()
    return service


@pytest.fixture
def compute_host(cell_conf, compute):  # noqa: F811 - fixture arguments
    """COMPUTE_HOST's ComputeManager, writing to cell1 as a cell's
    nova-compute does (here straight to the database, the conductor's
    part being tested elsewhere)."""
    return compute
