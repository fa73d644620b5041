"""Reading and changing servers: show, list, update, metadata, tags, the
lock, and an admin's reset of a server's state.

A server not yet scheduled exists only as its build request; reads and
updates act on that until the superconductor has created it in a cell.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import Any

import sqlalchemy as sa

import nova.conf
from nova import context as nova_context
from nova import exception, objects, policy
from nova.compute import instance_list
from nova.compute.api import base, zones
from nova.notifications import instance as instance_notifications
from nova.objects import tag as tag_obj
from nova.policies import admin_actions as admin_actions_policies
from nova.policies import lock_server as lock_policies
from nova.policies import servers as server_policies
from nova.states import machine

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)


class ServersAPI(base.FlowAPI):
    """Server reads and the changes that need no host."""

    # -- what the server views need --------------------------------------

    @staticmethod
    def host_zones(context) -> dict[str, str]:
        return zones.host_zones(context)

    @staticmethod
    def default_availability_zone() -> str:
        return CONF.default_availability_zone

    @staticmethod
    def service_is_up(service) -> bool:
        return zones.service_is_up(service)

    def compute_services_by_host(self, context, instances) -> dict[str, Any]:
        """host -> nova-compute service, for the hosts of ``instances``."""
        hosts = {i.host for i in instances if "host" in i and i.host}
        if not hosts:
            return {}
        return {
            service.host: service
            for _, service in zones.compute_services(context)
            if service.host in hosts
        }

    @staticmethod
    def request_specs(context, instance_uuids: Sequence[str]) -> dict[str, Any]:
        """instance uuid -> its request spec, in one query."""
        return objects.RequestSpec.get_by_instance_uuids(context, instance_uuids)

    def security_groups(self, context, instances) -> dict[str, list[dict]]:
        """instance uuid -> ``[{"name": ...}]``, the security groups of the
        ports of those ``instances`` that have ports (as their info cache
        says); none when the network service cannot tell."""
        uuids = [
            i.uuid
            for i in instances
            if "info_cache" in i
            and i.info_cache is not None
            and i.info_cache.network_info
        ]
        if not uuids:
            return {}
        try:
            return self.network_api.get_instances_security_groups_bindings(
                context, uuids
            )
        except exception.NetworkServiceUnavailable as exc:
            LOG.warning("Servers shown without their security groups: %s", exc)
            return {}

    # -- read ---------------------------------------------------------------

    def get(
        self,
        context,
        instance_uuid: str,
        expected_attrs: Iterable[str] = (),
        cell_down_support: bool = False,
    ):
        """The server, from its cell or, not yet scheduled, its build request.

        ``cell_down_support`` (2.69+): when the cell's database cannot be
        reached, a minimal record of the instance instead of the error.

        :raises InstanceNotFound: no such server, or not the caller's.
        """
        mapping = self.mapping(context, instance_uuid)
        if mapping.cell_mapping is None:
            try:
                return objects.BuildRequest.get_by_instance_uuid(
                    context, instance_uuid
                ).instance
            except exception.BuildRequestNotFound:
                # Scheduled meanwhile: it is in a cell now, or deleted.
                mapping = self.mapping(context, instance_uuid)
                if mapping.cell_mapping is None:
                    raise exception.InstanceNotFound(
                        instance_id=instance_uuid
                    ) from None
        try:
            with nova_context.target_cell(context, mapping.cell_mapping) as cctxt:
                return objects.Instance.get_by_uuid(
                    cctxt, instance_uuid, expected_attrs=list(expected_attrs)
                )
        except sa.exc.DBAPIError:
            if not cell_down_support:
                raise
            LOG.warning(
                "Cell %s is down, showing server %s as UNKNOWN",
                mapping.cell_mapping.uuid,
                instance_uuid,
            )
            return instance_list.minimal_instance(context, mapping)

    def get_all(
        self,
        context,
        filters: dict[str, Any],
        limit: int | None,
        marker: str | None,
        sort_keys: list[str],
        sort_dirs: list[str],
        expected_attrs: Iterable[str] = (),
        cell_down_support: bool = False,
    ) -> list:
        """One page of servers: build requests first (the newest servers),
        then instances from every cell, merged in the requested order.

        ``cell_down_support``: see :func:`instance_list.get_instances_sorted`.

        :raises MarkerNotFound: the marker is no server of the caller's.
        """
        # The same total order as the cells' (uuid breaks ties), so a marker
        # finds its place among build requests created in the same second.
        sort_keys, sort_dirs = instance_list.normalize_sort(sort_keys, sort_dirs)
        try:
            build_requests = objects.BuildRequestList.get_by_filters(
                context, filters, limit, marker, sort_keys, sort_dirs
            )
            # No marker, or a build request's: the cells start from the top.
            cell_marker = None
        except exception.MarkerNotFound:
            build_requests = objects.BuildRequestList(objects=[])
            cell_marker = marker
        pending = [build_request.instance for build_request in build_requests]
        if limit is not None:
            limit -= len(pending)
            if limit <= 0:
                return pending
        instances = instance_list.get_instances_sorted(
            context,
            filters,
            limit,
            cell_marker,
            list(expected_attrs),
            sort_keys,
            sort_dirs,
            cell_down_support=cell_down_support,
        )
        # Scheduled between the two reads: the cell's copy is the live one.
        in_cells = {instance.uuid for instance in instances}
        return [i for i in pending if i.uuid not in in_cells] + list(instances)

    # -- update -------------------------------------------------------------

    def update(self, context, instance, **changes):
        """Change the name, description, hostname or access addresses."""
        policy.authorize(
            context, server_policies.SERVERS % "update", base.target(instance)
        )
        if "id" not in instance:
            # Still a build request: change the copy the conductor will use.
            try:
                build_request = objects.BuildRequest.get_by_instance_uuid(
                    context, instance.uuid
                )
            except exception.BuildRequestNotFound:
                # Scheduled meanwhile; update it in its cell.
                instance = self.get(context, instance.uuid)
            else:
                for name, value in changes.items():
                    setattr(build_request.instance, name, value)
                build_request.save()
                return build_request.instance
        for name, value in changes.items():
            setattr(instance, name, value)
        instance.save()
        return instance

    def pin_availability_zone(self, context, instance, zone: str | None) -> None:
        """Unpin the server from its availability zone (``zone`` None), so
        moves may take it to any zone, or pin it again (2.104): only to the
        zone it is in now.

        :raises Invalid: (400) ``zone`` is not the zone the server is in.
        """
        policy.authorize(
            context, server_policies.SERVERS % "update", base.target(instance)
        )
        if zone is not None:
            current = self._current_zone(context, instance)
            if zone != current:
                raise exception.Invalid(
                    f"Server {instance.uuid} is in availability zone "
                    f"'{current}'; it can only be pinned to that zone."
                )
        spec = objects.RequestSpec.get_by_instance_uuid(context, instance.uuid)
        spec.availability_zone = zone
        spec.save()

    def _current_zone(self, context, instance) -> str | None:
        """The zone the server is in: its host's, else the one it asked for."""
        host = instance.host if "host" in instance else None
        if host:
            return self.host_zones(context).get(host, CONF.default_availability_zone)
        return instance.availability_zone if "availability_zone" in instance else None

    # -- metadata and tags --------------------------------------------------

    def update_instance_metadata(
        self, instance, metadata: dict[str, str], replace: bool
    ) -> dict[str, str]:
        """Merge ``metadata`` into the server's (or replace it); the result.

        :raises MetadataLimitExceeded: more items than ``[quota]
            metadata_items`` allows.
        """
        base.check_lock(instance)
        machine.check(instance, machine.UPDATE_METADATA)
        merged = dict(metadata) if replace else {**instance.metadata, **metadata}
        allowed = CONF.quota.metadata_items
        if 0 <= allowed < len(merged):
            raise exception.MetadataLimitExceeded(allowed=allowed)
        instance.metadata = merged
        instance.save()
        return merged

    def delete_instance_metadata(self, instance, key: str) -> None:
        """:raises MetadataItemNotFound: the server has no such key."""
        if key not in instance.metadata:
            raise exception.MetadataItemNotFound()
        base.check_lock(instance)
        machine.check(instance, machine.DELETE_METADATA)
        instance.metadata = {k: v for k, v in instance.metadata.items() if k != key}
        instance.save()

    def replace_tags(self, instance, tags: list[str]) -> list[str]:
        """Make ``tags`` the server's tags; the stored ones, sorted."""
        machine.check(instance, machine.UPDATE_TAGS)
        if len(set(tags)) > tag_obj.MAX_TAG_COUNT:
            raise exception.TooManyInstanceTags(limit=tag_obj.MAX_TAG_COUNT)
        stored = objects.TagList.create(instance._context, instance.uuid, tags)
        return [tag.tag for tag in stored]

    def add_tag(self, instance, tag: str) -> bool:
        """Add one tag; whether it is new (False: it was there already)."""
        machine.check(instance, machine.UPDATE_TAG)
        context = instance._context
        if objects.Tag.exists(context, instance.uuid, tag):
            return False
        tags = objects.TagList.get_by_resource_id(context, instance.uuid)
        if len(tags) >= tag_obj.MAX_TAG_COUNT:
            raise exception.TooManyInstanceTags(limit=tag_obj.MAX_TAG_COUNT)
        objects.Tag(context, resource_id=instance.uuid, tag=tag).create()
        return True

    def delete_tag(self, instance, tag: str) -> None:
        """:raises TagNotFound: the server has no such tag."""
        machine.check(instance, machine.DELETE_TAG)
        objects.Tag.destroy(instance._context, instance.uuid, tag)

    def delete_tags(self, instance) -> None:
        machine.check(instance, machine.DELETE_TAGS)
        objects.TagList.destroy(instance._context, instance.uuid)

    # -- lock and state reset -------------------------------------------------

    @staticmethod
    def _locked_by(context, instance) -> str:
        """Who a lock by ``context`` is recorded as: the owner, or an admin
        of another project."""
        return "owner" if context.project_id == instance.project_id else "admin"

    def lock(self, context, instance, reason: str | None = None) -> None:
        """Lock the server against changes by non-admins; ``reason`` (2.73)
        is kept in its system metadata as ``locked_reason``."""
        policy.authorize(context, lock_policies.LOCK, base.target(instance))
        cctxt, cell_instance = self.in_cell(context, instance, machine.LOCK.action)
        cell_instance.locked = True
        cell_instance.locked_by = self._locked_by(context, cell_instance)
        if reason:
            cell_instance.system_metadata = {
                **cell_instance.system_metadata,
                "locked_reason": reason,
            }
        cell_instance.save()
        self.record_action(cctxt, cell_instance, machine.LOCK)
        instance_notifications.notify_api_action(cctxt, cell_instance, "lock")
        LOG.info("Instance %s locked by %s", instance.uuid, cell_instance.locked_by)

    def unlock(self, context, instance) -> None:
        """Lift the lock; lifting one set by the other side (the owner's by
        an admin, an admin's by the owner) needs ``unlock_override``."""
        policy.authorize(context, lock_policies.UNLOCK, base.target(instance))
        cctxt, cell_instance = self.in_cell(context, instance, machine.UNLOCK.action)
        locked_by = cell_instance.locked_by
        if locked_by and locked_by != self._locked_by(context, cell_instance):
            policy.authorize(
                context, lock_policies.UNLOCK_OVERRIDE, base.target(instance)
            )
        cell_instance.locked = False
        cell_instance.locked_by = None
        if "locked_reason" in cell_instance.system_metadata:
            cell_instance.system_metadata = {
                key: value
                for key, value in cell_instance.system_metadata.items()
                if key != "locked_reason"
            }
        cell_instance.save()
        self.record_action(cctxt, cell_instance, machine.UNLOCK)
        instance_notifications.notify_api_action(cctxt, cell_instance, "unlock")
        LOG.info("Instance %s unlocked", instance.uuid)

    def reset_state(self, context, instance, vm_state: str) -> None:
        """Force the server's vm_state (ACTIVE or ERROR) and clear its task,
        whatever it was doing: the operator's way out of a stuck state."""
        policy.authorize(
            context, admin_actions_policies.RESET_STATE, base.target(instance)
        )
        cctxt, cell_instance = self.in_cell(
            context, instance, machine.RESET_STATE.action
        )
        cell_instance.vm_state = vm_state
        cell_instance.task_state = None
        cell_instance.save()
        self.record_action(cctxt, cell_instance, machine.RESET_STATE)
        LOG.info("Instance %s reset to %s by an admin", instance.uuid, vm_state)
