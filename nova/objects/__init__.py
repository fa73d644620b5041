"""Nova's versioned objects.

Registering a class publishes it here (``nova.objects.Instance``);
:func:`register_all` imports every object module so that happens.
"""

# Imported before oslo.versionedobjects (and through it oslo.messaging) so
# that oslo.service settles on native threads, never eventlet.
import nova.conf  # noqa: F401

OBJECT_MODULES = (
    "aggregate",
    "block_device",
    "build_parameters",
    "build_request",
    "cell_mapping",
    "compute_node",
    "console_auth_token",
    "flavor",
    "host_mapping",
    "image_meta",
    "instance",
    "instance_action",
    "instance_fault",
    "instance_group",
    "instance_info_cache",
    "instance_mapping",
    "keypair",
    "migration",
    "quotas",
    "request_spec",
    "selection",
    "service",
    "tag",
    "task_log",
)


def register_all() -> None:
    """Import every object module, registering all object classes."""
    import importlib

    for name in OBJECT_MODULES:
        importlib.import_module(f"nova.objects.{name}")
