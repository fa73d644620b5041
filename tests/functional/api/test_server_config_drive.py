"""``config_drive`` on create: one of upstream's boolean spellings, else a
400 that writes nothing and builds nothing."""

from __future__ import annotations

import pytest

from tests.functional.api.conftest import fault
from tests.functional.api.test_servers import _api_rows, _body


@pytest.mark.parametrize("value", ["maybe", "2", 2, [], {"enabled": True}, None])
def test_bad_config_drive_value_is_400(
    api, nova_conf, glance, flavor, conductor, value
):
    response = api.post(
        "/v2.1/servers", _body(glance.active, config_drive=value), version="2.96"
    )
    code, status, message = fault(response)
    assert (code, status) == ("badRequest", 400), response.text
    assert "config_drive" in message
    assert _api_rows(nova_conf) == (0, 0, 0)
    assert conductor.builds == []


def test_upstreams_boolean_spellings_are_accepted(
    api, nova_conf, glance, flavor, conductor
):
    for value in (True, "true", "yes", "1", False, "off"):
        response = api.post(
            "/v2.1/servers", _body(glance.active, config_drive=value), version="2.96"
        )
        assert response.status_code == 202, (value, response.text)
    assert len(conductor.builds) == 6
