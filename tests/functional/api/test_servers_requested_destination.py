"""POST /servers with ``host`` / ``hypervisor_hostname`` (2.74): an admin
names where the server goes; names no cell knows get a 400 and no record."""

import pytest

from nova import context as nova_context
from nova import objects
from tests.fixtures.compute_nodes import create_compute_node
from tests.functional.api.conftest import ADMIN, fault
from tests.functional.api.test_servers import _api_rows, _body


@pytest.fixture
def compute_host(nova_conf):
    cell = nova_conf["cells"]["cell1"]
    context = nova_context.get_admin_context()
    with nova_context.target_cell(context, cell) as cctxt:
        create_compute_node(cctxt, "rd-host", "rd-node")
    objects.HostMapping(context, host="rd-host", cell_mapping=cell).create()


@pytest.mark.parametrize(
    "server",
    [
        {"host": "rd-host", "hypervisor_hostname": "rd-node"},
        {"host": "rd-host"},
        {"hypervisor_hostname": "rd-node"},
    ],
)
def test_the_requested_destination_reaches_the_request_spec(
    api, nova_conf, glance, flavor, conductor, compute_host, server
):
    response = api.post(
        "/v2.1/servers", _body(glance.active, **server), version="2.74", token=ADMIN
    )
    assert response.status_code == 202, response.text
    # The destination is transient: the conductor gets it, the database not.
    (build,) = conductor.builds
    (spec,) = build["request_specs"]
    destination = spec.requested_destination
    assert destination is not None
    assert (destination.host if "host" in destination else None) == server.get("host")
    assert (destination.node if "node" in destination else None) == server.get(
        "hypervisor_hostname"
    )


@pytest.mark.parametrize(
    "server",
    [
        {"host": "rd-nowhere"},
        {"host": "rd-host", "hypervisor_hostname": "rd-other-node"},
        {"hypervisor_hostname": "rd-nowhere"},
    ],
)
def test_unknown_hosts_and_nodes_are_bad_requests(
    api, nova_conf, glance, flavor, conductor, compute_host, server
):
    response = api.post(
        "/v2.1/servers", _body(glance.active, **server), version="2.74", token=ADMIN
    )
    name, code, text = fault(response)
    assert (name, code) == ("badRequest", 400)
    assert "could not be found" in text
    assert _api_rows(nova_conf) == (0, 0, 0)
    assert conductor.builds == []


def test_before_2_74_the_fields_are_refused(api, glance, flavor, conductor):
    response = api.post(
        "/v2.1/servers",
        _body(glance.active, host="rd-host"),
        version="2.73",
        token=ADMIN,
    )
    assert response.status_code == 400
