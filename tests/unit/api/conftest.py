"""Unit tests of the Compute API layer: no database, no server."""

import pytest
import webob

from nova import context as nova_context
from nova.api.openstack import api_version_request
from nova.api.openstack.request import Request
from nova.conf import CONF


@pytest.fixture(autouse=True, scope="session")
def parsed_conf():
    """oslo.policy reads CONF, which must have parsed (no files)."""
    CONF([], project="nova", default_config_files=[])


def make_request(
    path: str = "/v2.1/servers",
    version: str = "2.1",
    user: str = "user1",
    project: str = "project1",
    roles=("member", "reader"),
    **kwargs,
) -> Request:
    """A request at ``version`` from a caller with ``roles`` on ``project``."""
    req = Request(webob.Request.blank(path, **kwargs).environ)
    req.api_version_request = api_version_request.APIVersionRequest(version)
    context = nova_context.RequestContext(
        user_id=user, project_id=project, roles=list(roles)
    )
    context.is_admin = "admin" in roles
    req.environ["nova.context"] = context
    return req


def admin_request(path: str = "/v2.1/servers", version: str = "2.1", **kwargs):
    return make_request(path, version, user="admin", project="admin",
                        roles=("admin", "member", "reader"), **kwargs)  # fmt: skip
