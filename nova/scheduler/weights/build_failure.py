"""BuildFailureWeigher: hosts that keep failing builds go last."""

from nova.scheduler import weights


class BuildFailureWeigher(weights.BaseHostWeigher):
    """Builds failed on the host since its last success, as its compute
    reports them (stat ``failed_builds``), weighed against it by
    ``build_failure_weight_multiplier``."""

    MULTIPLIER = "build_failure_weight_multiplier"

    def weight_multiplier(self, host_state) -> float:
        # The option is positive; failures count against the host.
        return -super().weight_multiplier(host_state)

    def weigh(self, host_state, spec_obj) -> float:
        return host_state.failed_builds
