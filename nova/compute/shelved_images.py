"""The image a shelve made, as its instance remembers it: the compute
forgets it when the server is unshelved, the compute API when the server
is deleted."""

from __future__ import annotations

from oslo_log import log as logging

from nova import exception
from nova.image import api as image_api

LOG = logging.getLogger(__name__)

# System metadata of a shelved instance, gone once it is unshelved.
SHELVED_KEYS = ("shelved_at", "shelved_image_id", "shelved_host")


def forget_shelved_image(context, instance) -> None:
    """Delete the image a shelve made and the system metadata naming it
    (the caller saves the instance)."""
    sysmeta = dict(instance.system_metadata or {})
    image_id = sysmeta.get("shelved_image_id")
    if not image_id:
        return
    try:
        image_api.get_image_api().delete(context, image_id)
    except exception.ImageNotFound:
        pass
    except Exception:  # the server is back or gone; the image is only litter
        LOG.exception("Could not delete the shelved image %s", image_id)
    for key in SHELVED_KEYS:
        sysmeta.pop(key, None)
    instance.system_metadata = sysmeta
