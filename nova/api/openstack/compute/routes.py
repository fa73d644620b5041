"""The Compute API in one table: URL template -> {HTTP method: handler}.

Templates are absolute paths below the API's root URL. The version
documents are public; everything else is behind authentication. Handlers
under ``/v2.1`` are also reachable as ``/v2.1/{project_id}/...``.
"""

from nova.api.openstack.compute import (
    availability_zone,
    console_auth_tokens,
    flavors,
    remote_consoles,
    server_password,
    servers,
    services,
    versions,
)
from nova.api.openstack.links import API_PREFIX as V21

ROUTES = {
    "/": {"GET": versions.index},
    "/v2": {"GET": versions.show_v2_0},
    V21: {"GET": versions.show_v2_1},
    f"{V21}/flavors": {"GET": flavors.index, "POST": flavors.create},
    f"{V21}/flavors/detail": {"GET": flavors.detail},
    f"{V21}/flavors/{{flavor_id}}": {
        "GET": flavors.show,
        "PUT": flavors.update,
        "DELETE": flavors.delete,
    },
    f"{V21}/os-availability-zone": {"GET": availability_zone.index},
    f"{V21}/os-console-auth-tokens/{{console_token}}": {
        "GET": console_auth_tokens.show,
        "DELETE": console_auth_tokens.delete,
    },
    f"{V21}/os-services": {"GET": services.index},
    f"{V21}/servers": {"GET": servers.index, "POST": servers.create},
    f"{V21}/servers/detail": {"GET": servers.detail},
    f"{V21}/servers/{{server_id}}": {
        "GET": servers.show,
        "PUT": servers.update,
        "DELETE": servers.delete,
    },
    f"{V21}/servers/{{server_id}}/os-server-password": {
        "GET": server_password.show,
        "DELETE": server_password.clear,
    },
    f"{V21}/servers/{{server_id}}/remote-consoles": {"POST": remote_consoles.create},
}

# Served without a token: clients discover the API before authenticating.
PUBLIC_PATHS = frozenset({"/", "/v2", V21})
