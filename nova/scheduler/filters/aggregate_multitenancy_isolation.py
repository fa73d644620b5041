"""AggregateMultiTenancyIsolation: aggregates reserved to projects."""

from nova.scheduler import filters

_KEY_PREFIX = "filter_tenant_id"


class AggregateMultiTenancyIsolation(filters.BaseHostFilter):
    """A host in aggregates with ``filter_tenant_id*`` metadata takes only
    instances of the projects listed there; other hosts take anyone's."""

    def host_passes(self, host_state, spec_obj) -> bool:
        allowed: set[str] = set()
        for key, values in filters.aggregate_metadata(host_state).items():
            if key.startswith(_KEY_PREFIX):
                allowed |= values
        return not allowed or spec_obj.project_id in allowed
