"""Block storage without a block storage service: no volumes at all.

The volume API (:class:`nova.volume.api.VolumeAPI`) of a deployment with no
Cinder, such as the all-in-one. Every call is refused with
:class:`~nova.exception.VolumeServiceNotConfigured`, a 400 the user can
read, as the compute API refuses volume devices in a create today.
"""

from __future__ import annotations

from typing import Any, NoReturn

from nova import exception


def _refuse() -> NoReturn:
    raise exception.VolumeServiceNotConfigured()


class LocalVolumeAPI:
    """Refuses every volume operation: there is no block storage."""

    def get(
        self, context, volume_id: str, microversion: str | None = None
    ) -> dict[str, Any]:
        _refuse()

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
    ) -> dict[str, Any]:
        _refuse()

    def delete(self, context, volume_id: str) -> None:
        _refuse()

    def attachment_create(
        self,
        context,
        volume_id: str,
        instance_id: str,
        connector: dict[str, Any] | None = None,
        mountpoint: str | None = None,
    ) -> dict[str, Any]:
        _refuse()

    def attachment_get(self, context, attachment_id: str) -> dict[str, Any]:
        _refuse()

    def attachment_update(
        self,
        context,
        attachment_id: str,
        connector: dict[str, Any],
        mountpoint: str | None = None,
    ) -> dict[str, Any]:
        _refuse()

    def attachment_complete(self, context, attachment_id: str) -> None:
        _refuse()

    def attachment_delete(self, context, attachment_id: str) -> None:
        _refuse()

    def begin_detaching(self, context, volume_id: str) -> None:
        _refuse()

    def roll_detaching(self, context, volume_id: str) -> None:
        _refuse()
