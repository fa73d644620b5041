"""Evacuate: rebuild a server whose host is down on another host.

The API checks that the source compute is really gone (its service down
or forced down), records an ``evacuation`` migration and hands the server
to the superconductor's evacuate task (:mod:`nova.conductor.tasks.evacuate`),
which finds or claims the destination and has it rebuild the server
(:mod:`nova.compute.flows.evacuate`). When the source compute comes back
it destroys what is left of the guest there and frees its allocation.
"""

from __future__ import annotations

from nova import exception, objects, servicegroup
from nova.compute.api import base, checks
from nova.objects import migration as migration_obj
from nova.policies import evacuate as evacuate_policies
from nova.states import machine


class EvacuateAPI(base.FlowAPI):
    """evacuate."""

    def evacuate(
        self,
        context,
        instance,
        host: str | None,
        on_shared_storage: bool,
        admin_password: str | None,
        force: bool = False,
        target_state: str | None = None,
    ) -> None:
        """Rebuild the server on ``host`` (or where the scheduler puts it;
        ``force`` skips the scheduler's check of ``host``); it ends
        ``target_state`` when given, else as it was (ERROR ends ACTIVE).

        :raises ComputeHostNotFound: (404) no compute host ``host``.
        :raises CannotEvacuateToSameHost: (400) ``host`` is its own.
        :raises ComputeServiceInUse: (400) its host's compute is up.
        """
        transition = machine.EVACUATE
        policy_rule = evacuate_policies.BASE_POLICY_NAME
        cctxt, cell_instance = self.on_host(
            context, instance, transition.action, policy_rule
        )
        if host is not None:
            try:
                objects.HostMapping.get_by_host(context, host)
            except exception.HostMappingNotFound as exc:
                raise exception.ComputeHostNotFound(host=host) from exc
            if host == cell_instance.host:
                raise exception.CannotEvacuateToSameHost()
        machine.check(cell_instance, transition)
        source = objects.Service.get_by_compute_host(cctxt, cell_instance.host)
        if servicegroup.service_is_up(source):
            raise exception.ComputeServiceInUse(host=cell_instance.host)
        request_spec = objects.RequestSpec.get_by_instance_uuid(
            context, cell_instance.uuid
        )
        request_spec.ignore_hosts = [cell_instance.host]
        request_spec.requested_destination = (
            None if force else checks.destination(context, host)
        )
        self.claim_task(cell_instance, transition)
        migration = objects.Migration(
            cctxt,
            source_compute=cell_instance.host,
            source_node=cell_instance.node,
            dest_compute=host,
            instance_uuid=cell_instance.uuid,
            status="accepted",
            migration_type=migration_obj.EVACUATION,
            old_instance_type_id=cell_instance.flavor.id,
            new_instance_type_id=cell_instance.flavor.id,
            cross_cell_move=False,
            hidden=False,
            user_id=context.user_id,
            project_id=context.project_id,
        )
        migration.create()
        self.record_action(cctxt, cell_instance, transition)
        # To the superconductor: the API-level context, not the cell's.
        self._compute_task_api().rebuild_instance(
            context,
            cell_instance,
            orig_image_ref=cell_instance.image_ref,
            image_ref=cell_instance.image_ref,
            orig_sys_metadata=dict(cell_instance.system_metadata),
            on_shared_storage=on_shared_storage,
            new_pass=admin_password,
            host=host if force else None,
            request_spec=request_spec,
            migration=migration,
            target_state=target_state,
        )
