import pytest

from nova.conf import CONF


@pytest.fixture(autouse=True, scope="session")
def parsed_conf():
    CONF([], project="nova", default_config_files=[])
