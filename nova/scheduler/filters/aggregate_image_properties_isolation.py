"""AggregateImagePropertiesIsolation: images matched to aggregates."""

import nova.conf
from nova.scheduler import filters

CONF = nova.conf.CONF


class AggregateImagePropertiesIsolation(filters.BaseHostFilter):
    """An image property named like a metadata key of the host's
    aggregates must have one of that key's values. Only keys under
    ``aggregate_image_properties_isolation_namespace`` count when it is set."""

    def host_passes(self, host_state, spec_obj) -> bool:
        image = spec_obj.image if "image" in spec_obj else None
        if image is None or "properties" not in image:
            return True
        options = CONF.filter_scheduler
        prefix = None
        if options.aggregate_image_properties_isolation_namespace:
            prefix = (
                options.aggregate_image_properties_isolation_namespace
                + options.aggregate_image_properties_isolation_separator
            )
        for key, values in filters.aggregate_metadata(host_state).items():
            if prefix and not key.startswith(prefix):
                continue
            wanted = image.properties.get(key)
            if wanted is not None and str(wanted) not in values:
                return False
        return True
