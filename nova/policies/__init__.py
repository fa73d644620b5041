"""Default policy rules, in code, with upstream's rule names and personas.

Each module lists the rules of one API; :func:`list_rules` is what the
enforcer registers and what ``oslopolicy-sample-generator`` (``tox -e
genpolicy``) writes into ``etc/nova/policy.yaml.sample``. Operators
override any rule in ``policy.yaml``.
"""

import itertools

from nova.policies import (
    admin_actions,
    admin_password,
    aggregates,
    availability_zone,
    base,
    console_auth_tokens,
    console_output,
    create_backup,
    deferred_delete,
    extended_server_attributes,
    extensions,
    flavor_access,
    flavor_extra_specs,
    flavor_manage,
    hosts,
    hypervisors,
    instance_actions,
    instance_usage_audit_log,
    ips,
    keypairs,
    limits,
    lock_server,
    migrations,
    pause_server,
    quota_class_sets,
    quota_sets,
    remote_consoles,
    rescue,
    server_diagnostics,
    server_external_events,
    server_groups,
    server_metadata,
    server_password,
    server_tags,
    servers,
    services,
    shelve,
    simple_tenant_usage,
    suspend_server,
)


def list_rules():
    return list(
        itertools.chain(
            base.list_rules(),
            admin_actions.list_rules(),
            admin_password.list_rules(),
            aggregates.list_rules(),
            availability_zone.list_rules(),
            console_auth_tokens.list_rules(),
            console_output.list_rules(),
            deferred_delete.list_rules(),
            create_backup.list_rules(),
            extended_server_attributes.list_rules(),
            extensions.list_rules(),
            flavor_access.list_rules(),
            flavor_extra_specs.list_rules(),
            flavor_manage.list_rules(),
            hosts.list_rules(),
            hypervisors.list_rules(),
            instance_actions.list_rules(),
            instance_usage_audit_log.list_rules(),
            ips.list_rules(),
            keypairs.list_rules(),
            lock_server.list_rules(),
            limits.list_rules(),
            migrations.list_rules(),
            pause_server.list_rules(),
            quota_class_sets.list_rules(),
            quota_sets.list_rules(),
            remote_consoles.list_rules(),
            server_diagnostics.list_rules(),
            rescue.list_rules(),
            server_external_events.list_rules(),
            server_groups.list_rules(),
            server_metadata.list_rules(),
            server_password.list_rules(),
            server_tags.list_rules(),
            servers.list_rules(),
            services.list_rules(),
            shelve.list_rules(),
            simple_tenant_usage.list_rules(),
            suspend_server.list_rules(),
        )
    )
