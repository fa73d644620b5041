"""AvailabilityZoneFilter: hosts in the zone the user asked for."""

from nova.scheduler import filters


class AvailabilityZoneFilter(filters.BaseHostFilter):
    """A host's zone comes from its aggregates' ``availability_zone``
    metadata, else ``default_availability_zone``."""

    def host_passes(self, host_state, spec_obj) -> bool:
        wanted = spec_obj.availability_zone if "availability_zone" in spec_obj else None
        if not wanted:
            return True
        return wanted in (host_state.availability_zone or "").split(",")
