"""Disabling a compute service through os-services reaches the compute over
RabbitMQ at once: by the time the API answers, the compute has put
COMPUTE_STATUS_DISABLED on its provider in the real Placement (and enabling
takes it off), so the scheduler stops picking the host before any periodic
task runs."""

from __future__ import annotations

import pytest
from oslo_utils import uuidutils

from nova import context as nova_context
from nova import objects
from nova.api.openstack.compute import wsgi_app
from nova.conf import CONF
from nova.placement import COMPUTE_STATUS_DISABLED
from tests.fixtures.placement import make_client
from tests.functional.api.conftest import ADMIN, Client, WSGIServer
from tests.functional.boot.deployment import wait_for

pytestmark = [
    pytest.mark.rabbitmq,
    pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True),
]


@pytest.fixture
def service_deployment(deployment):
    """The boot tests' deployment with a cell conductor and one compute
    running, and the compute API over HTTP (noauth2, as admin)."""
    # The API's policy engine reads a parsed configuration.
    CONF([], project="nova", default_config_files=[])
    CONF.set_override("auth_strategy", "noauth2", group="api")
    deployment.host = f"compute-{uuidutils.generate_uuid()[:8]}"
    cell_conf = deployment.directory / "nova-cell1.conf"
    # A compute reaches its database through the cell conductor.
    deployment.start("cell1-conductor", "conductor", cell_conf)
    deployment.start(
        deployment.host,
        "compute",
        cell_conf,
        deployment.compute_config(deployment.host),
    )
    server = WSGIServer(wsgi_app.build_app(CONF))
    deployment.api = Client(server.url, token=ADMIN)
    try:
        yield deployment
    finally:
        server.stop()
        CONF.clear_override("auth_strategy", group="api")


def _compute_provider(deployment, placement):
    """(service uuid, provider uuid) once the compute has reported in."""
    context = nova_context.get_admin_context()

    def reported():
        deployment.assert_running()
        with nova_context.target_cell(context, deployment.cell1) as cctxt:
            nodes = objects.ComputeNodeList.get_all(cctxt)
            service = objects.Service.get_by_host_and_binary(
                cctxt, deployment.host, "nova-compute"
            )
        if not nodes or service is None:
            return None
        if placement.find_provider(nodes[0].hypervisor_hostname) is None:
            return None
        return service.uuid, nodes[0].uuid

    return wait_for(reported, 120, "the compute's node and provider")


def _traits(placement, provider_uuid) -> set[str]:
    return set(placement.get_traits(provider_uuid).traits)


def test_disable_and_enable_set_the_trait_before_the_api_answers(
    service_deployment, placement_endpoint
):
    deployment = service_deployment
    placement = make_client(placement_endpoint)
    service_uuid, provider = _compute_provider(deployment, placement)
    assert COMPUTE_STATUS_DISABLED not in _traits(placement, provider)

    response = deployment.api.put(
        f"/v2.1/os-services/{service_uuid}",
        {"status": "disabled", "disabled_reason": "maintenance"},
        version="2.53",
    )
    assert response.status_code == 200, response.text
    assert response.json()["service"]["status"] == "disabled"
    # No waiting: the API's call returned after the compute set the trait.
    assert COMPUTE_STATUS_DISABLED in _traits(placement, provider)

    response = deployment.api.put(
        f"/v2.1/os-services/{service_uuid}", {"status": "enabled"}, version="2.53"
    )
    assert response.status_code == 200, response.text
    assert COMPUTE_STATUS_DISABLED not in _traits(placement, provider)

    # The pre-2.53 actions by host and binary do the same.
    body = {"host": deployment.host, "binary": "nova-compute"}
    response = deployment.api.put("/v2.1/os-services/disable", body)
    assert response.status_code == 200, response.text
    assert COMPUTE_STATUS_DISABLED in _traits(placement, provider)
    response = deployment.api.put("/v2.1/os-services/enable", body)
    assert response.status_code == 200, response.text
    assert COMPUTE_STATUS_DISABLED not in _traits(placement, provider)
