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
    console_auth_tokens,
    extended_server_attributes,
    flavor_access,
    flavor_extra_specs,
    flavor_manage,
    remote_consoles,
    server_password,
    servers,
    services,
)


def list_rules():
    return list(
        itertools.chain(
            base.list_rules(),
            console_auth_tokens.list_rules(),
            availability_zone.list_rules(),
            extended_server_attributes.list_rules(),
            flavor_access.list_rules(),
            flavor_extra_specs.list_rules(),
            flavor_manage.list_rules(),
            remote_consoles.list_rules(),
            server_password.list_rules(),
            servers.list_rules(),
            services.list_rules(),
        )
    )
