"""``/limits``: the project's absolute limits and what it uses of them.

Rate limits are gone (always an empty list until 2.39, absent after); the
nova-network limits go at 2.36, image metadata at 2.39, personality at 2.57.
"""

from __future__ import annotations

from nova import policy, quota
from nova.api.openstack import validation
from nova.api.openstack.compute.schemas import quota_sets as schemas
from nova.api.openstack.request import Request, json_response
from nova.policies import limits as limits_policies

# (absolute limit name, quota resource, first version without it)
_LIMITS = (
    ("maxImageMeta", "metadata_items", "2.39"),
    ("maxPersonality", "injected_files", "2.57"),
    ("maxPersonalitySize", "injected_file_content_bytes", "2.57"),
    ("maxSecurityGroupRules", "security_group_rules", "2.36"),
    ("maxSecurityGroups", "security_groups", "2.36"),
    ("maxServerGroupMembers", "server_group_members", None),
    ("maxServerGroups", "server_groups", None),
    ("maxServerMeta", "metadata_items", None),
    ("maxTotalCores", "cores", None),
    ("maxTotalFloatingIps", "floating_ips", "2.36"),
    ("maxTotalInstances", "instances", None),
    ("maxTotalKeypairs", "key_pairs", None),
    ("maxTotalRAMSize", "ram", None),
)
_USED = (
    ("totalCoresUsed", "cores", None),
    ("totalFloatingIpsUsed", "floating_ips", "2.36"),
    ("totalInstancesUsed", "instances", None),
    ("totalRAMUsed", "ram", None),
    ("totalSecurityGroupsUsed", "security_groups", "2.36"),
    ("totalServerGroupsUsed", "server_groups", None),
)


def _shown(req: Request, gone_at: str | None) -> bool:
    return gone_at is None or not req.is_supported(gone_at)


@validation.query(schemas.limits_query, "2.1", "2.74")
@validation.query(schemas.limits_query_v275, "2.75")
def index(req: Request):
    context = req.nova_context
    policy.authorize(context, limits_policies.BASE_POLICY_NAME)
    project_id = context.project_id
    if req.GET.get("tenant_id", project_id) != project_id:
        project_id = req.GET["tenant_id"]
        policy.authorize(
            context,
            limits_policies.OTHER_PROJECT_LIMIT_POLICY_NAME,
            {"project_id": project_id},
        )
    limits = quota.get_limits(context, project_id)
    usages = quota.get_usages(context, project_id)
    absolute = {
        name: limits[resource] for name, resource, gone in _LIMITS if _shown(req, gone)
    }
    absolute.update(
        {
            name: usages.get(resource, 0)
            for name, resource, gone in _USED
            if _shown(req, gone)
        }
    )
    body: dict = {"absolute": absolute}
    if _shown(req, "2.39"):
        body["rate"] = []
    return json_response({"limits": body})
