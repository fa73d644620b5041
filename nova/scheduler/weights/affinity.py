"""Weighers of the soft server group policies: they prefer, rather than
require, the hosts the policy asks for. Their multipliers must be
positive (upstream's options, in ``[filter_scheduler]``)."""

import nova.conf
from nova.scheduler import weights
from nova.scheduler.filters.affinity_filter import group_of, members_on

CONF = nova.conf.CONF


class ServerGroupSoftAffinityWeigher(weights.BaseHostWeigher):
    """More members of the soft-affinity group on the host, higher weight."""

    def weight_multiplier(self, host_state) -> float:
        return CONF.filter_scheduler.soft_affinity_weight_multiplier

    def weigh(self, host_state, spec_obj) -> float:
        group = group_of(spec_obj, "soft-affinity")
        return 0.0 if group is None else members_on(group, host_state.host)


class ServerGroupSoftAntiAffinityWeigher(weights.BaseHostWeigher):
    """Fewer members of the soft-anti-affinity group on the host, higher
    weight."""

    def weight_multiplier(self, host_state) -> float:
        return CONF.filter_scheduler.soft_anti_affinity_weight_multiplier

    def weigh(self, host_state, spec_obj) -> float:
        group = group_of(spec_obj, "soft-anti-affinity")
        return 0.0 if group is None else -members_on(group, host_state.host)
