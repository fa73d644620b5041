"""HypervisorVersionWeigher: newer (or older) hypervisors first."""

from nova.scheduler import weights


class HypervisorVersionWeigher(weights.BaseHostWeigher):
    """The hypervisor version (``hypervisor_version_weight_multiplier``)."""

    MULTIPLIER = "hypervisor_version_weight_multiplier"

    def weigh(self, host_state, spec_obj) -> float:
        return host_state.hypervisor_version or 0
