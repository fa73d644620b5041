"""AggregateInstanceExtraSpecsFilter: flavors matched to aggregates."""

from nova.scheduler import filters
from nova.scheduler.filters import compute_capabilities_filter

_SCOPE = "aggregate_instance_extra_specs"


class AggregateInstanceExtraSpecsFilter(filters.BaseHostFilter):
    """Flavor extra specs ``aggregate_instance_extra_specs:<key>`` (or an
    unscoped ``<key>``) must match the ``<key>`` metadata of one of the
    host's aggregates, with the operators of ComputeCapabilitiesFilter."""

    def host_passes(self, host_state, spec_obj) -> bool:
        extra_specs = (
            spec_obj.flavor.extra_specs if "extra_specs" in spec_obj.flavor else {}
        )
        if not extra_specs:
            return True
        metadata = filters.aggregate_metadata(host_state, split=False)
        for key, requirement in extra_specs.items():
            scope, _, name = key.partition(":")
            if not name:
                name = scope
            elif scope != _SCOPE:
                continue
            values = metadata.get(name)
            if not values or not any(
                compute_capabilities_filter.match(value, requirement)
                for value in values
            ):
                return False
        return True
