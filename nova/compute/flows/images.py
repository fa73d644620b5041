"""Saving a guest's disk as an image on this host: createImage,
createBackup (with rotation), and shelve, shelveOffload and unshelve with
the periodic offload of shelved instances."""

from __future__ import annotations

import contextlib
import datetime
import threading

from oslo_log import log as logging

import nova.conf
from nova import exception, objects
from nova.compute import utils as compute_utils
from nova.compute.flows import base
from nova.compute.shelved_images import forget_shelved_image
from nova.image import api as image_api
from nova.notifications import instance as instance_notifications
from nova.notifications.payloads import instance as payloads
from nova.objects import base as objects_base
from nova.states import machine, power_state, task_states, vm_states

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

# A semaphore needs a size; 0 in max_concurrent_snapshots means no limit.
SNAPSHOTS_UNLIMITED = 2**31
# The driver's snapshot progress, as a shelve's task states say it.
_SHELVE_IMAGE_TASK_STATES = {
    task_states.IMAGE_PENDING_UPLOAD: task_states.SHELVING_IMAGE_PENDING_UPLOAD,
    task_states.IMAGE_UPLOADING: task_states.SHELVING_IMAGE_UPLOADING,
}


def mark_offloaded(instance) -> None:
    """Make ``instance`` SHELVED_OFFLOADED: on no host, no guest, no task
    (the caller saves it)."""
    instance.host = None
    instance.node = None
    instance.compute_id = None
    instance.power_state = power_state.NOSTATE
    instance.vm_state = vm_states.SHELVED_OFFLOADED
    instance.task_state = None


class ImagesFlow(base.Flow):
    """snapshot_instance, backup_instance and the shelve family."""

    def __init__(self, compute: base.ComputeHost) -> None:
        super().__init__(compute)
        # Snapshots copy whole disks: at most max_concurrent_snapshots at once.
        self._snapshots = threading.BoundedSemaphore(
            CONF.max_concurrent_snapshots or SNAPSHOTS_UNLIMITED
        )

    @contextlib.contextmanager
    def _unfinished_image_goes(self, context, image_id: str):
        """A failure inside deletes the half-made image ``image_id``."""
        try:
            yield
        except exception.ImageNotFound:
            raise  # nothing left to delete
        except BaseException:
            self._delete_unfinished_image(context, image_id)
            raise

    def _capture(self, context, instance, image_id: str, update_task_state) -> None:
        """Have the driver store the guest's disk as the image's data."""
        with self._snapshots:
            self.driver.snapshot(context, instance, image_id, update_task_state)

    # -- snapshots and backups ------------------------------------------------

    def snapshot_instance(self, context, image_id: str, instance) -> None:
        """Upload the guest's root disk as the queued image ``image_id``."""
        self._snapshot(
            context,
            image_id,
            instance,
            "snapshot_instance",
            machine.CREATE_IMAGE,
            task_states.IMAGE_SNAPSHOT,
        )

    def backup_instance(
        self, context, image_id: str, instance, backup_type: str, rotation: int
    ) -> None:
        """A snapshot as ``image_id``, then the oldest backups of this
        instance and ``backup_type`` beyond ``rotation`` are deleted."""
        if self._snapshot(
            context,
            image_id,
            instance,
            "backup_instance",
            machine.BACKUP,
            task_states.IMAGE_BACKUP,
        ):
            self._rotate_backups(context, instance, backup_type, rotation)

    def _snapshot(
        self,
        context,
        image_id: str,
        instance,
        event: str,
        transition: machine.Transition,
        task_state: str,
    ) -> bool:
        """Whether the image got its data; on failure the half-made image
        goes, the task is cleared and a fault says why."""
        done = False
        with self.action(
            context,
            instance,
            event,
            transition,
            notify="snapshot",
            payload_class=payloads.InstanceActionSnapshotPayload,
            snapshot_image_id=image_id,
        ):

            def update_task_state(task_state, expected_state=task_state):
                instance.task_state = task_state
                instance.save(expected_task_state=expected_state)

            try:
                with self._unfinished_image_goes(context, image_id):
                    update_task_state(task_state, [task_state, transition.task_state])
                    if self.current_power_state(instance) != power_state.RUNNING:
                        LOG.info("Taking a snapshot of %s while it is not running",
                                 instance.uuid)  # fmt: skip
                    self._capture(context, instance, image_id, update_task_state)
            except exception.ImageNotFound:
                # Its owner deleted the image meanwhile: nothing went wrong
                # with the server.
                LOG.info("Image %s was deleted during the snapshot of %s",
                         image_id, instance.uuid)  # fmt: skip
                instance.task_state = None
                instance.save(expected_task_state=list(transition.running))
                return False
            instance.task_state = None
            instance.save(expected_task_state=task_states.IMAGE_UPLOADING)
            done = True
            LOG.info("Instance %s saved as image %s", instance.uuid, image_id)
        return done

    @staticmethod
    def _delete_unfinished_image(context, image_id: str) -> None:
        images = image_api.get_image_api()
        try:
            if images.show(context, image_id).get("status") != "active":
                images.delete(context, image_id)
        except exception.ImageNotFound:
            pass
        except Exception:  # the snapshot's own failure is what matters
            LOG.exception("Could not delete the unfinished image %s", image_id)

    @staticmethod
    def _rotate_backups(context, instance, backup_type: str, rotation: int) -> None:
        images = image_api.get_image_api()
        backups = images.get_all(
            context,
            {
                "instance_uuid": instance.uuid,
                "image_type": "backup",
                "backup_type": backup_type,
                "sort_key": "created_at",
                "sort_dir": "desc",
            },
        )
        for image in backups[rotation:]:
            LOG.info("Deleting backup %s of %s (rotation %d)",
                     image["id"], instance.uuid, rotation)  # fmt: skip
            try:
                images.delete(context, image["id"])
            except exception.ImageNotFound:
                pass

    # -- shelve ---------------------------------------------------------------

    def shelve_instance(
        self, context, instance, image_id: str, clean_shutdown: bool = True
    ) -> None:
        """Power the guest off and upload its root disk as the queued image
        ``image_id``: SHELVED; offloaded at once when
        ``[DEFAULT] shelved_offload_time`` is 0."""
        shelved = False
        with self.action(
            context, instance, "shelve_instance", machine.SHELVE, notify="shelve"
        ):
            self.power_off_for(instance, clean_shutdown)

            def update_task_state(task_state, expected_state=None):
                instance.task_state = _SHELVE_IMAGE_TASK_STATES[task_state]
                instance.save(
                    expected_task_state=_SHELVE_IMAGE_TASK_STATES.get(
                        expected_state, task_states.SHELVING
                    )
                )

            with self._unfinished_image_goes(context, image_id):
                self._capture(context, instance, image_id, update_task_state)
            sysmeta = dict(instance.system_metadata or {})
            sysmeta.update(
                shelved_at=objects_base.utcnow().isoformat(),
                shelved_image_id=image_id,
                shelved_host=self.host,
            )
            instance.system_metadata = sysmeta
            self.finish(
                instance,
                machine.SHELVE,
                expected=[task_states.SHELVING_IMAGE_UPLOADING],
            )
            shelved = True
        if shelved and CONF.shelved_offload_time == 0:
            instance.task_state = machine.SHELVE_OFFLOAD.task_state
            instance.save(expected_task_state=[None])
            self.shelve_offload_instance(context, instance, clean_shutdown=False)

    def shelve_offload_instance(
        self, context, instance, clean_shutdown: bool = True
    ) -> None:
        """Destroy the guest of a SHELVED instance and give its resources
        back: SHELVED_OFFLOADED, on no host."""
        transition = machine.SHELVE_OFFLOAD
        with self.action(
            context,
            instance,
            "shelve_offload_instance",
            transition,
            notify="shelve_offload",
        ):
            self.power_off_for(instance, clean_shutdown)
            self.driver.destroy(context, instance)
            self.remove_allocations(context, instance)
            mark_offloaded(instance)
            instance.save(expected_task_state=list(transition.running))
            LOG.info("Instance %s is shelved and offloaded", instance.uuid)

    def unshelve_instance(self, context, instance, image, node=None) -> None:
        """Boot an offloaded instance here from its shelved image (the
        scheduler has claimed its resources on ``node``): ACTIVE. A failure
        gives the resources back and leaves it SHELVED_OFFLOADED with a
        fault, to be unshelved again."""
        with self.compute.instance_lock(instance.uuid):
            try:
                with (
                    compute_utils.EventReporter(
                        context, "compute_unshelve_instance", self.host, instance.uuid
                    ),
                    instance_notifications.action(
                        context, instance, self.host, "unshelve"
                    ),
                ):
                    self._unshelve(context, instance, image, node)
            except (
                exception.InstanceNotFound,
                exception.UnexpectedDeletingTaskStateError,
            ):
                LOG.info("Instance %s was deleted during its unshelve", instance.uuid)
                self.clean_up_guest(context, instance)
            except Exception as exc:  # the instance must stay unshelvable
                LOG.exception("Unshelve of %s failed", instance.uuid)
                self.fail_unshelve(context, instance, exc)

    def fail_unshelve(self, context, instance, exc: BaseException) -> None:
        """Give the guest and its resources back and leave the instance in
        the row's failure state (SHELVED_OFFLOADED), with a fault."""
        self.clean_up_guest(context, instance)
        compute_utils.add_instance_fault_from_exc(context, instance, exc, self.host)
        mark_offloaded(instance)
        instance.vm_state = machine.UNSHELVE.failure
        instance.save()

    def _unshelve(self, context, instance, image, node) -> None:
        compute_node = self.compute.rt.compute_nodes.get(node) if node else None
        instance.host = self.host
        instance.node = node or self.host
        if compute_node is not None:
            instance.compute_id = compute_node.id
        instance.task_state = task_states.SPAWNING
        instance.save(expected_task_state=machine.UNSHELVE.task_state)
        allocations = self.allocations(context, instance)
        # The guest's disk comes from the shelved image; the server keeps
        # saying which image it was booted from.
        original_image_ref = instance.image_ref
        instance.image_ref = image["id"]
        try:
            self.driver.spawn(
                context,
                instance,
                objects.ImageMeta.from_dict(image),
                [],
                None,
                allocations,
                network_info=[],
            )
        finally:
            instance.image_ref = original_image_ref
        forget_shelved_image(context, instance)
        self.finish(instance, machine.UNSHELVE, expected=[task_states.SPAWNING])
        LOG.info("Instance %s is unshelved on %s", instance.uuid, self.host)

    def poll_shelved_instances(self, context) -> None:
        """Offload the instances shelved longer than
        ``[DEFAULT] shelved_offload_time`` ago."""
        offload_time = CONF.shelved_offload_time
        if offload_time <= 0:
            return
        now = objects_base.utcnow()
        for instance in self.instances_of_host(context):
            if instance.vm_state != vm_states.SHELVED or instance.task_state:
                continue
            shelved_at = (instance.system_metadata or {}).get("shelved_at")
            if not shelved_at:
                continue
            age = now - datetime.datetime.fromisoformat(shelved_at).replace(tzinfo=None)
            if age.total_seconds() < offload_time:
                continue
            instance.task_state = machine.SHELVE_OFFLOAD.task_state
            try:
                instance.save(expected_task_state=[None])
            except (exception.InstanceNotFound, exception.InstanceInvalidState):
                continue
            LOG.info("Offloading %s: shelved for %s", instance.uuid, age)
            self.shelve_offload_instance(context, instance, clean_shutdown=False)
