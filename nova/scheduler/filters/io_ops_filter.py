"""IoOpsFilter: hosts not too busy with I/O-heavy tasks."""

import nova.conf
from nova.scheduler import filters

CONF = nova.conf.CONF


class IoOpsFilter(filters.BaseHostFilter):
    """Removes hosts with ``max_io_ops_per_host`` or more instances being
    built, resized, snapshotted, migrated, rescued or unshelved."""

    def host_passes(self, host_state, spec_obj) -> bool:
        return host_state.num_io_ops < CONF.filter_scheduler.max_io_ops_per_host
