"""DifferentHostFilter and SameHostFilter: place relative to named
instances (scheduler hints ``different_host`` and ``same_host``)."""

from __future__ import annotations

from nova import context as nova_context
from nova import exception, objects
from nova.scheduler import filters


def hosts_of_instances(context, instance_uuids: list[str]) -> set[str]:
    """The hosts the instances are on (unknown or unplaced ones skipped)."""
    hosts = set()
    for uuid in instance_uuids:
        try:
            mapping = objects.InstanceMapping.get_by_instance_uuid(context, uuid)
            if mapping.cell_mapping is None:
                continue
            with nova_context.target_cell(context, mapping.cell_mapping) as cctxt:
                instance = objects.Instance.get_by_uuid(cctxt, uuid)
        except exception.NotFound:
            continue
        if instance.host:
            hosts.add(instance.host)
    return hosts


class _HintedInstancesFilter(filters.BaseHostFilter):
    HINT = ""

    def filter_all(self, hosts: list, spec_obj) -> list:
        uuids = filters.scheduler_hint(spec_obj, self.HINT)
        if not uuids:
            return hosts
        # One look-up per request rather than per host.
        hinted = hosts_of_instances(getattr(spec_obj, "_context", None), uuids)
        return [host for host in hosts if self.keeps(host.host in hinted)]

    def keeps(self, hosts_a_hinted_instance: bool) -> bool:
        raise NotImplementedError()


class DifferentHostFilter(_HintedInstancesFilter):
    """Hosts holding none of the ``different_host`` instances."""

    HINT = "different_host"

    def keeps(self, hosts_a_hinted_instance: bool) -> bool:
        return not hosts_a_hinted_instance


class SameHostFilter(_HintedInstancesFilter):
    """Hosts holding one of the ``same_host`` instances."""

    HINT = "same_host"

    def keeps(self, hosts_a_hinted_instance: bool) -> bool:
        return hosts_a_hinted_instance
