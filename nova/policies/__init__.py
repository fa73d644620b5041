"""Default policy rules, in code, with upstream's rule names and personas.

Each module lists the rules of one API; :func:`list_rules` is what the
enforcer registers and what ``oslopolicy-sample-generator`` (``tox -e
genpolicy``) writes into ``etc/nova/policy.yaml.sample``. Operators
override any rule in ``policy.yaml``.
"""

import itertools

from nova.policies import (
    availability_zone,
    base,
    console_output,
    extended_server_attributes,
    flavor_access,
    flavor_extra_specs,
    flavor_manage,
    pause_server,
    servers,
    services,
    suspend_server,
)


def list_rules():
    return list(
        itertools.chain(
            base.list_rules(),
            console_output.list_rules(),
            availability_zone.list_rules(),
            extended_server_attributes.list_rules(),
            flavor_access.list_rules(),
            flavor_extra_specs.list_rules(),
            flavor_manage.list_rules(),
            pause_server.list_rules(),
            servers.list_rules(),
            services.list_rules(),
            suspend_server.list_rules(),
        )
    )
