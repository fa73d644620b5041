"""The interface nova's services use to read images.

Glance is the implementation for a real cloud; the all-in-one can provide
one reading a local image directory instead. Callers get an image as a dict
in nova's internal format::

    {"id": ..., "name": ..., "status": "active", "min_ram": 0, "min_disk": 0,
     "size": ..., "disk_format": "qcow2", "container_format": "bare",
     "owner": ..., "visibility": "public", "created_at": ..., ...,
     "properties": {"hw_disk_bus": "virtio", ...}}

with every custom image property under ``properties``.

:class:`ImageAPI` is a protocol: an implementation (:mod:`nova.image.glance`)
has its methods without importing this module, so this module can import
it to choose it and no import circle forms.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

ImageDict = dict[str, Any]


@runtime_checkable
class ImageAPI(Protocol):
    """Reads and writes image metadata and data on a user's behalf."""

    def show(self, context, image_id: str) -> ImageDict:
        """The image ``image_id`` as ``context`` may see it.

        :raises ImageNotFound: it does not exist or is not visible to them.
        :raises ImageServiceUnavailable: the image service cannot be reached.
        """
        ...

    def download(self, context, image_id: str, dst_path: str) -> None:
        """Write the image's data into the file ``dst_path``.

        :raises ImageNotFound: it does not exist or is not visible to them.
        :raises ImageDownloadFailed: the data could not be read or written.
        """
        ...

    def create(self, context, image_meta: ImageDict) -> ImageDict:
        """A new image record (no data yet) from ``image_meta``, in nova's
        format; keys the image service sets itself are left out.

        :raises ImageNotAuthorized: the image service refused (403).
        :raises ImageBadRequest: it found the metadata invalid.
        """
        ...

    def upload(self, context, image_id: str, data) -> None:
        """Store ``data`` (a file object or an iterator of bytes) as the
        image's data; the image becomes active.

        :raises ImageUploadFailed: the data could not be sent.
        """
        ...

    def update(self, context, image_id: str, changes: dict[str, Any]) -> ImageDict:
        """Set attributes and properties (a None value removes one)."""
        ...

    def delete(self, context, image_id: str) -> None:
        """:raises ImageNotFound: / :raises ImageNotAuthorized:"""
        ...

    def get_all(
        self, context, filters: dict[str, Any] | None = None
    ) -> list[ImageDict]:
        """The images ``context`` may see, filtered as the image service
        filters (``limit``, ``marker``, ``name``, ``status``, ...)."""
        ...


def get_image_api() -> ImageAPI:
    """The configured image API (Glance)."""
    from nova.image import glance

    return glance.GlanceImageAPI()
