"""Hot-plugging ports into and out of a guest (``os-interface``).

An attach is a call: the API waits for the new VIF. The port is taken in
Neutron (bound to this host) before the driver plugs it; if the driver
fails, the port is given back, so a failed attach leaves nothing behind.
A detach is a cast: the driver unplugs the VIF, then the port is given back
(deleted if nova made it, unbound if the user brought it). Both keep the
instance's info cache to what Neutron has, and end the task they ran in.
"""

from __future__ import annotations

from oslo_log import log as logging

from nova import exception, objects
from nova.compute import snapshot
from nova.compute import utils as compute_utils
from nova.compute.flows import base
from nova.network import model
from nova.notifications import instance as notify
from nova.states import machine

LOG = logging.getLogger(__name__)


class InterfacesFlow(base.Flow):
    """attach_interface and detach_interface."""

    def attach_interface(
        self, context, instance, network_id, port_id, requested_ip, tag=None
    ) -> model.VIF:
        transition = machine.ATTACH_INTERFACE
        network_api = self.compute.network_api
        with self.compute.instance_lock(instance.uuid):
            try:
                with (
                    compute_utils.EventReporter(
                        context, "compute_attach_interface", self.host, instance.uuid
                    ),
                    notify.action(context, instance, self.host, "interface_attach"),
                ):
                    vif, network_info = network_api.allocate_port_for_instance(
                        context,
                        instance,
                        port_id=port_id,
                        network_id=network_id,
                        requested_ip=requested_ip,
                        bind_host_id=self.host,
                    )
                    if tag:
                        vif["meta"]["tag"] = tag
                    try:
                        self.driver.attach_interface(
                            context, instance, self._image_meta(instance), vif
                        )
                    except BaseException as exc:
                        self._give_back(context, instance, vif["id"])
                        if isinstance(exc, NotImplementedError):
                            raise exception.AttachInterfaceNotSupported(
                                instance_uuid=instance.uuid
                            ) from exc
                        if isinstance(exc, exception.NovaException):
                            raise
                        LOG.exception(
                            "Attaching %s to %s failed", vif["id"], instance.uuid
                        )
                        raise exception.InterfaceAttachFailed(
                            instance_uuid=instance.uuid
                        ) from exc
                    for existing in network_info:
                        if existing["id"] == vif["id"]:
                            existing["meta"].update(vif["meta"])
                    self._save_cache(context, instance, network_info)
                    LOG.info("Attached port %s to %s", vif["id"], instance.uuid)
                    return vif
            finally:
                self._end_task(instance, transition)

    def detach_interface(self, context, instance, port_id: str) -> None:
        transition = machine.DETACH_INTERFACE
        with self.action(
            context, instance, "detach_interface", transition, notify="interface_detach"
        ):
            cache = objects.InstanceInfoCache.get_by_instance_uuid(
                context, instance.uuid
            )
            instance.info_cache = cache
            vif = self._vif(cache.network_info, port_id)
            if vif is None:
                # The cache may lag behind Neutron (a lost network-changed).
                vif = self._vif(
                    self.compute.network_api.get_instance_nw_info(context, instance),
                    port_id,
                )
            if vif is None:
                raise exception.PortNotFound(port_id=port_id)
            try:
                self.driver.detach_interface(context, instance, vif)
            except NotImplementedError as exc:
                raise exception.InterfaceDetachFailed(
                    instance_uuid=instance.uuid
                ) from exc
            network_info = self.compute.network_api.deallocate_port_for_instance(
                context, instance, port_id
            )
            self._save_cache(context, instance, network_info)
            self.finish(instance, transition)
            LOG.info("Detached port %s from %s", port_id, instance.uuid)

    # -- steps ------------------------------------------------------------------

    @staticmethod
    def _vif(network_info, port_id: str):
        return next((vif for vif in network_info or () if vif["id"] == port_id), None)

    @staticmethod
    def _image_meta(instance):
        """The image the guest was built from, as the instance remembers it
        (its NIC model, ``hw_vif_model``, is the driver's concern)."""
        return objects.ImageMeta.from_dict(
            {
                "id": instance.image_ref or None,
                **snapshot.image_meta_from_system_metadata(instance.system_metadata),
            }
        )

    def _give_back(self, context, instance, port_id: str) -> None:
        try:
            self.compute.network_api.deallocate_port_for_instance(
                context, instance, port_id
            )
        except Exception:  # the attach's own error is what the user sees
            LOG.exception("Could not give back port %s of %s", port_id, instance.uuid)

    @staticmethod
    def _save_cache(context, instance, network_info) -> None:
        cache = objects.InstanceInfoCache.get_by_instance_uuid(context, instance.uuid)
        cache.network_info = network_info
        cache.save()
        instance.info_cache = cache

    @staticmethod
    def _end_task(instance, transition: machine.Transition) -> None:
        try:
            instance.task_state = None
            instance.save(expected_task_state=list(transition.running))
        except (exception.InstanceNotFound, exception.InstanceInvalidState):
            LOG.info("Instance %s changed during %s", instance.uuid, transition.action)
