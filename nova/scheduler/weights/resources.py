"""Weighers of free resources: positive multipliers spread instances,
negative ones stack them."""

import nova.conf
from nova.scheduler import weights

CONF = nova.conf.CONF


class RAMWeigher(weights.BaseHostWeigher):
    """Free memory (``ram_weight_multiplier``)."""

    def weight_multiplier(self, host_state) -> float:
        return CONF.filter_scheduler.ram_weight_multiplier

    def weigh(self, host_state, spec_obj) -> float:
        return host_state.free_ram_mb


class CPUWeigher(weights.BaseHostWeigher):
    """Free vCPUs (``cpu_weight_multiplier``)."""

    def weight_multiplier(self, host_state) -> float:
        return CONF.filter_scheduler.cpu_weight_multiplier

    def weigh(self, host_state, spec_obj) -> float:
        return host_state.vcpus_free


class DiskWeigher(weights.BaseHostWeigher):
    """Free disk (``disk_weight_multiplier``)."""

    def weight_multiplier(self, host_state) -> float:
        return CONF.filter_scheduler.disk_weight_multiplier

    def weigh(self, host_state, spec_obj) -> float:
        return host_state.free_disk_mb


class NumInstancesWeigher(weights.BaseHostWeigher):
    """Number of instances (``num_instances_weight_multiplier``, default 0)."""

    def weight_multiplier(self, host_state) -> float:
        return CONF.filter_scheduler.num_instances_weight_multiplier

    def weigh(self, host_state, spec_obj) -> float:
        return host_state.num_instances
