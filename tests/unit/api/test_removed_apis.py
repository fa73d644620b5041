"""APIs upstream removed answer 410 Gone through the routing table."""

import pytest

from nova import exception
from nova.api.openstack import router
from nova.api.openstack.compute import removed, routes
from tests.unit.api.conftest import make_request


@pytest.mark.parametrize("template", sorted(removed.REMOVED_APIS))
def test_every_removed_api_is_routed_to_gone(template):
    table = router.Router(routes.ROUTES, "/v2.1")
    path = "/v2.1" + template.replace("{", "x").replace("}", "")
    route, params, _ = table.match(path)
    methods, _release = removed.REMOVED_APIS[template]
    for method in methods:
        assert route.methods[method] is removed.gone
        with pytest.raises(exception.Gone) as raised:
            route.methods[method](make_request(path), **params)
        assert raised.value.code == 410


def test_live_apis_are_not_shadowed():
    table = router.Router(routes.ROUTES, "/v2.1")
    assert table.match("/v2.1/os-services")[0].methods["GET"] is not removed.gone
    # Only the network actions are gone; listing networks is served.
    networks = table.match("/v2.1/os-networks")[0].methods
    assert networks["POST"] is removed.gone
    assert networks["GET"] is not removed.gone
    one = table.match("/v2.1/os-networks/n1")[0].methods
    assert one["DELETE"] is removed.gone and one["GET"] is not removed.gone
