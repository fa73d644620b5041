"""The image cache manager removes only unused images old enough."""

import os
import time

import nova.conf
from nova import objects
from nova.virt.libvirt import imagebackend, imagecache

CONF = nova.conf.CONF


def test_removes_unused_images_after_minimum_age(libvirt_driver, make_instance):
    kept = make_instance(kernel_id="kernel-image")
    libvirt_driver.spawn(None, kept, objects.ImageMeta.from_dict({}), [], None, {})
    cache = libvirt_driver.image_cache
    unused = os.path.join(cache.path, imagebackend.base_name("old-image"))
    recent = os.path.join(cache.path, imagebackend.base_name("recent-image"))
    for path in (unused, recent):
        with open(path, "wb") as image:
            image.write(b"data")
    an_hour_ago = time.time() - 3600
    os.utime(unused, (an_hour_ago, an_hour_ago))
    for name in ("root-image", "kernel-image"):
        os.utime(cache.base_path(name), (an_hour_ago, an_hour_ago))

    CONF.set_override(
        "remove_unused_original_minimum_age_seconds", 600, group="image_cache"
    )
    try:
        removed = libvirt_driver.image_cache_manager.update([kept])
    finally:
        CONF.clear_override(
            "remove_unused_original_minimum_age_seconds", group="image_cache"
        )
    assert removed == [imagebackend.base_name("old-image")]
    assert not os.path.exists(unused)
    assert os.path.exists(recent)
    assert os.path.exists(cache.base_path("root-image"))
    assert os.path.exists(cache.base_path("kernel-image"))
    assert imagecache.images_in_use([kept]) == {
        imagebackend.base_name("root-image"),
        imagebackend.base_name("kernel-image"),
    }
