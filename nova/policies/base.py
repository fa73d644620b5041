"""The personas every API rule is written in terms of.

* admin: the ``admin`` role, on any project's resources;
* project member: the ``member`` role on the project that owns the resource;
* project reader: the ``reader`` role on it;
* service: the ``service`` role, held by other OpenStack services' users
  (Neutron, Cinder, Ironic) calling nova on their own behalf.

Keystone's default roles imply each other (admin > member > reader), so a
rule granted to readers is granted to members and admins too.
"""

from oslo_policy import policy

ADMIN = "rule:context_is_admin"
PROJECT_MEMBER = "rule:project_member_api"
PROJECT_READER = "rule:project_reader_api"
PROJECT_MEMBER_OR_ADMIN = "rule:project_member_or_admin"
PROJECT_READER_OR_ADMIN = "rule:project_reader_or_admin"
SERVICE_ROLE = "rule:service_api"
SERVICE_OR_ADMIN = "rule:service_or_admin"
# Anybody authenticated: the rule is there to be tightened by an operator.
ANY_AUTHENTICATED = "@"

PROJECT_SCOPE = ["project"]


def project_rule(
    name: str, check_str: str, description: str, method: str, path: str
) -> policy.DocumentedRuleDefault:
    """A project-scoped rule of one operation."""
    return policy.DocumentedRuleDefault(
        name=name,
        check_str=check_str,
        description=description,
        operations=[{"method": method, "path": path}],
        scope_types=PROJECT_SCOPE,
    )


rules = [
    policy.RuleDefault(
        "context_is_admin",
        "role:admin",
        "Decides what is required for the 'is_admin:True' check to succeed.",
    ),
    policy.RuleDefault(
        "project_member_api",
        "role:member and project_id:%(project_id)s",
        "Default rule for Project level non admin APIs.",
    ),
    policy.RuleDefault(
        "project_reader_api",
        "role:reader and project_id:%(project_id)s",
        "Default rule for Project level read only APIs.",
    ),
    policy.RuleDefault(
        "project_member_or_admin",
        "rule:project_member_api or rule:context_is_admin",
        "Default rule for Project Member or admin APIs.",
    ),
    policy.RuleDefault(
        "project_reader_or_admin",
        "rule:project_reader_api or rule:context_is_admin",
        "Default rule for Project reader or admin APIs.",
    ),
    policy.RuleDefault(
        "service_api",
        "role:service",
        "Default rule for service-to-service APIs.",
    ),
    policy.RuleDefault(
        "service_or_admin",
        "rule:context_is_admin or rule:service_api",
        "Default rule for APIs an admin or another service may call.",
    ),
]


def list_rules():
    return rules
