"""Weighers of free resources: positive multipliers spread instances,
negative ones stack them."""

from nova.scheduler import weights


class RAMWeigher(weights.BaseHostWeigher):
    """Free memory (``ram_weight_multiplier``)."""

    MULTIPLIER = "ram_weight_multiplier"

    def weigh(self, host_state, spec_obj) -> float:
        return host_state.free_ram_mb


class CPUWeigher(weights.BaseHostWeigher):
    """Free vCPUs (``cpu_weight_multiplier``)."""

    MULTIPLIER = "cpu_weight_multiplier"

    def weigh(self, host_state, spec_obj) -> float:
        return host_state.vcpus_free


class DiskWeigher(weights.BaseHostWeigher):
    """Free disk (``disk_weight_multiplier``)."""

    MULTIPLIER = "disk_weight_multiplier"

    def weigh(self, host_state, spec_obj) -> float:
        return host_state.free_disk_mb
