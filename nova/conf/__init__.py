"""Nova's configuration: ``CONF`` with every nova option registered.

Each option group has its own module (``nova/conf/<group>.py``) with a
``register_opts(conf)`` and a ``list_opts()``. Group and option names follow
upstream Nova so that an existing nova.conf loads unchanged; options nova
does not act on yet are registered all the same and simply ignored.

oslo.messaging's ``[DEFAULT]`` options (``transport_url``,
``rpc_response_timeout``, ``control_exchange`` …) are registered here too,
as oslo.messaging's own option objects, so they are readable from ``CONF``
before any transport is created. oslo.log's options are registered by
``nova.config.parse_args``.
"""

import importlib

from oslo_service import backend as oslo_service_backend

# Importing oslo.messaging makes oslo.service pick its concurrency backend,
# eventlet unless told otherwise, and the choice cannot be changed later in
# the process. nova runs on native threads, and this package is the first to
# import oslo.messaging in every nova process, so it states that choice here
# (a process that already chose explicitly keeps its choice).
oslo_service_backend.register_backend_default_hook(
    lambda: oslo_service_backend.BackendType.THREADING
)

import oslo_messaging  # noqa: E402
from oslo_config import cfg  # noqa: E402
from oslo_messaging import opts as messaging_opts  # noqa: E402

CONF = cfg.CONF

# One module per option group (``default`` holds ``[DEFAULT]``).
GROUP_MODULES = tuple(
    importlib.import_module(f"nova.conf.{name}")
    for name in (
        "default",
        "api",
        "api_database",
        "cinder",
        "compute",
        "conductor",
        "console",
        "consoleauth",
        "database",
        "devices",
        "fake_driver",
        "filter_scheduler",
        "glance",
        "image_cache",
        "keystone",
        "libvirt",
        "metrics",
        "neutron",
        "notifications",
        "novnc",
        "os_vif_ovs",
        "pci",
        "placement",
        "quota",
        "scheduler",
        "serial_console",
        "service_user",
        "spice",
        "upgrade_levels",
        "vendordata_dynamic_auth",
        "vnc",
        "workarounds",
        "wsgi",
    )
)

# nova's default for oslo.messaging's control_exchange: the exchange its RPC
# topics live under, named as upstream Nova names it.
CONTROL_EXCHANGE = "nova"


def register_messaging_opts(conf: cfg.ConfigOpts) -> None:
    """Register oslo.messaging's ``[DEFAULT]`` options with nova's exchange.

    The defaults are set before registering so that oslo.messaging's own
    later registration of the same options sees identical ones.
    """
    oslo_messaging.set_transport_defaults(control_exchange=CONTROL_EXCHANGE)
    for group, opts in messaging_opts.list_opts():
        if group is None:
            conf.register_opts(opts)


def register_all(conf: cfg.ConfigOpts) -> None:
    """Register every nova option group, plus oslo.messaging's transport
    options, on ``conf``."""
    for module in GROUP_MODULES:
        module.register_opts(conf)
    register_messaging_opts(conf)


register_all(CONF)
