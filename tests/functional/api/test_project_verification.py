"""A project named in a quota or flavor access request is checked with the
real Keystone, as upstream does: one Keystone does not know is a 400 and
nothing is written."""

from __future__ import annotations

import uuid

import pytest
import sqlalchemy as sa

from nova.db import engines
from nova.db.api import models as api_models
from tests.functional.api.conftest import fault
from tests.functional.api.test_keystone import keystone_api  # noqa: F401

pytestmark = pytest.mark.parametrize("cloud_databases", ["sqlite"], indirect=True)


def _quota_rows(cloud) -> int:
    with engines.get_engine(cloud["urls"]["api"]).connect() as conn:
        return conn.scalar(sa.select(sa.func.count()).select_from(api_models.Quota))


def test_quotas_of_a_project_keystone_does_not_know_are_refused(
    keystone_api,  # noqa: F811
    openstack_services,
    nova_conf,
):
    admin = openstack_services.session(openstack_services.admin)
    token = admin.get_token()
    demo_project = openstack_services.session(openstack_services.demo).get_project_id()
    nobody = uuid.uuid4().hex
    expected = ("badRequest", 400, f"Project ID {nobody} is not a valid project.")

    body = {"quota_set": {"cores": 7}}
    url = f"/v2.1/os-quota-sets/{nobody}"
    assert fault(keystone_api.put(url, body, token=token)) == expected
    assert fault(keystone_api.get(url, token=token)) == expected
    assert fault(keystone_api.get(f"{url}/detail", token=token)) == expected
    assert fault(keystone_api.get(f"{url}/defaults", token=token)) == expected
    assert _quota_rows(nova_conf) == 0

    known = keystone_api.put(f"/v2.1/os-quota-sets/{demo_project}", body, token=token)
    assert known.status_code == 200, known.text
    assert known.json()["quota_set"]["cores"] == 7
    assert _quota_rows(nova_conf) == 1


def test_flavor_access_for_a_project_keystone_does_not_know_is_refused(
    keystone_api,  # noqa: F811
    openstack_services,
    nova_conf,
):
    token = openstack_services.session(openstack_services.admin).get_token()
    body = {
        "flavor": {
            "name": "private",
            "id": "private",
            "ram": 64,
            "vcpus": 1,
            "disk": 1,
            "os-flavor-access:is_public": False,
        }
    }
    assert keystone_api.post("/v2.1/flavors", body, token=token).status_code == 200
    nobody = uuid.uuid4().hex
    action = "/v2.1/flavors/private/action"
    add = {"addTenantAccess": {"tenant": nobody}}
    assert fault(keystone_api.post(action, add, token=token))[:2] == ("badRequest", 400)
    access = keystone_api.get("/v2.1/flavors/private/os-flavor-access", token=token)
    assert access.json() == {"flavor_access": []}
