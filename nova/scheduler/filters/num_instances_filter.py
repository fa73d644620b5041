"""NumInstancesFilter: hosts with room for one more instance."""

import nova.conf
from nova.scheduler import filters

CONF = nova.conf.CONF


class NumInstancesFilter(filters.BaseHostFilter):
    """Removes hosts holding ``max_instances_per_host`` instances."""

    def host_passes(self, host_state, spec_obj) -> bool:
        return host_state.num_instances < CONF.filter_scheduler.max_instances_per_host
