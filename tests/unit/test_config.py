"""nova.config.parse_args: command line, layered files and logging set-up."""

import logging

import pytest

from nova import config

CONF = config.CONF


@pytest.fixture(autouse=True)
def clean_conf():
    yield
    CONF.reset()


@pytest.fixture
def restore_logging():
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    for handler in root.handlers[:]:
        if handler not in handlers:
            root.removeHandler(handler)
            handler.close()
    for handler in handlers:
        if handler not in root.handlers:
            root.addHandler(handler)
    root.setLevel(level)


def _write(path, text):
    path.write_text(text)
    return str(path)


def test_second_config_file_overrides_the_first(tmp_path):
    common = _write(
        tmp_path / "nova.conf",
        "[DEFAULT]\nhost = shared\nstate_path = /var/lib/nova\n"
        "[api]\nmax_limit = 200\n",
    )
    per_host = _write(tmp_path / "host.conf", "[DEFAULT]\nhost = compute-7\n")

    config.parse_args(
        ["nova-compute", "--config-file", common, "--config-file", per_host],
        configure_logging=False,
    )

    assert CONF.host == "compute-7"
    assert CONF.state_path == "/var/lib/nova"
    assert CONF.api.max_limit == 200


def test_config_dir_is_read(tmp_path):
    conf_dir = tmp_path / "nova.conf.d"
    conf_dir.mkdir()
    _write(
        conf_dir / "10-compute.conf", "[DEFAULT]\ncompute_driver = fake.FakeDriver\n"
    )

    config.parse_args(
        ["nova-compute", "--config-dir", str(conf_dir)],
        default_config_files=[],
        configure_logging=False,
    )

    assert CONF.compute_driver == "fake.FakeDriver"


def test_default_config_files_apply_without_config_file(tmp_path):
    default = _write(tmp_path / "nova.conf", "[DEFAULT]\nhost = from-default\n")

    config.parse_args(
        ["nova-api"], default_config_files=[default], configure_logging=False
    )

    assert CONF.host == "from-default"


def test_oslo_log_options_and_nova_log_levels(tmp_path):
    log_file = str(tmp_path / "nova.log")

    config.parse_args(
        ["nova-api", "--debug", "--log-file", log_file],
        default_config_files=[],
        configure_logging=False,
    )

    assert CONF.debug is True
    assert CONF.log_file == log_file
    assert "kombu=WARN" in CONF.default_log_levels
    assert "sqlalchemy=WARN" in CONF.default_log_levels


def test_parse_args_can_run_twice(tmp_path):
    config.parse_args(["nova-api"], default_config_files=[], configure_logging=False)
    config.parse_args(
        ["nova-api", "--debug"], default_config_files=[], configure_logging=False
    )

    assert CONF.debug is True


def test_logging_goes_to_log_file(tmp_path, restore_logging):
    log_file = tmp_path / "nova.log"

    config.parse_args(
        ["nova-api", "--log-file", str(log_file)], default_config_files=[]
    )
    logging.getLogger("nova.api").warning("compute API starting")
    logging.getLogger("kombu.connection").info("kombu chatter")

    text = log_file.read_text()
    assert "compute API starting" in text
    assert "kombu chatter" not in text
