"""Checking with Keystone that a project named in a request exists.

Upstream asks Keystone before it shows or sets a project's quotas and
before it grants or revokes flavor access, so that a typo does not quietly
create limits for a project nobody has. The question is asked with the
caller's own token through ``[keystone]``'s endpoint selection, and answered
as upstream does: a 404 from Keystone is a 400; a caller Keystone will not
answer (403), or a Keystone that cannot be reached, lets the request go on.
"""

from __future__ import annotations

import logging
from urllib.parse import quote

from keystoneauth1 import exceptions as ks_exceptions
from keystoneauth1 import loading as ks_loading

import nova.conf
from nova import exception

LOG = logging.getLogger(__name__)
CONF = nova.conf.CONF


def _identity_adapter(auth):
    session = ks_loading.load_session_from_conf_options(CONF, "keystone")
    return ks_loading.load_adapter_from_conf_options(
        CONF,
        "keystone",
        session=session,
        auth=auth,
        min_version=(3, 0),
        max_version=(3, "latest"),
    )


def verify_project_id(context, project_id: str) -> None:
    """Refuse ``project_id`` if Keystone says there is no such project.

    Under ``[api] auth_strategy = noauth2`` there is no Keystone and no
    token to ask with: nothing is checked.

    :raises ProjectNotFoundInKeystone: Keystone answered 404.
    :raises IdentityEndpointNotFound: no identity endpoint in the catalog.
    """
    auth = getattr(context, "user_auth_plugin", None)
    if auth is None:
        return
    try:
        response = _identity_adapter(auth).get(
            f"/projects/{quote(project_id, safe='')}", raise_exc=False
        )
    except ks_exceptions.EndpointNotFound as exc:
        LOG.error(
            "No Keystone identity v3 endpoint was found: check [keystone] "
            "and the service catalog"
        )
        raise exception.IdentityEndpointNotFound() from exc
    except ks_exceptions.ClientException as exc:
        LOG.info("Unable to contact Keystone to verify project_id: %s", exc)
        return
    if response.ok:
        return
    if response.status_code == 404:
        raise exception.ProjectNotFoundInKeystone(project_id=project_id)
    if response.status_code == 403:
        LOG.info(
            "User %s may not read project %s in Keystone; taking it as valid",
            context.user_id,
            project_id,
        )
        return
    LOG.warning(
        "Unexpected answer %s from Keystone verifying project %s; taking it as valid",
        response.status_code,
        project_id,
    )
