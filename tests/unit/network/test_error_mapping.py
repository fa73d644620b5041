"""Neutron's answers become nova's errors (and their HTTP statuses), never
a 500: each Neutron client is handed canned Neutron responses in place of
the transport. The same paths against the real Neutron are in
tests/functional/network/.
"""

from __future__ import annotations

import json
import types

import pytest

from nova import context, exception
from nova.conf import CONF
from nova.network import floating_ips, neutron, neutron_client, security_groups

GROUP = "5f0c2a3e-0000-4000-8000-0000000000aa"
NET = "5f0c2a3e-0000-4000-8000-0000000000bb"


class Response:
    def __init__(self, status: int, body=None, error: str = "", message: str = ""):
        self.status_code = status
        if error:
            body = {"NeutronError": {"type": error, "message": message or error}}
        self._body = body or {}
        self.text = json.dumps(self._body)

    def json(self):
        return self._body


def _canned(cls, *responses):
    """An instance of ``cls`` whose requests get ``responses`` in turn."""
    queue = list(responses)
    calls = []

    class Canned(cls):
        def _call(self, ctxt, method, path, **kwargs):
            calls.append((method, path))
            response = queue.pop(0)
            if response.status_code >= 500:
                raise exception.NetworkServiceUnavailable(reason="boom")
            return response

    api = Canned()
    api.calls = calls
    return api


@pytest.fixture
def ctxt():
    return context.RequestContext(user_id="u", project_id="p")


@pytest.fixture(autouse=True)
def neutron_configured():
    CONF.set_override("endpoint_override", "http://127.0.0.1:9", group="neutron")
    yield
    CONF.clear_override("endpoint_override", group="neutron")


def _group(**fields):
    return {"id": GROUP, "name": "g", "project_id": "p", **fields}


def test_over_quota_groups_are_403(ctxt):
    api = _canned(
        security_groups.SecurityGroupAPI,
        Response(409, error="OverQuota", message="Quota exceeded for resources"),
    )
    with pytest.raises(exception.SecurityGroupLimitExceeded) as raised:
        api.create(ctxt, "g", "d")
    assert raised.value.code == 403


def test_a_group_in_use_is_400_and_another_projects_is_404(ctxt):
    api = _canned(
        security_groups.SecurityGroupAPI,
        Response(200, {"security_group": _group()}),
        Response(409, error="SecurityGroupInUse", message="in use on port x"),
    )
    with pytest.raises(exception.Invalid) as raised:
        api.delete(ctxt, GROUP)
    assert raised.value.code == 400 and "in use" in raised.value.format_message()
    api = _canned(
        security_groups.SecurityGroupAPI,
        Response(200, {"security_group": _group(project_id="other")}),
    )
    with pytest.raises(exception.SecurityGroupNotFound):
        api.get(ctxt, GROUP)
    with pytest.raises(exception.Invalid):
        api.get(ctxt, "not-a-uuid")


def test_only_an_admin_deletes_a_default_group(ctxt):
    api = _canned(
        security_groups.SecurityGroupAPI,
        Response(200, {"security_group": _group(name="default")}),
    )
    with pytest.raises(exception.Invalid):
        api.delete(ctxt, GROUP)
    assert api.calls == [("GET", f"/security-groups/{GROUP}")]


def test_a_duplicate_rule_is_400(ctxt):
    body = security_groups.new_rule(GROUP, "tcp", 22, 22, None, None)
    api = _canned(
        security_groups.SecurityGroupAPI,
        Response(200, {"security_group": _group()}),
        Response(409, error="SecurityGroupRuleExists"),
    )
    with pytest.raises(exception.SecurityGroupRuleExists) as raised:
        api.create_rule(ctxt, body)
    assert raised.value.code == 400


@pytest.mark.parametrize(
    ("protocol", "low", "high", "cidr", "group"),
    [
        ("gre", 1, 2, None, None),
        ("tcp", 0, 22, None, None),
        ("tcp", 30, 22, None, None),
        ("tcp", None, 22, None, None),
        ("udp", 1, 70000, None, None),
        ("icmp", 256, 0, None, None),
        ("icmp", -1, 3, None, None),
        ("tcp", "x", 22, None, None),
        ("tcp", 1, 2, "10.0.0.0/33", None),
        ("tcp", 1, 2, "10.0.0.0/8", GROUP),
        (None, 1, 2, None, None),
    ],
)
def test_bad_rules_are_refused_before_neutron(protocol, low, high, cidr, group):
    with pytest.raises(exception.Invalid):
        security_groups.new_rule(GROUP, protocol, low, high, cidr, group)


def test_rules_in_neutrons_terms():
    icmp = security_groups.new_rule(GROUP, "ICMP", -1, -1, None, None)
    assert (icmp["protocol"], icmp["port_range_min"], icmp["port_range_max"]) == (
        "icmp",
        None,
        None,
    )
    assert icmp["remote_ip_prefix"] == "0.0.0.0/0" and icmp["ethertype"] == "IPv4"
    v6 = security_groups.new_rule(GROUP, "tcp", 80, 81, "2001:db8::/64", None)
    assert v6["ethertype"] == "IPv6" and v6["direction"] == "ingress"
    by_group = security_groups.new_rule(GROUP, None, None, None, None, GROUP)
    assert by_group["remote_group_id"] == GROUP and by_group["remote_ip_prefix"] is None


def test_neutrons_rules_in_novas_terms():
    api = security_groups.SecurityGroupAPI()
    rule = {"id": "r", "security_group_id": GROUP, "direction": "ingress"}
    tcp = api._format_rule({**rule, "protocol": "tcp"}, {})
    assert (tcp["from_port"], tcp["to_port"]) == (1, 65535)
    assert tcp["ip_range"] == {"cidr": "0.0.0.0/0"} and tcp["group"] == {}
    icmp = api._format_rule({**rule, "protocol": "icmp"}, {})
    assert (icmp["from_port"], icmp["to_port"]) == (-1, -1)
    sourced = api._format_rule(
        {**rule, "protocol": None, "remote_group_id": GROUP},
        {GROUP: _group(name="web")},
    )
    assert sourced["group"] == {"name": "web", "tenant_id": "p"}
    assert sourced["ip_range"] == {}


def _external():
    return Response(200, {"networks": [{"id": NET, "name": "public"}]})


@pytest.mark.parametrize(
    ("answer", "raised", "status"),
    [
        (Response(409, error="OverQuota"), exception.FloatingIpLimitExceeded, 403),
        (
            Response(409, error="IpAddressGenerationFailure"),
            exception.NoMoreFloatingIps,
            404,
        ),
        (
            Response(400, error="ExternalIpAddressExhausted"),
            exception.NoMoreFloatingIps,
            404,
        ),
        (Response(400, error="BadRequest"), exception.Invalid, 400),
        (Response(503), exception.NetworkServiceUnavailable, 503),
    ],
)
def test_floating_ip_allocation_errors(ctxt, answer, raised, status):
    api = _canned(floating_ips.FloatingIPAPI, _external(), answer)
    with pytest.raises(raised) as caught:
        api.allocate(ctxt, "public")
    assert caught.value.code == status


def test_an_unknown_pool_is_404(ctxt):
    api = _canned(floating_ips.FloatingIPAPI, _external())
    with pytest.raises(exception.FloatingIpPoolNotFound):
        api.allocate(ctxt, "private")


def test_a_neutron_without_routers_has_no_floating_ips(ctxt):
    api = _canned(floating_ips.FloatingIPAPI, Response(404))
    assert api.list(ctxt) == []


@pytest.mark.parametrize(
    ("answer", "raised", "status"),
    [
        (
            Response(409, error="IpAddressAlreadyAllocated"),
            exception.FixedIpAlreadyInUse,
            400,
        ),
        (
            Response(409, error="IpAddressGenerationFailure"),
            exception.NoMoreFixedIps,
            400,
        ),
        (Response(404, error="NetworkNotFound"), exception.NetworkNotFound, 404),
    ],
)
def test_port_creation_errors(ctxt, answer, raised, status):
    api = _canned(neutron.NeutronNetworkAPI, answer)
    with pytest.raises(raised) as caught:
        api._create_port(
            ctxt,
            types.SimpleNamespace(project_id="p"),
            {"uuid": NET, "fixed_ip": "10.0.0.5"},
            {"device_id": "i"},
            None,
        )
    assert caught.value.code == status


def test_without_neutron_the_proxies_are_400(ctxt):
    CONF.clear_override("endpoint_override", group="neutron")
    with pytest.raises(exception.NetworkServiceNotConfigured) as caught:
        neutron_client.NeutronClient()._client(ctxt)
    assert caught.value.code == 400
