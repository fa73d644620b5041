"""Entry points for oslo-config-generator (namespace ``nova.conf``).

``list_opts`` lists nova's groups only; oslo.log, oslo.messaging,
keystonemiddleware … document their own options under their own
namespaces (see etc/nova/nova-config-generator.conf).
"""

import oslo_messaging
from oslo_config import cfg
from oslo_log import log

import nova.conf
from nova.conf import log_levels


def list_opts() -> list[tuple[cfg.OptGroup | str, list[cfg.Opt]]]:
    """Every nova option, as ``(group, options)`` pairs sorted by group
    name with ``DEFAULT`` first."""
    groups: dict[str, tuple[cfg.OptGroup | str, list[cfg.Opt]]] = {}
    for module in nova.conf.GROUP_MODULES:
        for group, opts in module.list_opts().items():
            name = getattr(group, "name", group)
            if name in groups:
                groups[name][1].extend(opts)
            else:
                groups[name] = (group, list(opts))
    return [groups[name] for name in sorted(groups, key=lambda n: (n != "DEFAULT", n))]


def update_defaults() -> None:
    """Give library options nova's defaults before the sample is written:
    nova's quieter log levels and its RPC exchange."""
    log.set_defaults(default_log_levels=log_levels.default_log_levels())
    oslo_messaging.set_transport_defaults(control_exchange=nova.conf.CONTROL_EXCHANGE)
