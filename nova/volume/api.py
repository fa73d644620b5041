"""The interface nova's services use for block storage.

Cinder's attachments API (microversion 3.44, which added
``attachment_complete``), in upstream's names, as a build, an attach, a
detach and a delete use it:

- attach (and a build's volume devices): the compute API reserves the
  volume for the instance (:meth:`VolumeAPI.attachment_create` without a
  connector); the compute manager connects it to its host
  (:meth:`VolumeAPI.attachment_update` with the virt driver's
  ``get_volume_connector()``), gives the virt driver the connection info
  (``block_device_info`` at spawn, ``attach_volume`` later), then marks it
  in use (:meth:`VolumeAPI.attachment_complete`);
- a build's blank, image and snapshot volume devices are made first
  (:meth:`VolumeAPI.create`);
- detach: the compute API marks the volume detaching
  (:meth:`VolumeAPI.begin_detaching`, undone by
  :meth:`VolumeAPI.roll_detaching` if the detach fails); the compute
  manager disconnects it (virt ``detach_volume``) and drops the attachment
  (:meth:`VolumeAPI.attachment_delete`);
- delete: every attachment is dropped, and volumes marked
  ``delete_on_termination`` are deleted (:meth:`VolumeAPI.delete`).

A volume is a dict of the Cinder volume's fields (``id``, ``status``,
``size``, ``availability_zone``, ``multiattach``, ``attachments``, ...). An
attachment is a dict with ``id``, ``volume_id``, ``instance`` (its uuid),
``status``, ``attach_mode`` and ``connection_info`` (what the virt driver
connects with; empty while the attachment is only reserved).

:func:`get_volume_api` chooses the implementation: the Cinder client
:mod:`nova.volume.cinder` (a keystoneauth1 adapter built from ``[cinder]``,
Cinder's errors turned into nova exceptions) when ``[cinder]`` is
configured, else :mod:`nova.volume.local`: no block storage service, every
call refused with :class:`~nova.exception.VolumeServiceNotConfigured`
(400).

:class:`VolumeAPI` is a protocol, as :class:`nova.image.api.ImageAPI` is:
implementations do not import this module, which imports them.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

VolumeDict = dict[str, Any]
AttachmentDict = dict[str, Any]


@runtime_checkable
class VolumeAPI(Protocol):
    """Creates, attaches, detaches and deletes volumes on a user's behalf."""

    def get(
        self, context, volume_id: str, microversion: str | None = None
    ) -> VolumeDict:
        """The volume ``volume_id`` as ``context``'s user may see it, read
        with Cinder's ``microversion`` if one is given."""
        ...

    def create(
        self,
        context,
        size: int,
        name: str | None,
        description: str | None,
        snapshot: dict[str, Any] | None = None,
        image_id: str | None = None,
        volume_type: str | None = None,
        metadata: dict[str, str] | None = None,
        availability_zone: str | None = None,
    ) -> VolumeDict:
        """A new volume of ``size`` GiB: blank, or made from ``snapshot`` or
        from the image ``image_id``. It is ``creating`` until the block
        storage service has made it ``available``."""
        ...

    def delete(self, context, volume_id: str) -> None:
        """Delete the volume (one no instance has attached)."""
        ...

    def attachment_create(
        self,
        context,
        volume_id: str,
        instance_id: str,
        connector: dict[str, Any] | None = None,
        mountpoint: str | None = None,
    ) -> AttachmentDict:
        """Reserve the volume for the instance ``instance_id`` (its uuid).

        Without ``connector`` the attachment is only reserved; with one (a
        host's, from the virt driver's ``get_volume_connector``) it is also
        connected to that host at ``mountpoint`` (``/dev/vdb``).
        """
        ...

    def attachment_get(self, context, attachment_id: str) -> AttachmentDict:
        """The attachment ``attachment_id``."""
        ...

    def attachment_update(
        self,
        context,
        attachment_id: str,
        connector: dict[str, Any],
        mountpoint: str | None = None,
    ) -> AttachmentDict:
        """Connect a reserved attachment to the host ``connector`` describes.

        :returns: the attachment with the ``connection_info`` the virt
            driver attaches the volume with.
        """
        ...

    def attachment_complete(self, context, attachment_id: str) -> None:
        """Tell the block storage service the host has connected the
        volume: it becomes ``in-use``."""
        ...

    def attachment_delete(self, context, attachment_id: str) -> None:
        """Disconnect and drop the attachment; a volume left without one
        becomes ``available``."""
        ...

    def begin_detaching(self, context, volume_id: str) -> None:
        """Mark the volume ``detaching`` before its host disconnects it."""
        ...

    def roll_detaching(self, context, volume_id: str) -> None:
        """Undo :meth:`begin_detaching` after a failed detach: the volume
        is ``in-use`` again."""
        ...


def get_volume_api() -> VolumeAPI:
    """The volume API of this deployment: Cinder
    (:class:`nova.volume.cinder.CinderVolumeAPI`) when ``[cinder]`` names
    credentials or an endpoint, else
    :class:`nova.volume.local.LocalVolumeAPI`, which refuses everything."""
    import nova.conf

    conf = nova.conf.CONF
    if conf.cinder.auth_type or conf.cinder.endpoint_template:
        from nova.volume import cinder

        return cinder.CinderVolumeAPI()
    from nova.volume import local

    return local.LocalVolumeAPI()
