"""Weighers of how busy a host is."""

from nova.scheduler import weights


class NumInstancesWeigher(weights.BaseHostWeigher):
    """Number of instances (``num_instances_weight_multiplier``, default 0;
    positive packs, negative spreads)."""

    MULTIPLIER = "num_instances_weight_multiplier"

    def weigh(self, host_state, spec_obj) -> float:
        return host_state.num_instances


class IoOpsWeigher(weights.BaseHostWeigher):
    """Instances in I/O-heavy tasks (``io_ops_weight_multiplier``, default
    -1: quieter hosts first)."""

    MULTIPLIER = "io_ops_weight_multiplier"

    def weigh(self, host_state, spec_obj) -> float:
        return host_state.num_io_ops
