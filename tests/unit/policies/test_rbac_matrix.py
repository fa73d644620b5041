"""The RBAC matrix: for every rule, who may and who may not, by default.

Each row is written out by hand from upstream's documented defaults, not
derived from the rule's check string, and evaluated by the real
oslo.policy enforcer with the credentials a Keystone token gives. The
resource acted on belongs to ``project-a`` and (for key pairs) to the
project member ``member-a``.

Personas:

* ``reader`` -- the reader role on project-a;
* ``member`` -- member (and reader) on project-a, the resource's owner;
* ``admin`` -- admin (member, reader) on another project;
* ``other`` -- member (and reader) of project-b;
* ``service`` -- the service role on the service project.

A new rule without a row fails :func:`test_every_rule_has_a_row`.
"""

from __future__ import annotations

import pytest

from nova import context as nova_context
from nova import policies, policy
from nova.conf import CONF

PERSONAS = {
    "reader": ("reader-a", "project-a", ["reader"]),
    "member": ("member-a", "project-a", ["member", "reader"]),
    "admin": ("admin", "admin-project", ["admin", "member", "reader"]),
    "other": ("member-b", "project-b", ["member", "reader"]),
    "service": ("nova-service", "service", ["service"]),
}
TARGET = {"project_id": "project-a", "user_id": "member-a"}

ADMIN = {"admin"}
READERS = {"reader", "member", "admin"}
MEMBERS = {"member", "admin"}
EVERYONE = set(PERSONAS)
# Key pairs belong to their user: the member owns the target's.
OWNER = {"member", "admin"}
SERVICE_OR_ADMIN = {"service", "admin"}

MATRIX: dict[str, set[str]] = {
    # Aggregates, hypervisors, migrations, service changes: operators only.
    "os_compute_api:os-aggregates:index": ADMIN,
    "os_compute_api:os-aggregates:create": ADMIN,
    "os_compute_api:os-aggregates:show": ADMIN,
    "os_compute_api:os-aggregates:update": ADMIN,
    "os_compute_api:os-aggregates:delete": ADMIN,
    "os_compute_api:os-aggregates:add_host": ADMIN,
    "os_compute_api:os-aggregates:remove_host": ADMIN,
    "os_compute_api:os-aggregates:set_metadata": ADMIN,
    "os_compute_api:os-availability-zone:detail": ADMIN,
    "os_compute_api:os-console-auth-tokens": ADMIN,
    "os_compute_api:os-hosts:list": ADMIN,
    "os_compute_api:os-hosts:show": ADMIN,
    "os_compute_api:os-hosts:update": ADMIN,
    "os_compute_api:os-hosts:reboot": ADMIN,
    "os_compute_api:os-hosts:shutdown": ADMIN,
    "os_compute_api:os-hosts:start": ADMIN,
    "os_compute_api:os-instance-usage-audit-log:list": ADMIN,
    "os_compute_api:os-instance-usage-audit-log:show": ADMIN,
    "os_compute_api:os-hypervisors:list": ADMIN,
    "os_compute_api:os-hypervisors:list-detail": ADMIN,
    "os_compute_api:os-hypervisors:statistics": ADMIN,
    "os_compute_api:os-hypervisors:show": ADMIN,
    "os_compute_api:os-hypervisors:uptime": ADMIN,
    "os_compute_api:os-hypervisors:search": ADMIN,
    "os_compute_api:os-hypervisors:servers": ADMIN,
    "os_compute_api:os-migrations:index": ADMIN,
    "os_compute_api:os-migrate-server:migrate": ADMIN,
    "os_compute_api:os-migrate-server:migrate:host": ADMIN,
    "os_compute_api:os-migrate-server:migrate_live": ADMIN,
    "os_compute_api:os-evacuate": ADMIN,
    "os_compute_api:servers:migrations:index": ADMIN,
    "os_compute_api:servers:migrations:show": ADMIN,
    "os_compute_api:servers:migrations:force_complete": ADMIN,
    "os_compute_api:servers:migrations:delete": ADMIN,
    "os_compute_api:os-services:update": ADMIN,
    "os_compute_api:os-services:delete": ADMIN,
    "os_compute_api:os-simple-tenant-usage:list": ADMIN,
    "os_compute_api:os-simple-tenant-usage:show": READERS,
    # Instance actions: the events (with tracebacks) are for admins.
    "os_compute_api:os-instance-actions:list": READERS,
    "os_compute_api:os-instance-actions:show": READERS,
    "os_compute_api:os-instance-actions:events": ADMIN,
    "os_compute_api:os-instance-actions:events:details": ADMIN,
    # Only the service user (Neutron, Cinder, Ironic) reports events.
    "os_compute_api:os-server-external-events:create": {"service"},
    # Upstream's PROJECT_MEMBER, no admin override; the API passes the
    # caller's own project as the target, so in practice any member may
    # create groups in their project.
    "os_compute_api:os-server-groups:create": {"member"},
    "os_compute_api:os-server-groups:delete": MEMBERS,
    "os_compute_api:os-server-groups:index": READERS,
    "os_compute_api:os-server-groups:index:all_projects": ADMIN,
    "os_compute_api:os-server-groups:show": READERS,
    # Reading a server's parts: its project's readers; changing: members.
    "os_compute_api:ips:index": READERS,
    # A server's interfaces and security groups; the proxies of Neutron's
    # security groups act on the caller's own project.
    "os_compute_api:os-attach-interfaces:list": READERS,
    "os_compute_api:os-attach-interfaces:show": READERS,
    "os_compute_api:os-attach-interfaces:create": MEMBERS,
    "os_compute_api:os-attach-interfaces:delete": MEMBERS,
    "os_compute_api:os-volumes-attachments:index": READERS,
    "os_compute_api:os-volumes-attachments:show": READERS,
    "os_compute_api:os-volumes-attachments:create": MEMBERS,
    "os_compute_api:os-volumes-attachments:delete": MEMBERS,
    "os_compute_api:os-security-groups:get": READERS,
    "os_compute_api:os-security-groups:show": READERS,
    "os_compute_api:os-security-groups:create": MEMBERS,
    "os_compute_api:os-security-groups:update": MEMBERS,
    "os_compute_api:os-security-groups:delete": MEMBERS,
    "os_compute_api:os-security-groups:rule:create": MEMBERS,
    "os_compute_api:os-security-groups:rule:delete": MEMBERS,
    "os_compute_api:os-security-groups:list": READERS,
    "os_compute_api:os-security-groups:add": MEMBERS,
    "os_compute_api:os-security-groups:remove": MEMBERS,
    "os_compute_api:os-networks:list": READERS,
    "os_compute_api:os-networks:view": READERS,
    "os_compute_api:os-tenant-networks:list": READERS,
    "os_compute_api:os-tenant-networks:show": READERS,
    "os_compute_api:os-floating-ip-pools": EVERYONE,
    "os_compute_api:os-floating-ips:add": MEMBERS,
    "os_compute_api:os-floating-ips:remove": MEMBERS,
    "os_compute_api:os-floating-ips:list": READERS,
    "os_compute_api:os-floating-ips:create": MEMBERS,
    "os_compute_api:os-floating-ips:show": READERS,
    "os_compute_api:os-floating-ips:delete": MEMBERS,
    "os_compute_api:os-multinic:add": MEMBERS,
    "os_compute_api:os-multinic:remove": MEMBERS,
    "os_compute_api:ips:show": READERS,
    "os_compute_api:server-metadata:index": READERS,
    "os_compute_api:server-metadata:show": READERS,
    "os_compute_api:server-metadata:create": MEMBERS,
    "os_compute_api:server-metadata:update_all": MEMBERS,
    "os_compute_api:server-metadata:update": MEMBERS,
    "os_compute_api:server-metadata:delete": MEMBERS,
    "os_compute_api:os-server-password:show": READERS,
    "os_compute_api:os-server-password:clear": MEMBERS,
    "os_compute_api:os-server-tags:index": READERS,
    "os_compute_api:os-server-tags:show": READERS,
    "os_compute_api:os-server-tags:update": MEMBERS,
    "os_compute_api:os-server-tags:update_all": MEMBERS,
    "os_compute_api:os-server-tags:delete": MEMBERS,
    "os_compute_api:os-server-tags:delete_all": MEMBERS,
    "os_compute_api:os-console-output": MEMBERS,
    "os_compute_api:os-create-backup": MEMBERS,
    "os_compute_api:servers:create_image": MEMBERS,
    "os_compute_api:servers:create_image:allow_volume_backed": MEMBERS,
    "os_compute_api:servers:rebuild": MEMBERS,
    "os_compute_api:servers:rebuild:trusted_certs": MEMBERS,
    "os_compute_api:os-remote-consoles": MEMBERS,
    "os_compute_api:os-deferred-delete:restore": MEMBERS,
    "os_compute_api:os-deferred-delete:force": MEMBERS,
    "os_compute_api:os-pause-server:pause": MEMBERS,
    "os_compute_api:os-lock-server:lock": MEMBERS,
    "os_compute_api:os-lock-server:unlock": MEMBERS,
    # The owner lifting an admin's lock (or an admin the owner's).
    "os_compute_api:os-lock-server:unlock:unlock_override": ADMIN,
    "os_compute_api:os-admin-actions:reset_state": ADMIN,
    "os_compute_api:os-admin-actions:inject_network_info": ADMIN,
    "os_compute_api:os-server-diagnostics": ADMIN,
    "os_compute_api:os-admin-password": MEMBERS,
    "os_compute_api:servers:trigger_crash_dump": MEMBERS,
    "os_compute_api:os-pause-server:unpause": MEMBERS,
    "os_compute_api:os-suspend-server:suspend": MEMBERS,
    "os_compute_api:os-suspend-server:resume": MEMBERS,
    "os_compute_api:os-rescue": MEMBERS,
    "os_compute_api:os-unrescue": MEMBERS,
    "os_compute_api:servers:resize": MEMBERS,
    "os_compute_api:servers:confirm_resize": MEMBERS,
    "os_compute_api:servers:revert_resize": MEMBERS,
    "os_compute_api:os-shelve:shelve": MEMBERS,
    "os_compute_api:os-shelve:shelve_offload": ADMIN,
    "os_compute_api:os-shelve:unshelve": MEMBERS,
    "os_compute_api:os-shelve:unshelve_to_host": ADMIN,
    "os_compute_api:servers:start": MEMBERS,
    "os_compute_api:servers:stop": MEMBERS,
    "os_compute_api:servers:reboot": MEMBERS,
    "os_compute_api:os-availability-zone:list": READERS,
    "os_compute_api:os-extended-server-attributes": ADMIN,
    "os_compute_api:extensions": EVERYONE,
    "os_compute_api:os-flavor-access": ADMIN,
    "os_compute_api:os-flavor-access:add_tenant_access": ADMIN,
    "os_compute_api:os-flavor-access:remove_tenant_access": ADMIN,
    "os_compute_api:os-flavor-extra-specs:index": READERS,
    "os_compute_api:os-flavor-extra-specs:show": READERS,
    "os_compute_api:os-flavor-extra-specs:create": ADMIN,
    "os_compute_api:os-flavor-extra-specs:update": ADMIN,
    "os_compute_api:os-flavor-extra-specs:delete": ADMIN,
    "os_compute_api:os-flavor-manage:create": ADMIN,
    "os_compute_api:os-flavor-manage:update": ADMIN,
    "os_compute_api:os-flavor-manage:delete": ADMIN,
    "os_compute_api:os-keypairs:index": OWNER,
    "os_compute_api:os-keypairs:create": OWNER,
    "os_compute_api:os-keypairs:show": OWNER,
    "os_compute_api:os-keypairs:delete": OWNER,
    "os_compute_api:limits": EVERYONE,
    "os_compute_api:limits:other_project": ADMIN,
    "os_compute_api:os-quota-class-sets:show": ADMIN,
    "os_compute_api:os-quota-class-sets:update": ADMIN,
    "os_compute_api:os-quota-sets:show": READERS,
    "os_compute_api:os-quota-sets:detail": READERS,
    "os_compute_api:os-quota-sets:defaults": EVERYONE,
    "os_compute_api:os-quota-sets:update": ADMIN,
    "os_compute_api:os-quota-sets:delete": ADMIN,
    "os_compute_api:os-services:list": ADMIN,
    "os_compute_api:servers:index": READERS,
    "os_compute_api:servers:detail": READERS,
    "os_compute_api:servers:index:get_all_tenants": ADMIN,
    "os_compute_api:servers:detail:get_all_tenants": ADMIN,
    "os_compute_api:servers:allow_all_filters": ADMIN,
    "os_compute_api:servers:show": READERS,
    "os_compute_api:servers:show:flavor-extra-specs": READERS,
    "os_compute_api:servers:show:host_status": ADMIN,
    "os_compute_api:servers:create": MEMBERS,
    "os_compute_api:servers:create:forced_host": ADMIN,
    "os_compute_api:servers:create:requested_destination": ADMIN,
    "os_compute_api:servers:create:attach_volume": MEMBERS,
    "os_compute_api:servers:create:attach_network": MEMBERS,
    "os_compute_api:servers:create:trusted_certs": MEMBERS,
    "os_compute_api:servers:create:zero_disk_flavor": ADMIN,
    "os_compute_api:servers:update": MEMBERS,
    "os_compute_api:servers:delete": MEMBERS,
}


@pytest.fixture(scope="module", autouse=True)
def enforcer():
    CONF([], project="nova", default_config_files=[])
    policy.reset()
    yield policy.get_enforcer()
    policy.reset()


def _context(persona: str) -> nova_context.RequestContext:
    user_id, project_id, roles = PERSONAS[persona]
    return nova_context.RequestContext(
        user_id=user_id, project_id=project_id, roles=roles
    )


def test_every_rule_has_a_row():
    documented = {
        rule.name
        for rule in policies.list_rules()
        if rule.name.startswith("os_compute_api:")
    }
    assert sorted(documented - set(MATRIX)) == [], "rules without a matrix row"
    assert sorted(set(MATRIX) - documented) == [], "rows of rules that do not exist"


@pytest.mark.parametrize("rule", sorted(MATRIX))
@pytest.mark.parametrize("persona", sorted(PERSONAS))
def test_matrix(rule, persona):
    allowed = policy.authorize(_context(persona), rule, dict(TARGET), fatal=False)
    assert allowed is (persona in MATRIX[rule]), (
        f"{persona} {'may' if allowed else 'may not'} {rule}"
    )


def test_policy_yaml_overrides_a_default(tmp_path):
    policy_file = tmp_path / "policy.yaml"
    policy_file.write_text('"os_compute_api:os-quota-sets:show": "role:admin"\n')
    CONF.set_override("policy_file", str(policy_file), group="oslo_policy")
    policy.reset()
    try:
        rule = "os_compute_api:os-quota-sets:show"
        assert not policy.authorize(_context("member"), rule, dict(TARGET), False)
        assert policy.authorize(_context("admin"), rule, dict(TARGET), False)
    finally:
        CONF.clear_override("policy_file", group="oslo_policy")
        policy.reset()
