"""2.104: a server's pinned availability zone unpinned and pinned again
through ``PUT /servers/{id}``."""

from __future__ import annotations

import pytest

from nova import context as nova_context
from nova import objects
from tests.functional.api.conftest import ADMIN, OTHER, fault
from tests.functional.api.test_servers import _in_cell


@pytest.fixture
def pinned(nova_conf, flavor):
    """A server of the demo project on compute-1, which is in zone az1,
    pinned to az1."""
    context = nova_context.get_admin_context()
    zone = objects.Aggregate(
        context, name="agg-az1", metadata={"availability_zone": "az1"}
    )
    zone.create()
    zone.add_host("compute-1")
    instance = _in_cell(nova_conf, "cell1", availability_zone="az1")
    objects.RequestSpec.from_components(
        context,
        instance.uuid,
        {"id": "img", "properties": {}},
        flavor,
        filter_properties={},
        availability_zone="az1",
        project_id="demo",
        user_id="demo",
    ).create()
    return instance


def _pin(api, uuid, zone, version="2.104", **kwargs):
    body = {"server": {"pinned_availability_zone": zone}}
    return api.put(f"/v2.1/servers/{uuid}", body, version=version, **kwargs)


def _pinned_zone(api, uuid):
    server = api.get(f"/v2.1/servers/{uuid}", version="2.104").json()["server"]
    return server["pinned_availability_zone"]


def test_unpin_and_pin_again_to_the_current_zone(api, pinned):
    assert _pinned_zone(api, pinned.uuid) == "az1"

    response = _pin(api, pinned.uuid, None)
    assert response.status_code == 200
    assert response.json()["server"]["pinned_availability_zone"] is None
    assert _pinned_zone(api, pinned.uuid) is None
    # Where it runs does not change.
    shown = api.get(f"/v2.1/servers/{pinned.uuid}", version="2.104").json()
    assert shown["server"]["OS-EXT-AZ:availability_zone"] == "az1"

    response = _pin(api, pinned.uuid, "az1")
    assert response.status_code == 200
    assert _pinned_zone(api, pinned.uuid) == "az1"


def test_only_the_current_zone_can_be_pinned(api, pinned):
    _pin(api, pinned.uuid, None)
    response = _pin(api, pinned.uuid, "az2")
    name, code, message = fault(response)
    assert (name, code) == ("badRequest", 400)
    assert "az1" in message
    assert _pinned_zone(api, pinned.uuid) is None


def test_before_2_104_the_field_is_refused(api, pinned):
    response = _pin(api, pinned.uuid, None, version="2.103")
    assert response.status_code == 400
    assert _pinned_zone(api, pinned.uuid) == "az1"


def test_another_projects_server_is_not_found(api, pinned):
    assert _pin(api, pinned.uuid, None, token=OTHER).status_code == 404
    assert _pin(api, pinned.uuid, None, token=ADMIN).status_code == 200
