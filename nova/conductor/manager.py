"""nova-conductor: database proxy of the computes, and the build task flow.

One binary plays two roles (see ARCHITECTURE.md, deployment contract):
with ``[api_database] connection`` set it is the superconductor, which
schedules accepted servers and creates them in their cells; inside a cell it
is that cell's conductor, which runs the remotable object methods of its
computes and passes scheduled builds on to them. Both roles serve the same
endpoints; a cell conductor has no API database to build from.
"""

from __future__ import annotations

import copy
import json
import traceback

import oslo_messaging
from oslo_log import log as logging
from oslo_utils import versionutils

import nova.conf
from nova import context as nova_context
from nova import exception, manager, objects, placement
from nova.compute import build_retry, instance_actions, snapshot
from nova.compute import rpcapi as compute_rpcapi
from nova.compute import utils as compute_utils
from nova.objects import base as objects_base
from nova.scheduler import rpcapi as scheduler_rpcapi
from nova.states import task_states, vm_states

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

# The instance action event recording the outcome of scheduling.
SCHEDULE_EVENT = "conductor_schedule_and_build_instances"
UNSHELVE_EVENT = "conductor_unshelve_instance"


class ConductorManager(manager.Manager):
    """Object indirection for services without a database."""

    target = oslo_messaging.Target(version="1.0")

    def __init__(self, host: str) -> None:
        super().__init__(host, "conductor")
        self.compute_task_mgr = ComputeTaskManager(host)

    def additional_endpoints(self) -> list:
        return [self.compute_task_mgr]

    def init_host(self, service_ref) -> None:
        role = "superconductor" if CONF.api_database.connection else "cell conductor"
        LOG.info("nova-conductor on %s runs as %s", self.host, role)

    @oslo_messaging.expected_exceptions(exception.NovaException)
    def object_class_action_versions(
        self, context, objname, objmethod, object_versions, args, kwargs
    ):
        """Run a remotable class method; an object result is returned at
        the version the caller knows."""
        wanted = object_versions[objname]
        objclass = objects_base.NovaObject.obj_class_from_name(objname, wanted)
        result = getattr(objclass, objmethod)(context, *args, **kwargs)
        if isinstance(result, objects_base.NovaObject):
            requested = versionutils.convert_version_to_tuple(wanted)
            actual = versionutils.convert_version_to_tuple(result.VERSION)
            if requested < actual or requested[0] != actual[0]:
                result = result.obj_to_primitive(
                    target_version=wanted, version_manifest=object_versions
                )
        return result

    @oslo_messaging.expected_exceptions(exception.NovaException)
    def object_action(self, context, objinst, objmethod, args, kwargs):
        """Run a remotable method of ``objinst``.

        Returns the method's result and the fields it changed, which the
        caller applies to its copy of the object.
        """
        before = objinst.obj_clone()
        result = getattr(objinst, objmethod)(*args, **kwargs)
        updates = {}
        for name, field in objinst.fields.items():
            if not objinst.obj_attr_is_set(name):
                continue
            value = getattr(objinst, name)
            if not before.obj_attr_is_set(name) or getattr(before, name) != value:
                updates[name] = field.to_primitive(objinst, name, value)
        updates["obj_what_changed"] = objinst.obj_what_changed()
        return updates, result

    def object_backport_versions(self, context, objinst, object_versions):
        target = object_versions[objinst.obj_name()]
        return objinst.obj_to_primitive(
            target_version=target, version_manifest=object_versions
        )


class ComputeTaskManager:
    """The ``compute_task`` endpoint: build task flows."""

    target = oslo_messaging.Target(namespace="compute_task", version="1.2")

    def __init__(self, host: str) -> None:
        self.host = host
        self.scheduler_client = scheduler_rpcapi.SchedulerAPI()
        self.compute_rpcapi = compute_rpcapi.ComputeAPI()

    # -- cell conductor ---------------------------------------------------

    def build_and_run_instance(
        self,
        context,
        instance,
        host,
        image,
        request_spec,
        filter_properties,
        admin_password=None,
        injected_files=None,
        requested_networks=None,
        security_groups=None,
        block_device_mapping=None,
        node=None,
        limits=None,
        host_list=None,
    ) -> None:
        """Pass a scheduled build on to the compute service of ``host``
        (this cell's queue).

        Only a superconductor older than this one sends this: the
        superconductor now casts the build straight to the host. Kept so a
        rolling upgrade loses no build.
        """
        self.compute_rpcapi.build_and_run_instance(
            context,
            instance=instance,
            host=host,
            request_spec=request_spec,
            build_parameters=objects.BuildParameters.from_legacy_kwargs(
                image=image,
                filter_properties=filter_properties,
                admin_password=admin_password,
                injected_files=injected_files,
                requested_networks=requested_networks,
                security_groups=security_groups,
                block_device_mapping=block_device_mapping,
            ),
            node=node,
            limits=limits,
            host_list=host_list,
        )

    def build_instances(
        self,
        context,
        instances,
        image,
        filter_properties,
        admin_password,
        injected_files,
        requested_networks,
        security_groups,
        block_device_mapping=None,
        legacy_bdm=False,
        request_spec=None,
        host_lists=None,
    ) -> None:
        """Reschedule builds that failed on their host to the alternates the
        scheduler chose with it, without asking it again: the first
        alternate whose allocation request can still be claimed in
        Placement gets the build. With none left, the instance goes to
        ERROR with a fault naming every attempt."""
        for instance, host_list in zip(instances, host_lists or [], strict=True):
            alternates = list(host_list)
            attempts = copy.deepcopy(filter_properties or {})
            try:
                selection = self._claim_alternate(
                    context, instance, alternates, attempts
                )
            except exception.MaxRetriesExceeded as exc:
                self._fail_reschedule(context, instance, exc)
                continue
            LOG.info(
                "Instance %s is rescheduled to %s (%s)",
                instance.uuid,
                selection.service_host,
                selection.nodename,
            )
            self.compute_rpcapi.build_and_run_instance(
                context,
                instance=instance,
                host=selection.service_host,
                request_spec=request_spec,
                build_parameters=objects.BuildParameters.from_legacy_kwargs(
                    image=image,
                    filter_properties=attempts,
                    admin_password=admin_password,
                    injected_files=injected_files,
                    requested_networks=requested_networks,
                    security_groups=security_groups,
                    block_device_mapping=block_device_mapping,
                ),
                node=selection.nodename,
                limits=selection.limits,
                host_list=[selection, *alternates],
            )

    def _claim_alternate(self, context, instance, alternates, filter_properties):
        """Pop alternates until one is claimed for ``instance``; the failed
        host's allocation is already gone, so this claim is the move.
        Alternates that lost their room join the attempts."""
        client = placement.client()
        while alternates:
            selection = alternates.pop(0)
            if not selection.allocation_request:
                return selection
            if client.claim_resources(
                instance.uuid,
                json.loads(selection.allocation_request),
                instance.project_id,
                instance.user_id,
                context=context,
            ):
                return selection
            LOG.info(
                "Alternate %s of %s has no room left",
                selection.service_host,
                instance.uuid,
            )
            build_retry.record_attempt(
                filter_properties,
                selection.service_host,
                selection.nodename,
                "its resources were claimed by another request",
            )
        raise build_retry.exhausted(instance.uuid, filter_properties)

    def _fail_reschedule(self, context, instance, exc) -> None:
        try:
            compute_utils.add_instance_fault_from_exc(context, instance, exc)
            instance.vm_state = vm_states.ERROR
            instance.task_state = None
            instance.save()
        except (exception.InstanceNotFound, exception.UnexpectedDeletingTaskStateError):
            LOG.info("Instance %s was deleted during its reschedule", instance.uuid)
        LOG.warning("Instance %s is in ERROR: %s", instance.uuid, exc)

    # -- superconductor ---------------------------------------------------

    def schedule_and_build_instances(
        self,
        context,
        build_requests,
        request_specs,
        image,
        admin_password,
        injected_files,
        requested_networks,
        block_device_mapping,
        tags=None,
    ) -> None:
        """Schedule the instances, then create each in its host's cell and
        have it built there; instances that cannot be scheduled are buried
        in cell0 with the reason."""
        instance_uuids = [br.instance_uuid for br in build_requests]
        try:
            self._set_group_hosts(request_specs[0], instance_uuids)
            host_lists = self.scheduler_client.select_destinations(
                context,
                request_specs[0],
                instance_uuids,
                return_objects=True,
                return_alternates=True,
            )
        except oslo_messaging.MessagingTimeout as exc:
            reason = exception.NoValidHost(
                reason="nova-scheduler did not answer in time."
            )
            reason.__cause__ = exc
            self._bury_in_cell0(context, build_requests, reason)
            return
        except Exception as exc:  # every failure is reported on the instances
            LOG.warning("Failed to schedule instances %s: %s", instance_uuids, exc)
            self._bury_in_cell0(context, build_requests, exc)
            return

        cells_by_host: dict[str, objects.CellMapping] = {}
        for build_request, request_spec, host_list in zip(
            build_requests, request_specs, host_lists, strict=True
        ):
            try:
                self._build_in_cell(
                    context,
                    build_request,
                    request_spec,
                    host_list,
                    cells_by_host,
                    image=image,
                    admin_password=admin_password,
                    injected_files=injected_files,
                    requested_networks=requested_networks,
                )
            except Exception as exc:  # one instance must not sink the others
                LOG.exception(
                    "Failed to build instance %s", build_request.instance_uuid
                )
                self._remove_allocations(context, build_request.instance_uuid)
                self._bury_in_cell0(context, [build_request], exc)

    @staticmethod
    def _set_group_hosts(request_spec, instance_uuids) -> None:
        """Tell the scheduler where the server group's other members are."""
        group = (
            request_spec.instance_group if "instance_group" in request_spec else None
        )
        if group is not None:
            group.hosts = group.get_hosts(exclude=instance_uuids)

    def _cell_of_host(self, context, host: str, cache: dict) -> objects.CellMapping:
        if host not in cache:
            cache[host] = objects.HostMapping.get_by_host(context, host).cell_mapping
        return cache[host]

    def _build_in_cell(
        self,
        context,
        build_request,
        request_spec,
        host_list,
        cells_by_host,
        **build_args,
    ) -> None:
        selection = host_list[0]
        uuid = build_request.instance_uuid
        cell = self._cell_of_host(context, selection.service_host, cells_by_host)
        with nova_context.target_cell(context, cell) as cctxt:
            instance = build_request.get_new_instance(cctxt)
            instance.create()
            mapping = objects.InstanceMapping.get_by_instance_uuid(context, uuid)
            mapping.cell_mapping = cell
            mapping.save()
            try:
                build_request.destroy()
            except exception.BuildRequestNotFound:
                # The user deleted the server while it was being scheduled.
                LOG.info("Instance %s was deleted before its build", uuid)
                instance.destroy()
                self._remove_allocations(context, uuid)
                return
            bdms = objects.BlockDeviceMappingList(objects=[])
            for bdm in build_request.block_device_mappings:
                bdm = objects.BlockDeviceMapping(
                    cctxt,
                    **{
                        name: getattr(bdm, name)
                        for name in bdm.fields
                        if name in bdm and name not in ("id", "instance_uuid")
                    },
                )
                bdm.instance_uuid = uuid
                bdm.create()
                bdms.objects.append(bdm)
            objects.InstanceAction.action_start(
                cctxt, uuid, instance_actions.CREATE, want_result=False
            )
            LOG.info(
                "Instance %s goes to %s (%s) in cell %s",
                uuid,
                selection.service_host,
                selection.nodename,
                cell.identity,
            )
            # Straight to the host: cctxt puts the cast on its cell's queue.
            self.compute_rpcapi.build_and_run_instance(
                cctxt,
                instance=instance,
                host=selection.service_host,
                request_spec=request_spec,
                build_parameters=objects.BuildParameters.from_legacy_kwargs(
                    filter_properties={},
                    security_groups=None,
                    block_device_mapping=bdms,
                    **build_args,
                ),
                node=selection.nodename,
                limits=selection.limits,
                host_list=host_list,
            )

    def _bury_in_cell0(self, context, build_requests, exc: BaseException) -> None:
        """Create the instances in cell0 in ERROR, with a fault and a failed
        action event saying why, and retire their build requests."""
        cell0 = objects.CellMapping.get_by_uuid(context, objects.CellMapping.CELL0_UUID)
        message = compute_utils.exception_message(exc)
        tb = "".join(traceback.format_exception(exc))
        for build_request in build_requests:
            uuid = build_request.instance_uuid
            self._remove_allocations(context, uuid)
            with nova_context.target_cell(context, cell0) as cctxt:
                instance = build_request.get_new_instance(cctxt)
                instance.vm_state = vm_states.ERROR
                instance.task_state = None
                try:
                    instance.create()
                except exception.InstanceExists:
                    # Buried by an earlier attempt at this same message.
                    continue
                objects.InstanceAction.action_start(
                    cctxt, uuid, instance_actions.CREATE, want_result=False
                )
                objects.InstanceActionEvent.event_start(
                    cctxt, uuid, SCHEDULE_EVENT, want_result=False, host=self.host
                )
                objects.InstanceActionEvent.event_finish_with_failure(
                    cctxt, uuid, SCHEDULE_EVENT, exc_val=message, exc_tb=tb
                )
                compute_utils.add_instance_fault_from_exc(cctxt, instance, exc)
                mapping = objects.InstanceMapping.get_by_instance_uuid(context, uuid)
                mapping.cell_mapping = cell0
                mapping.save()
                try:
                    build_request.destroy()
                except exception.BuildRequestNotFound:
                    # Deleted by its user meanwhile: it stays deleted.
                    instance.destroy()
            LOG.warning("Instance %s is in ERROR in cell0: %s", uuid, message)

    def unshelve_instance(self, context, instance, request_spec=None) -> None:
        """Power a SHELVED instance on again on its host; schedule a
        SHELVED_OFFLOADED one through the scheduler and Placement and have
        the chosen host boot it from its shelved image. When no host fits
        it stays SHELVED_OFFLOADED with a fault saying why."""
        mapping = objects.InstanceMapping.get_by_instance_uuid(context, instance.uuid)
        with nova_context.target_cell(context, mapping.cell_mapping) as cctxt:
            instance = objects.Instance.get_by_uuid(cctxt, instance.uuid)
        if instance.vm_state == vm_states.SHELVED:
            instance.task_state = task_states.POWERING_ON
            instance.save(expected_task_state=task_states.UNSHELVING)
            self.compute_rpcapi.start_instance(cctxt, instance)
            return
        try:
            with compute_utils.EventReporter(
                cctxt, UNSHELVE_EVENT, self.host, instance.uuid
            ):
                image = self._shelved_image(instance)
                if request_spec is None:
                    request_spec = objects.RequestSpec.get_by_instance_uuid(
                        context, instance.uuid
                    )
                request_spec.num_instances = 1
                request_spec.image = objects.ImageMeta.from_dict(image)
                [host_list] = self.scheduler_client.select_destinations(
                    context,
                    request_spec,
                    [instance.uuid],
                    return_objects=True,
                    return_alternates=False,
                )
        except Exception as exc:  # the instance stays shelved, with the reason
            LOG.warning("Could not unshelve %s: %s", instance.uuid, exc)
            compute_utils.add_instance_fault_from_exc(cctxt, instance, exc)
            instance.task_state = None
            instance.save(expected_task_state=task_states.UNSHELVING)
            return
        selection = host_list[0]
        LOG.info("Unshelving %s on %s", instance.uuid, selection.service_host)
        self.compute_rpcapi.unshelve_instance(
            cctxt,
            instance,
            host=selection.service_host,
            image=image,
            request_spec=request_spec,
            filter_properties={},
            node=selection.nodename,
        )

    @staticmethod
    def _shelved_image(instance) -> dict:
        """The shelved image, as the instance remembers its own image.

        :raises ImageNotFound: the instance has no shelved image.
        """
        sysmeta = instance.system_metadata or {}
        image_id = sysmeta.get("shelved_image_id")
        if not image_id:
            raise exception.ImageNotFound(image_id=None)
        return {"id": image_id, **snapshot.image_meta_from_system_metadata(sysmeta)}

    def _remove_allocations(self, context, instance_uuid: str) -> None:
        try:
            placement.client().remove_allocations(instance_uuid, context=context)
        except Exception:  # left for `nova-manage placement audit`
            LOG.exception("Could not remove the allocations of %s", instance_uuid)
