"""Removal of cached images no guest on this host uses any more.

An image stays in the cache while an instance of this host uses it (as its
root disk's base, its kernel or its ramdisk), and for
``[image_cache] remove_unused_original_minimum_age_seconds`` after its last
use, so a server deleted and created again soon does not download it again.
"""

from __future__ import annotations

import os
import time

from oslo_log import log as logging

import nova.conf
from nova.virt.libvirt import imagebackend

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)


def images_in_use(instances) -> set[str]:
    """Cache file names of the images ``instances`` boot from."""
    names = set()
    for instance in instances:
        for image_id in (instance.image_ref, instance.kernel_id, instance.ramdisk_id):
            if image_id:
                names.add(imagebackend.base_name(image_id))
    return names


class ImageCacheManager:
    """Removes unused images from an :class:`~.imagebackend.ImageCache`."""

    def __init__(self, cache: imagebackend.ImageCache) -> None:
        self.cache = cache

    def update(self, instances) -> list[str]:
        """Remove the images none of ``instances`` (all the instances of
        this host) uses and unused for long enough; the names removed."""
        if not CONF.image_cache.remove_unused_base_images:
            return []
        in_use = images_in_use(instances)
        minimum_age = CONF.image_cache.remove_unused_original_minimum_age_seconds
        removed = []
        for name in self.cache.cached_names():
            if name in in_use:
                continue
            path = os.path.join(self.cache.path, name)
            with self.cache.locked(name):
                try:
                    age = time.time() - os.stat(path).st_mtime
                except FileNotFoundError:
                    continue
                if age < minimum_age:
                    LOG.debug("Unused image %s is only %d s old", name, age)
                    continue
                LOG.info("Removing unused cached image %s (%d s unused)", path, age)
                os.unlink(path)
                removed.append(name)
        return removed
