"""``[image_cache]``: the compute host's cache of base images."""

from oslo_config import cfg

image_cache_group = cfg.OptGroup(
    "image_cache",
    title="Image cache options",
    help="Where a compute host caches the base images instance disks are "
    "created from, and when it removes unused ones.",
)

image_cache_opts = [
    cfg.IntOpt(
        "manager_interval",
        default=2400,
        min=-1,
        deprecated_name="image_cache_manager_interval",
        deprecated_group="DEFAULT",
        help="Seconds between two runs of the image cache manager. 0 uses "
        "the periodic task default, -1 disables it.",
    ),
    cfg.StrOpt(
        "subdirectory_name",
        default="_base",
        deprecated_name="image_cache_subdirectory_name",
        deprecated_group="DEFAULT",
        help="Directory of the cache, relative to ``instances_path``.",
    ),
    cfg.BoolOpt(
        "remove_unused_base_images",
        default=True,
        deprecated_group="DEFAULT",
        help="Remove cached base images no instance uses any more.",
    ),
    cfg.IntOpt(
        "remove_unused_original_minimum_age_seconds",
        default=24 * 3600,
        deprecated_group="DEFAULT",
        help="Seconds an unused original base image is kept.",
    ),
    cfg.IntOpt(
        "remove_unused_resized_minimum_age_seconds",
        default=3600,
        deprecated_group="libvirt",
        help="Seconds an unused resized base image is kept.",
    ),
    cfg.IntOpt(
        "precache_concurrency",
        default=1,
        min=1,
        help="Most images one compute host downloads at once when images "
        "are pre-cached through an aggregate.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_group(image_cache_group)
    conf.register_opts(image_cache_opts, group=image_cache_group)


def list_opts() -> dict:
    return {image_cache_group: image_cache_opts}
