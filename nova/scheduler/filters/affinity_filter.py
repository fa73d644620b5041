"""Server group (anti-)affinity filters."""

from nova.scheduler import filters


def _group_hosts(spec_obj, policy: str) -> list[str] | None:
    group = spec_obj.instance_group if "instance_group" in spec_obj else None
    if group is None or "policy" not in group or group.policy != policy:
        return None
    return list(group.hosts) if "hosts" in group else []


class ServerGroupAffinityFilter(filters.BaseHostFilter):
    """An affinity group's instances all go to the host of its first."""

    def host_passes(self, host_state, spec_obj) -> bool:
        hosts = _group_hosts(spec_obj, "affinity")
        return not hosts or host_state.host in hosts


class ServerGroupAntiAffinityFilter(filters.BaseHostFilter):
    """An anti-affinity group's instances each go to another host."""

    def host_passes(self, host_state, spec_obj) -> bool:
        hosts = _group_hosts(spec_obj, "anti-affinity")
        return not hosts or host_state.host not in hosts
