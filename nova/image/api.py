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


def get_image_api() -> ImageAPI:
    """The configured image API (Glance)."""
    from nova.image import glance

    return glance.GlanceImageAPI()
