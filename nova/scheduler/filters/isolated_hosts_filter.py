"""IsolatedHostsFilter: some images only on some hosts."""

import nova.conf
from nova.scheduler import filters

CONF = nova.conf.CONF


class IsolatedHostsFilter(filters.BaseHostFilter):
    """``isolated_images`` run only on ``isolated_hosts``; with
    ``restrict_isolated_hosts_to_isolated_images`` those hosts run nothing
    else."""

    def host_passes(self, host_state, spec_obj) -> bool:
        options = CONF.filter_scheduler
        restrict = options.restrict_isolated_hosts_to_isolated_images
        host_isolated = host_state.host in options.isolated_hosts
        if not options.isolated_images:
            return not (restrict and host_isolated)
        image = spec_obj.image if "image" in spec_obj else None
        image_id = image.id if image is not None and "id" in image else None
        image_isolated = image_id in options.isolated_images
        if restrict:
            return image_isolated == host_isolated
        return not image_isolated or host_isolated
