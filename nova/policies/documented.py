"""A shorthand for the project-scoped documented rules most APIs declare."""

from oslo_policy import policy

from nova.policies import base


def rule(
    name: str, check_str: str, description: str, operations: list[tuple[str, str]]
) -> policy.DocumentedRuleDefault:
    """A project-scoped rule; ``operations`` are ``(method, path)`` pairs."""
    return policy.DocumentedRuleDefault(
        name=name,
        check_str=check_str,
        description=description,
        operations=[{"method": method, "path": path} for method, path in operations],
        scope_types=base.PROJECT_SCOPE,
    )
