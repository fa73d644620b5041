"""The Compute API in one table: URL template -> {HTTP method: handler}.

Templates are absolute paths below the API's root URL. The version
documents are public; everything else is behind authentication. Handlers
under ``/v2.1`` are also reachable as ``/v2.1/{project_id}/...``.
"""

from nova.api.openstack.compute import (
    aggregates,
    attach_interfaces,
    availability_zone,
    console_auth_tokens,
    extension_info,
    flavor_access,
    flavor_extra_specs,
    flavors,
    floating_ips,
    hosts,
    hypervisors,
    image_metadata,
    images,
    instance_actions,
    instance_usage_audit_log,
    ips,
    keypairs,
    limits,
    migrations,
    networks,
    quota_classes,
    quota_sets,
    remote_consoles,
    removed,
    security_groups,
    server_actions,
    server_diagnostics,
    server_external_events,
    server_groups,
    server_metadata,
    server_migrations,
    server_password,
    server_tags,
    servers,
    services,
    simple_tenant_usage,
    versions,
    volume_attachments,
)
from nova.api.openstack.links import API_PREFIX as V21

ROUTES = {
    "/": {"GET": versions.index},
    "/v2": {"GET": versions.show_v2_0},
    V21: {"GET": versions.show_v2_1},
    f"{V21}/extensions": {"GET": extension_info.index},
    f"{V21}/extensions/{{alias}}": {"GET": extension_info.show},
    f"{V21}/flavors": {"GET": flavors.index, "POST": flavors.create},
    f"{V21}/flavors/detail": {"GET": flavors.detail},
    f"{V21}/flavors/{{flavor_id}}": {
        "GET": flavors.show,
        "PUT": flavors.update,
        "DELETE": flavors.delete,
    },
    f"{V21}/os-aggregates": {"GET": aggregates.index, "POST": aggregates.create},
    f"{V21}/os-aggregates/{{aggregate_id}}": {
        "GET": aggregates.show,
        "PUT": aggregates.update,
        "DELETE": aggregates.delete,
    },
    f"{V21}/os-aggregates/{{aggregate_id}}/action": {"POST": aggregates.action},
    f"{V21}/os-availability-zone": {"GET": availability_zone.index},
    f"{V21}/os-server-groups": {
        "GET": server_groups.index,
        "POST": server_groups.create,
    },
    f"{V21}/os-server-groups/{{group_id}}": {
        "GET": server_groups.show,
        "DELETE": server_groups.delete,
    },
    f"{V21}/flavors/{{flavor_id}}/action": {"POST": flavor_access.action},
    f"{V21}/flavors/{{flavor_id}}/os-flavor-access": {"GET": flavor_access.index},
    f"{V21}/flavors/{{flavor_id}}/os-extra_specs": {
        "GET": flavor_extra_specs.index,
        "POST": flavor_extra_specs.create,
    },
    f"{V21}/flavors/{{flavor_id}}/os-extra_specs/{{key}}": {
        "GET": flavor_extra_specs.show,
        "PUT": flavor_extra_specs.update,
        "DELETE": flavor_extra_specs.delete,
    },
    f"{V21}/images": {"GET": images.index},
    f"{V21}/images/detail": {"GET": images.detail},
    f"{V21}/images/{{image_id}}": {"GET": images.show, "DELETE": images.delete},
    f"{V21}/images/{{image_id}}/metadata": {
        "GET": image_metadata.index,
        "POST": image_metadata.create,
        "PUT": image_metadata.update_all,
    },
    f"{V21}/images/{{image_id}}/metadata/{{key}}": {
        "GET": image_metadata.show,
        "PUT": image_metadata.update,
        "DELETE": image_metadata.delete,
    },
    f"{V21}/limits": {"GET": limits.index},
    f"{V21}/os-keypairs": {"GET": keypairs.index, "POST": keypairs.create},
    f"{V21}/os-keypairs/{{keypair_name}}": {
        "GET": keypairs.show,
        "DELETE": keypairs.delete,
    },
    f"{V21}/os-quota-class-sets/{{id}}": {
        "GET": quota_classes.show,
        "PUT": quota_classes.update,
    },
    f"{V21}/os-quota-sets/{{tenant_id}}": {
        "GET": quota_sets.show,
        "PUT": quota_sets.update,
        "DELETE": quota_sets.delete,
    },
    f"{V21}/os-quota-sets/{{tenant_id}}/defaults": {"GET": quota_sets.defaults},
    f"{V21}/os-quota-sets/{{tenant_id}}/detail": {"GET": quota_sets.detail},
    f"{V21}/os-availability-zone/detail": {"GET": availability_zone.detail},
    f"{V21}/os-hosts": {"GET": hosts.index},
    f"{V21}/os-hosts/{{host_name}}": {"GET": hosts.show, "PUT": hosts.update},
    f"{V21}/os-hosts/{{host_name}}/startup": {"GET": hosts.startup},
    f"{V21}/os-hosts/{{host_name}}/shutdown": {"GET": hosts.shutdown},
    f"{V21}/os-hosts/{{host_name}}/reboot": {"GET": hosts.reboot},
    f"{V21}/os-hypervisors": {"GET": hypervisors.index},
    f"{V21}/os-hypervisors/detail": {"GET": hypervisors.detail},
    f"{V21}/os-hypervisors/statistics": {"GET": hypervisors.statistics},
    f"{V21}/os-hypervisors/{{hypervisor_id}}": {"GET": hypervisors.show},
    f"{V21}/os-hypervisors/{{hypervisor_id}}/uptime": {"GET": hypervisors.uptime},
    f"{V21}/os-hypervisors/{{hypervisor_hostname_pattern}}/search": {
        "GET": hypervisors.search
    },
    f"{V21}/os-hypervisors/{{hypervisor_hostname_pattern}}/servers": {
        "GET": hypervisors.servers
    },
    f"{V21}/os-instance_usage_audit_log": {"GET": instance_usage_audit_log.index},
    f"{V21}/os-instance_usage_audit_log/{{before_timestamp}}": {
        "GET": instance_usage_audit_log.show
    },
    f"{V21}/os-migrations": {"GET": migrations.index},
    f"{V21}/os-server-external-events": {"POST": server_external_events.create},
    f"{V21}/os-console-auth-tokens/{{console_token}}": {
        "GET": console_auth_tokens.show,
        "DELETE": console_auth_tokens.delete,
    },
    f"{V21}/os-security-groups": {
        "GET": security_groups.index,
        "POST": security_groups.create,
    },
    f"{V21}/os-security-groups/{{security_group_id}}": {
        "GET": security_groups.show,
        "PUT": security_groups.update,
        "DELETE": security_groups.delete,
    },
    f"{V21}/os-security-group-rules": {"POST": security_groups.create_rule},
    f"{V21}/os-security-group-rules/{{security_group_rule_id}}": {
        "DELETE": security_groups.delete_rule
    },
    f"{V21}/os-networks": {"GET": networks.index},
    f"{V21}/os-networks/{{network_id}}": {"GET": networks.show},
    f"{V21}/os-tenant-networks": {"GET": networks.tenant_index},
    f"{V21}/os-tenant-networks/{{network_id}}": {"GET": networks.tenant_show},
    f"{V21}/os-floating-ip-pools": {"GET": networks.floating_ip_pools},
    f"{V21}/os-floating-ips": {
        "GET": floating_ips.index,
        "POST": floating_ips.create,
    },
    f"{V21}/os-floating-ips/{{floating_ip_id}}": {
        "GET": floating_ips.show,
        "DELETE": floating_ips.delete,
    },
    f"{V21}/os-services": {"GET": services.index},
    f"{V21}/os-services/{{service_id}}": {
        "PUT": services.update,
        "DELETE": services.delete,
    },
    f"{V21}/os-simple-tenant-usage": {"GET": simple_tenant_usage.index},
    f"{V21}/os-simple-tenant-usage/{{tenant_id}}": {"GET": simple_tenant_usage.show},
    f"{V21}/servers": {"GET": servers.index, "POST": servers.create},
    f"{V21}/servers/detail": {"GET": servers.detail},
    f"{V21}/servers/{{server_id}}": {
        "GET": servers.show,
        "PUT": servers.update,
        "DELETE": servers.delete,
    },
    f"{V21}/servers/{{server_id}}/ips": {"GET": ips.index},
    f"{V21}/servers/{{server_id}}/os-security-groups": {
        "GET": security_groups.server_index
    },
    f"{V21}/servers/{{server_id}}/os-interface": {
        "GET": attach_interfaces.index,
        "POST": attach_interfaces.create,
    },
    f"{V21}/servers/{{server_id}}/os-interface/{{port_id}}": {
        "GET": attach_interfaces.show,
        "DELETE": attach_interfaces.delete,
    },
    f"{V21}/servers/{{server_id}}/os-volume_attachments": {
        "GET": volume_attachments.index,
        "POST": volume_attachments.create,
    },
    f"{V21}/servers/{{server_id}}/os-volume_attachments/{{volume_id}}": {
        "GET": volume_attachments.show,
        "DELETE": volume_attachments.delete,
    },
    f"{V21}/servers/{{server_id}}/diagnostics": {"GET": server_diagnostics.show},
    f"{V21}/servers/{{server_id}}/os-instance-actions": {"GET": instance_actions.index},
    f"{V21}/servers/{{server_id}}/os-instance-actions/{{request_id}}": {
        "GET": instance_actions.show
    },
    f"{V21}/servers/{{server_id}}/ips/{{network_label}}": {"GET": ips.show},
    f"{V21}/servers/{{server_id}}/migrations": {"GET": server_migrations.index},
    f"{V21}/servers/{{server_id}}/migrations/{{migration_id}}": {
        "GET": server_migrations.show,
        "DELETE": server_migrations.delete,
    },
    f"{V21}/servers/{{server_id}}/migrations/{{migration_id}}/action": {
        "POST": server_migrations.action
    },
    f"{V21}/servers/{{server_id}}/metadata": {
        "GET": server_metadata.index,
        "POST": server_metadata.create,
        "PUT": server_metadata.update_all,
    },
    f"{V21}/servers/{{server_id}}/metadata/{{key}}": {
        "GET": server_metadata.show,
        "PUT": server_metadata.update,
        "DELETE": server_metadata.delete,
    },
    f"{V21}/servers/{{server_id}}/tags": {
        "GET": server_tags.index,
        "PUT": server_tags.update_all,
        "DELETE": server_tags.delete_all,
    },
    f"{V21}/servers/{{server_id}}/tags/{{tag}}": {
        "GET": server_tags.show,
        "PUT": server_tags.update,
        "DELETE": server_tags.delete,
    },
    f"{V21}/servers/{{server_id}}/action": {"POST": server_actions.action},
    f"{V21}/servers/{{server_id}}/os-server-password": {
        "GET": server_password.show,
        "DELETE": server_password.clear,
    },
    f"{V21}/servers/{{server_id}}/remote-consoles": {"POST": remote_consoles.create},
}
# Removed upstream: 410 Gone (beside what the same URL still serves).
ROUTES.update(removed.routes(V21, ROUTES))

# Served without a token: clients discover the API before authenticating.
PUBLIC_PATHS = frozenset({"/", "/v2", V21})
