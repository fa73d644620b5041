"""Rules of the network proxies (``os-networks``, ``os-tenant-networks``,
``os-floating-ip-pools``; up to 2.35)."""

from nova.policies import base

NETWORKS = "os_compute_api:os-networks:%s"
NETWORKS_LIST = NETWORKS % "list"
NETWORKS_VIEW = NETWORKS % "view"
TENANT_NETWORKS = "os_compute_api:os-tenant-networks:%s"
TENANT_NETWORKS_LIST = TENANT_NETWORKS % "list"
TENANT_NETWORKS_SHOW = TENANT_NETWORKS % "show"
FLOATING_IP_POOLS = "os_compute_api:os-floating-ip-pools"


rules = [
    base.project_rule(
        NETWORKS_LIST,
        base.PROJECT_READER_OR_ADMIN,
        "List networks for the project. This API is proxy calls to the "
        "Network service. This is deprecated.",
        "GET",
        "/os-networks",
    ),
    base.project_rule(
        NETWORKS_VIEW,
        base.PROJECT_READER_OR_ADMIN,
        "Show network details. This API is proxy calls to the Network "
        "service. This is deprecated.",
        "GET",
        "/os-networks/{network_id}",
    ),
    base.project_rule(
        TENANT_NETWORKS_LIST,
        base.PROJECT_READER_OR_ADMIN,
        "List project networks. This API is proxy calls to the Network "
        "service. This is deprecated.",
        "GET",
        "/os-tenant-networks",
    ),
    base.project_rule(
        TENANT_NETWORKS_SHOW,
        base.PROJECT_READER_OR_ADMIN,
        "Show project network details. This API is proxy calls to the "
        "Network service. This is deprecated.",
        "GET",
        "/os-tenant-networks/{network_id}",
    ),
    base.project_rule(
        FLOATING_IP_POOLS,
        base.ANY_AUTHENTICATED,
        "List floating IP pools. This API is deprecated.",
        "GET",
        "/os-floating-ip-pools",
    ),
]


def list_rules():
    return rules
