"""nova-api's gunicorn settings come from nova.conf's [wsgi] options."""

import pytest

from nova.cmd import api
from nova.conf import CONF


@pytest.fixture(autouse=True)
def parsed_conf():
    CONF([], project="nova", default_config_files=[])
    yield
    CONF.clear_override("keep_alive", group="wsgi")
    CONF.clear_override("client_socket_timeout", group="wsgi")


def test_idle_connections_stay_open_for_client_socket_timeout():
    assert api.server_options()["keepalive"] == 900
    CONF.set_override("client_socket_timeout", 0, group="wsgi")
    assert api.server_options()["keepalive"] == api.KEEPALIVE_FOREVER


def test_keep_alive_off_closes_every_connection():
    CONF.set_override("keep_alive", False, group="wsgi")
    assert api.server_options()["keepalive"] == 0
