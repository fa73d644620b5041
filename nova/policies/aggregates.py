"""Rules of the os-aggregates API: every action is the admin's."""

from oslo_policy import policy

from nova.policies import base

POLICY_ROOT = "os_compute_api:os-aggregates:%s"

_ACTIONS = [
    ("index", "List all aggregates", "GET", "/os-aggregates"),
    ("create", "Create an aggregate", "POST", "/os-aggregates"),
    ("show", "Show details for an aggregate", "GET", "/os-aggregates/{aggregate_id}"),
    ("update", "Update name and/or availability zone of an aggregate", "PUT",
     "/os-aggregates/{aggregate_id}"),
    ("delete", "Delete an aggregate", "DELETE", "/os-aggregates/{aggregate_id}"),
    ("add_host", "Add a host to an aggregate", "POST",
     "/os-aggregates/{aggregate_id}/action (add_host)"),
    ("remove_host", "Remove a host from an aggregate", "POST",
     "/os-aggregates/{aggregate_id}/action (remove_host)"),
    ("set_metadata", "Create or replace metadata for an aggregate", "POST",
     "/os-aggregates/{aggregate_id}/action (set_metadata)"),
]  # fmt: skip

rules = [
    policy.DocumentedRuleDefault(
        name=POLICY_ROOT % action,
        check_str=base.ADMIN,
        description=description,
        operations=[{"method": method, "path": path}],
        scope_types=base.PROJECT_SCOPE,
    )
    for action, description, method, path in _ACTIONS
]


def list_rules():
    return rules
