"""JsonFilter: hosts matching a query given as scheduler hint ``query``.

The query is JSON in prefix notation, e.g.
``["and", [">=", "$free_ram_mb", 1024], ["<", "$num_instances", 10]]``;
``$name`` reads the host state attribute of that name (``$a.b`` follows
attributes or dict keys).
"""

from __future__ import annotations

import json
import operator
from collections.abc import Callable
from typing import Any

from nova.scheduler import filters


def _compare(op: Callable[[Any, Any], bool]) -> Callable[..., bool]:
    def apply(*args) -> bool:
        # Each neighbouring pair must satisfy the operator, as upstream.
        if len(args) < 2:
            return False
        return all(op(a, b) for a, b in zip(args, args[1:], strict=False))

    return apply


_OPERATORS: dict[str, Callable[..., bool]] = {
    "=": _compare(operator.eq),
    "<": _compare(operator.lt),
    ">": _compare(operator.gt),
    "<=": _compare(operator.le),
    ">=": _compare(operator.ge),
    "in": lambda *args: len(args) > 1 and args[0] in args[1:],
    "not": lambda *args: not any(args),
    "or": lambda *args: any(args),
    "and": lambda *args: bool(args) and all(args),
}


def _variable(host_state, name: str) -> Any:
    value: Any = host_state
    for part in name[1:].split("."):
        if isinstance(value, dict):
            value = value.get(part)
        else:
            value = getattr(value, part, None)
        if value is None:
            return None
    return value


def evaluate(query: Any, host_state) -> Any:
    """The value of ``query`` for ``host_state``.

    :raises ValueError: for an unknown operator.
    """
    if isinstance(query, str) and query.startswith("$"):
        return _variable(host_state, query)
    if not isinstance(query, list) or not query:
        return query
    op, *args = query
    if op not in _OPERATORS:
        raise ValueError(f"unknown JsonFilter operator {op!r}")
    values = [evaluate(arg, host_state) for arg in args]
    # Comparisons with a missing variable drop that operand, as upstream.
    if op not in ("not", "or", "and"):
        values = [v for v in values if v is not None]
    return _OPERATORS[op](*values)


class JsonFilter(filters.BaseHostFilter):
    """Hosts for which the ``query`` scheduler hint evaluates true."""

    def host_passes(self, host_state, spec_obj) -> bool:
        hint = filters.scheduler_hint(spec_obj, "query")
        if not hint:
            return True
        try:
            return bool(evaluate(json.loads(hint[0]), host_state))
        except (ValueError, TypeError):
            return False
