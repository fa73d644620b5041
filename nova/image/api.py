"""The interface nova's services use to read images.

Glance is the implementation for a real cloud; the all-in-one can provide
one reading a local image directory instead. Callers get an image as a dict
in nova's internal format::

    {"id": ..., "name": ..., "status": "active", "min_ram": 0, "min_disk": 0,
     "size": ..., "disk_format": "qcow2", "container_format": "bare",
     "owner": ..., "visibility": "public", "created_at": ..., ...,
     "properties": {"hw_disk_bus": "virtio", ...}}

with every custom image property under ``properties``.
"""

from __future__ import annotations

import abc
from typing import Any

ImageDict = dict[str, Any]


class ImageAPI(abc.ABC):
    """Reads image metadata on a user's behalf."""

    @abc.abstractmethod
    def show(self, context, image_id: str) -> ImageDict:
        """The image ``image_id`` as ``context`` may see it.

        :raises ImageNotFound: it does not exist or is not visible to them.
        :raises ImageServiceUnavailable: the image service cannot be reached.
        """

    def download(self, context, image_id: str, dst_path: str) -> None:
        """Write the image's data into the file ``dst_path``.

        :raises ImageNotFound: it does not exist or is not visible to them.
        :raises ImageDownloadFailed: the data could not be read or written.
        """
        raise NotImplementedError()

    def create(self, context, image_meta: ImageDict) -> ImageDict:
        """A new image record (no data yet) from ``image_meta``, in nova's
        format; keys the image service sets itself are left out.

        :raises ImageNotAuthorized: the image service refused (403).
        :raises ImageBadRequest: it found the metadata invalid.
        """
        raise NotImplementedError()

    def upload(self, context, image_id: str, data) -> None:
        """Store ``data`` (a file object or an iterator of bytes) as the
        image's data; the image becomes active.

        :raises ImageUploadFailed: the data could not be sent.
        """
        raise NotImplementedError()

    def update(self, context, image_id: str, changes: dict[str, Any]) -> ImageDict:
        """Set attributes and properties (a None value removes one)."""
        raise NotImplementedError()

    def delete(self, context, image_id: str) -> None:
        """:raises ImageNotFound: / :raises ImageNotAuthorized:"""
        raise NotImplementedError()

    def get_all(
        self, context, filters: dict[str, Any] | None = None
    ) -> list[ImageDict]:
        """The images ``context`` may see, filtered as the image service
        filters (``limit``, ``marker``, ``name``, ``status``, ...)."""
        raise NotImplementedError()


def get_image_api() -> ImageAPI:
    """The configured image API (Glance)."""
    from nova.image import glance

    return glance.GlanceImageAPI()
