"""Networking without a network service, and the API choosing it."""

import pytest

from nova import exception
from nova.network import api, local, model


def test_specific_networks_are_refused_with_400():
    with pytest.raises(exception.NetworkRequestsNotSupported) as raised:
        local.LocalNetworkAPI().validate_networks(None, [{"uuid": "net-1"}], 1)
    assert raised.value.code == 400


@pytest.mark.parametrize("requested", ["auto", "none", [], None])
def test_no_specific_network_allows_every_instance(requested):
    assert local.LocalNetworkAPI().validate_networks(None, requested, 3) == 3


def test_an_instance_gets_no_ports():
    network = local.LocalNetworkAPI()
    allocated = network.allocate_for_instance(None, object(), "auto", bind_host_id="h")
    assert isinstance(allocated, model.NetworkInfo)
    assert allocated == []
    assert network.get_instance_nw_info(None, object()) == []


def test_get_network_api_chooses_the_local_one():
    network = api.get_network_api()
    assert isinstance(network, local.LocalNetworkAPI)
    assert isinstance(network, api.NetworkAPI)
