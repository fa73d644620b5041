"""The compute's late server group check: which member hosts break which
policy, and the workaround that turns it off."""

import dataclasses

import pytest

from nova import exception
from nova.compute.flows import base, build
from nova.conf import CONF


@dataclasses.dataclass
class _Group:
    """A server group whose members' hosts are known (the conductor's
    answer in a deployment)."""

    policy: str
    member_hosts: list
    rules: dict = dataclasses.field(default_factory=dict)
    uuid: str = "g1"

    def __contains__(self, name):
        return name in ("policy", "rules", "uuid")

    def get_hosts(self, exclude=None):
        return list(self.member_hosts)


@dataclasses.dataclass
class _Instance:
    uuid: str = "i1"


def _check(group, host="h1"):
    flow = build.BuildFlow.__new__(build.BuildFlow)
    flow.compute = base.ComputeHost(host=host, driver=None, rt=None)
    flow.validate_instance_group_policy(None, _Instance(), group)


@pytest.mark.parametrize(
    ("policy", "hosts", "rules", "violated"),
    [
        ("anti-affinity", [], {}, False),
        ("anti-affinity", ["h2"], {}, False),
        ("anti-affinity", ["h1"], {}, True),
        ("anti-affinity", ["h1"], {"max_server_per_host": "2"}, False),
        ("anti-affinity", ["h1", "h1"], {"max_server_per_host": "2"}, True),
        ("affinity", [], {}, False),
        ("affinity", ["h1", "h1"], {}, False),
        ("affinity", ["h2"], {}, True),
    ],
)
def test_late_check(policy, hosts, rules, violated):
    group = _Group(policy, hosts, rules)
    if violated:
        with pytest.raises(exception.RescheduledException, match="policy was violated"):
            _check(group)
    else:
        _check(group)


def test_the_upcall_can_be_disabled():
    CONF.set_override("disable_group_policy_check_upcall", True, group="workarounds")
    try:
        _check(_Group("anti-affinity", ["h1"]))
    finally:
        CONF.clear_override("disable_group_policy_check_upcall", group="workarounds")


class _UnreachableGroup(_Group):
    def get_hosts(self, exclude=None):
        raise exception.DatabaseNotConfigured(group="api_database")


def test_a_conductor_without_the_api_database_skips_the_check(caplog):
    _check(_UnreachableGroup("anti-affinity", ["h1"]))
    assert "Skipping the late server group check" in caplog.text
