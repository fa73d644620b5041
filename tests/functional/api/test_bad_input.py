"""Bad input to the key pair, quota, limits and flavor extra spec APIs is a
4xx fault, never a 500, and writes nothing."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from nova.db import engines
from nova.db.api import models as api_models
from tests.functional.api.conftest import ADMIN

BODIES = [
    "not json",
    "[]",
    "null",
    '"a string"',
    "{}",
    '{"wrong": {}}',
]

ENDPOINTS = [
    ("POST", "/v2.1/os-keypairs"),
    ("PUT", "/v2.1/os-quota-sets/demo"),
    ("PUT", "/v2.1/os-quota-class-sets/default"),
    ("POST", "/v2.1/flavors/1/os-extra_specs"),
    ("PUT", "/v2.1/flavors/1/os-extra_specs/key"),
    ("POST", "/v2.1/flavors/1/action"),
]


def _rows(url: str) -> int:
    with engines.transaction(url) as session:
        return sum(
            session.scalar(sa.select(sa.func.count()).select_from(model))
            for model in (
                api_models.KeyPair,
                api_models.Quota,
                api_models.QuotaClass,
                api_models.FlavorExtraSpecs,
                api_models.FlavorProjects,
            )
        )


@pytest.mark.parametrize("method, path", ENDPOINTS)
def test_malformed_bodies_are_400(api, nova_conf, flavor, method, path):
    for body in BODIES:
        response = api.request(
            method,
            path,
            token=ADMIN,
            data=body,
            headers={"Content-Type": "application/json"},
        )
        assert response.status_code == 400, (body, response.text)
        assert response.json()["badRequest"]["code"] == 400
    assert _rows(nova_conf["urls"]["api"]) == 0


@pytest.mark.parametrize(
    "path",
    [
        "/v2.1/os-keypairs?limit=-1",
        "/v2.1/os-keypairs?limit=abc",
        "/v2.1/os-keypairs?marker=nope",
        "/v2.1/limits?bogus=1",
        "/v2.1/os-quota-sets/demo?bogus=1",
    ],
)
def test_bad_query_strings_are_400_at_2_75(api, nova_conf, path):
    assert api.get(path, version="2.75").status_code == 400
