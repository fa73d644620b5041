"""Policy enforcement: may this caller do this to that resource?

Rules are defaults in code (:mod:`nova.policies`) that ``policy.yaml``
overrides. A check's target names the owner of the resource acted on
(``project_id``, ``user_id``); it defaults to the caller's own project, for
actions that create or list within it.
"""

from __future__ import annotations

import threading

from oslo_policy import policy

import nova.conf
from nova import exception, policies

CONF = nova.conf.CONF

_enforcer: policy.Enforcer | None = None
_lock = threading.Lock()


def get_enforcer() -> policy.Enforcer:
    """The process's enforcer, with nova's default rules registered.

    Also the ``oslo.policy.enforcer`` entry point, so oslopolicy tools see
    the same rules the API enforces.
    """
    global _enforcer
    with _lock:
        if _enforcer is None:
            enforcer = policy.Enforcer(CONF)
            enforcer.register_defaults(policies.list_rules())
            _enforcer = enforcer
        return _enforcer


def reset() -> None:
    """Forget the enforcer (tests that change policy options)."""
    global _enforcer
    with _lock:
        if _enforcer is not None:
            _enforcer.clear()
        _enforcer = None


def _default_target(context) -> dict:
    return {"project_id": context.project_id, "user_id": context.user_id}


def authorize(
    context, action: str, target: dict | None = None, fatal: bool = True
) -> bool:
    """Whether ``context`` may perform ``action`` on ``target``.

    :raises PolicyNotAuthorized: when it may not and ``fatal`` is true.
    """
    target = target if target is not None else _default_target(context)
    try:
        return get_enforcer().authorize(
            action,
            target,
            context,
            do_raise=fatal,
            exc=exception.PolicyNotAuthorized,
            action=action,
        )
    except policy.InvalidScope as exc:
        if fatal:
            raise exception.PolicyNotAuthorized(action=action) from exc
        return False


def check_is_admin(context) -> bool:
    """Whether the caller's roles make it an admin (``context_is_admin``)."""
    credentials = context.to_policy_values()
    return get_enforcer().authorize("context_is_admin", {}, credentials)
