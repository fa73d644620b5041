"""nova-conductor: database proxy of the computes, and the RPC face of
the task flows (:mod:`nova.conductor.tasks`).

One binary plays two roles (see ARCHITECTURE.md, deployment contract):
with ``[api_database] connection`` set it is the superconductor, which
schedules accepted servers, creates them in their cells and casts their
builds to the chosen hosts, and unshelves; inside a cell it is that cell's
conductor, which runs the remotable object methods of its computes and
reschedules their failed builds. Both roles serve the same endpoints; a
cell conductor has no API database to build from.
"""

from __future__ import annotations

import oslo_messaging
from oslo_log import log as logging
from oslo_utils import versionutils

import nova.conf
from nova import exception, manager, objects
from nova.compute import rpcapi as compute_rpcapi
from nova.conductor.tasks import (
    evacuate,
    live_migrate,
    migrate,
    orphaned_builds,
    reschedule,
    schedule_and_build,
    unshelve,
)
from nova.objects import base as objects_base
from nova.scheduler import rpcapi as scheduler_rpcapi

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

# Seconds between two looks for orphaned builds, at the least.
ORPHAN_CHECK_MIN_SPACING = 5.0


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

    def periodic_tasks(self) -> list[manager.PeriodicTask]:
        timeout = CONF.conductor.orphaned_build_timeout
        if timeout <= 0:
            return []
        return [
            manager.PeriodicTask(
                "end_orphaned_builds",
                self.end_orphaned_builds,
                max(timeout / 4, ORPHAN_CHECK_MIN_SPACING),
                # What a killed predecessor left is looked for at start.
                run_immediately=True,
            )
        ]

    def end_orphaned_builds(self, context) -> None:
        """End the builds a dead conductor or scheduler left behind
        (:mod:`nova.conductor.tasks.orphaned_builds`)."""
        ended = orphaned_builds.OrphanedBuildsTask(
            context, CONF.conductor.orphaned_build_timeout, self.host
        ).execute()
        if ended:
            LOG.warning("Ended %d build(s) left behind mid-build", ended)

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
    """The ``compute_task`` endpoint: each method runs the task of its flow
    (:mod:`nova.conductor.tasks`).

    Senders older than 1.3 spell a build's BuildParameters out as keyword
    arguments (``legacy_kwargs``); BuildParameters.received converts them.
    """

    target = oslo_messaging.Target(namespace="compute_task", version="1.7")

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
        request_spec=None,
        node=None,
        limits=None,
        host_list=None,
        **legacy_kwargs,
    ) -> None:
        """Pass a scheduled build on to the compute service of ``host``
        (this cell's queue).

        Only a superconductor older than 1.3 sends this (in the 1.0 form):
        the superconductor now casts the build straight to the host. Kept so
        a rolling upgrade loses no build.
        """
        self.compute_rpcapi.build_and_run_instance(
            context,
            instance=instance,
            host=host,
            request_spec=request_spec,
            build_parameters=objects.BuildParameters.from_legacy_kwargs(
                **legacy_kwargs
            ),
            node=node,
            limits=limits,
            host_list=host_list,
        )

    def build_instances(
        self,
        context,
        instances,
        request_spec=None,
        host_lists=None,
        build_parameters=None,
        **legacy_kwargs,
    ) -> None:
        """Reschedule builds that failed on their host to the alternates the
        scheduler chose with it (each instance's host list)."""
        parameters = objects.BuildParameters.received(build_parameters, legacy_kwargs)
        for instance, host_list in zip(instances, host_lists or [], strict=True):
            task = reschedule.RescheduleTask(
                context,
                instance,
                request_spec,
                parameters.obj_clone(),
                list(host_list),
                self.compute_rpcapi,
            )
            _run(task, f"Instance {instance.uuid} is in ERROR")

    # -- superconductor ---------------------------------------------------

    def schedule_and_build_instances(
        self,
        context,
        build_requests,
        request_specs,
        build_parameters=None,
        **legacy_kwargs,
    ) -> None:
        """Schedule the instances, then create each in its host's cell and
        have it built there; instances that cannot be scheduled are buried
        in cell0 with the reason."""
        task = schedule_and_build.ScheduleAndBuildTask(
            context,
            build_requests,
            request_specs,
            objects.BuildParameters.received(build_parameters, legacy_kwargs),
            self.scheduler_client,
            self.compute_rpcapi,
            self.host,
        )
        uuids = [br.instance_uuid for br in build_requests]
        _run(task, f"Failed to schedule instances {uuids}")

    def unshelve_instance(self, context, instance, request_spec=None) -> None:
        """Power a SHELVED instance on again on its host; schedule a
        SHELVED_OFFLOADED one and have the chosen host boot it from its
        shelved image. When that fails it stays SHELVED_OFFLOADED with a
        fault saying why."""
        task = unshelve.UnshelveTask(
            context,
            instance,
            request_spec,
            self.scheduler_client,
            self.compute_rpcapi,
            self.host,
        )
        _run(task, f"Could not unshelve {instance.uuid}")

    @oslo_messaging.expected_exceptions(exception.NovaException)
    def migrate_server(
        self, context, instance, flavor, request_spec, clean_shutdown=True
    ) -> None:
        """Resize the instance to ``flavor`` (its own: a cold migration):
        choose the destination and hand the move to it. A call: the
        failure to find a destination goes back to nova-api, after the
        instance is left as it was with a fault saying why."""
        migrate.MigrationTask(
            context,
            instance,
            flavor,
            request_spec,
            clean_shutdown,
            self.scheduler_client,
            self.compute_rpcapi,
            self.host,
        ).execute()

    def live_migrate_instance(
        self,
        context,
        instance,
        request_spec,
        block_migration=False,
        disk_over_commit=False,
        host=None,
    ) -> None:
        """Choose the destination (``host`` when forced), have it checked
        and the source move the running guest there. When that fails the
        server runs where it was, with a fault saying why."""
        task = live_migrate.LiveMigrationTask(
            context,
            instance,
            request_spec,
            block_migration,
            disk_over_commit,
            self.scheduler_client,
            self.compute_rpcapi,
            self.host,
            forced_host=host,
        )
        _run(task, f"Could not live-migrate {instance.uuid}")

    def rebuild_instance(
        self,
        context,
        instance,
        orig_image_ref,
        image_ref,
        orig_sys_metadata,
        on_shared_storage=False,
        new_pass=None,
        host=None,
        request_spec=None,
        migration=None,
        target_state=None,
    ) -> None:
        """Evacuate: find or claim the destination and have
        it rebuild the instance of a dead host. When that fails the server
        stays where it was, with a fault saying why."""
        task = evacuate.EvacuateTask(
            context,
            instance,
            evacuate.RebuildRequest(
                orig_image_ref=orig_image_ref,
                image_ref=image_ref,
                orig_sys_metadata=orig_sys_metadata,
                on_shared_storage=on_shared_storage,
                new_pass=new_pass,
                target_state=target_state,
            ),
            host,
            request_spec,
            migration,
            self.scheduler_client,
            self.compute_rpcapi,
            self.host,
        )
        _run(task, f"Could not evacuate {instance.uuid}")


def _run(task, failure: str) -> None:
    """Run the task of a cast. Nobody waits for its outcome: a failure, once
    the task's rollback has recorded it on the instances, ends here in the
    log (``failure`` says what failed)."""
    try:
        task.execute()
    except Exception as exc:
        LOG.warning("%s: %s", failure, exc)
