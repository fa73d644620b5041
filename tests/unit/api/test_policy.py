"""Default rules: admin, project member and project reader personas."""

import pytest

from nova import context as nova_context
from nova import exception, policy


def _context(roles, project="project1"):
    return nova_context.RequestContext(user_id="u", project_id=project, roles=roles)


MEMBER = ["member", "reader"]
READER = ["reader"]
ADMIN = ["admin", "member", "reader"]


@pytest.mark.parametrize(
    "rule, roles, allowed",
    [
        ("os_compute_api:servers:create", MEMBER, True),
        ("os_compute_api:servers:create", READER, False),
        ("os_compute_api:servers:index", READER, True),
        ("os_compute_api:servers:delete", READER, False),
        ("os_compute_api:servers:index:get_all_tenants", MEMBER, False),
        ("os_compute_api:servers:index:get_all_tenants", ADMIN, True),
        ("os_compute_api:os-flavor-manage:create", MEMBER, False),
        ("os_compute_api:os-flavor-manage:create", ADMIN, True),
        ("os_compute_api:os-services:list", MEMBER, False),
        ("os_compute_api:os-services:list", ADMIN, True),
        ("os_compute_api:os-extended-server-attributes", MEMBER, False),
    ],
)
def test_personas(rule, roles, allowed):
    assert policy.authorize(_context(roles), rule, fatal=False) is allowed


def test_project_rules_need_the_owning_project():
    target = {"project_id": "project2", "user_id": "someone"}
    assert not policy.authorize(
        _context(MEMBER), "os_compute_api:servers:show", target, fatal=False
    )
    assert policy.authorize(_context(ADMIN), "os_compute_api:servers:show", target)


def test_refusal_is_a_403_naming_the_rule():
    with pytest.raises(exception.PolicyNotAuthorized) as raised:
        policy.authorize(_context(READER), "os_compute_api:servers:create")
    assert raised.value.code == 403
    assert "os_compute_api:servers:create" in raised.value.format_message()


def test_admin_is_decided_by_the_context_is_admin_rule():
    assert policy.check_is_admin(_context(ADMIN))
    assert not policy.check_is_admin(_context(MEMBER))
