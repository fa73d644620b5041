"""ComputeCapabilitiesFilter: hosts matching the flavor's capabilities."""

from __future__ import annotations

import operator

from nova.scheduler import filters

_SCOPE = "capabilities"
# Operators of extra spec values, as upstream spells them. "=" means "at
# least" for numbers; "s" operators compare strings.
_NUMERIC = {
    "=": operator.ge,
    "==": operator.eq,
    "!=": operator.ne,
    ">=": operator.ge,
    "<=": operator.le,
}
_STRING = {
    "s==": operator.eq,
    "s!=": operator.ne,
    "s>=": operator.ge,
    "s<=": operator.le,
    "s>": operator.gt,
    "s<": operator.lt,
}


def match(value, requirement: str) -> bool:
    """Whether a host's ``value`` satisfies an extra spec ``requirement``."""
    words = requirement.split()
    if not words:
        return value is None or str(value) == ""
    op, args = words[0], words[1:]
    if op == "<in>":
        return bool(args) and args[0] in str(value)
    if op == "<or>":
        return str(value) in [w for w in args if w != "<or>"]
    if op == "<all-in>":
        return all(w in str(value).split() for w in args if w not in ("<all-in>",))
    if op in _NUMERIC and args:
        try:
            return _NUMERIC[op](float(value), float(args[0]))
        except (TypeError, ValueError):
            return False
    if op in _STRING and args:
        return _STRING[op](str(value), args[0])
    return str(value) == requirement


class ComputeCapabilitiesFilter(filters.BaseHostFilter):
    """Flavor extra specs ``capabilities:<name>`` must match the host's
    attribute or stat of that name (``capabilities:stats:<key>`` too)."""

    def host_passes(self, host_state, spec_obj) -> bool:
        flavor = spec_obj.flavor
        extra_specs = flavor.extra_specs if "extra_specs" in flavor else {}
        for key, requirement in (extra_specs or {}).items():
            scope, _, name = key.partition(":")
            if scope != _SCOPE or not name:
                continue
            value = self._host_value(host_state, name)
            if value is None or not match(value, requirement):
                return False
        return True

    @staticmethod
    def _host_value(host_state, name: str):
        if name.startswith("stats:"):
            return host_state.stats.get(name[len("stats:") :])
        if name in host_state.stats:
            return host_state.stats[name]
        return getattr(host_state, name, None)
