"""ComputeFilter: only hosts whose nova-compute is up and enabled."""

from nova.scheduler import filters


class ComputeFilter(filters.BaseHostFilter):
    """Removes hosts whose compute service is disabled, forced down, or
    silent for longer than ``service_down_time``."""

    def host_passes(self, host_state, spec_obj) -> bool:
        service = host_state.service
        if service is None or service.disabled:
            return False
        return host_state.is_up
