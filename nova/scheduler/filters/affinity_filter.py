"""Server group (anti-)affinity filters.

The request spec's group lists its members' hosts, one entry per member
(a host twice holds two members), including the instances of this request
placed so far.
"""

from nova.scheduler import filters

# anti-affinity's default: no two members on one host.
DEFAULT_MAX_SERVER_PER_HOST = 1


def group_of(spec_obj, *policies: str):
    """The request's server group if its policy is one of ``policies``."""
    group = spec_obj.instance_group if "instance_group" in spec_obj else None
    if group is None or "policy" not in group or group.policy not in policies:
        return None
    return group


def members_on(group, host: str) -> int:
    """How many members of ``group`` are on ``host``."""
    return list(group.hosts).count(host) if "hosts" in group else 0


def max_server_per_host(group) -> int:
    """The anti-affinity group's limit of members per host."""
    rules = (group.rules if "rules" in group else None) or {}
    return int(rules.get("max_server_per_host", DEFAULT_MAX_SERVER_PER_HOST))


class ServerGroupAffinityFilter(filters.BaseHostFilter):
    """An affinity group's instances all go to the host of its first."""

    def host_passes(self, host_state, spec_obj) -> bool:
        group = group_of(spec_obj, "affinity")
        if group is None or "hosts" not in group or not group.hosts:
            return True
        return host_state.host in group.hosts


class ServerGroupAntiAffinityFilter(filters.BaseHostFilter):
    """An anti-affinity group's instances each go to another host, or (rule
    ``max_server_per_host``, 2.64) at most that many to one host."""

    def host_passes(self, host_state, spec_obj) -> bool:
        group = group_of(spec_obj, "anti-affinity")
        if group is None:
            return True
        return members_on(group, host_state.host) < max_server_per_host(group)
