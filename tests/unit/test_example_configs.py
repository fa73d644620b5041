"""The example configurations in etc/nova parse and name real options.

Every option of every example must be one the generated ``nova.conf.sample``
documents (nova's own and the libraries' it lists), or, in a group whose
``auth_type`` is ``password``, one of keystoneauth's password plugin. Each
file is then loaded by oslo.config with nova's options registered, and every
value it sets is read back, so a value of the wrong type fails here.
"""

from __future__ import annotations

import logging.config
from pathlib import Path

import pytest
from keystoneauth1 import loading as ks_loading
from oslo_config import cfg
from oslo_log import log

import nova.conf

ETC = Path(__file__).resolve().parents[2] / "etc" / "nova"
EXAMPLES = sorted((ETC / "multinode").glob("*.conf"))
PASSWORD_OPTIONS = {
    opt.dest for opt in ks_loading.get_auth_plugin_conf_options("password")
}


def _sections(path: Path) -> dict[str, dict[str, str]]:
    """``{group: {option: value}}`` as written (configparser would copy
    ``[DEFAULT]`` into every group)."""
    sections: dict[str, dict[str, str]] = {}
    group = None
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            group = sections.setdefault(line[1:-1], {})
            continue
        assert group is not None, f"{path.name}: option before any group: {line}"
        name, _, value = line.partition("=")
        group[name.strip()] = value.strip()
    return sections


def _documented() -> dict[str, set[str]]:
    """``{group: option names}`` of the generated sample."""
    documented: dict[str, set[str]] = {}
    group = None
    for line in (ETC / "nova.conf.sample").read_text().splitlines():
        if line.startswith("[") and line.endswith("]"):
            group = documented.setdefault(line[1:-1], set())
        elif group is not None and line.startswith("#") and " = " in line:
            name = line[1:].split(" = ", 1)[0]
            if name.isidentifier():
                group.add(name)
    return documented


def test_there_are_examples_for_each_kind_of_host():
    assert {path.name for path in EXAMPLES} == {
        "api-host.conf",
        "cell1-conductor.conf",
        "compute-host.conf",
    }


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.name)
def test_example_names_only_documented_options(path):
    documented = _documented()
    unknown = []
    for group, options in _sections(path).items():
        known = set(documented.get(group, ()))
        if options.get("auth_type") == "password":
            known |= PASSWORD_OPTIONS
        unknown += [f"[{group}] {name}" for name in options if name not in known]
    assert unknown == []


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.name)
def test_example_values_load(path):
    conf = cfg.ConfigOpts()
    nova.conf.register_all(conf)
    log.register_options(conf)
    conf([], project="nova", default_config_files=[str(path)])
    try:
        for group, options in _sections(path).items():
            for name in options:
                if group == "keystone_authtoken" or name in PASSWORD_OPTIONS:
                    continue  # registered by keystonemiddleware / the plugin
                section = conf if group == "DEFAULT" else conf[group]
                assert getattr(section, name) is not None, f"[{group}] {name}"
    finally:
        conf.reset()


def test_compute_host_file_layers_over_the_cell_file():
    conf = cfg.ConfigOpts()
    nova.conf.register_all(conf)
    multinode = ETC / "multinode"
    conf(
        [],
        project="nova",
        default_config_files=[
            str(multinode / "cell1-conductor.conf"),
            str(multinode / "compute-host.conf"),
        ],
    )
    assert conf.host == "compute1"
    assert conf.my_ip == "192.0.2.31"
    assert conf.transport_url.endswith("/nova_cell1")
    assert conf.api_database.connection is None


def test_logging_example_is_a_valid_file_config(tmp_path):
    text = (ETC / "logging.conf").read_text()
    log_file = tmp_path / "nova.log"
    path = tmp_path / "logging.conf"
    path.write_text(text.replace("/var/log/nova/nova.log", str(log_file)))
    root = logging.getLogger()
    saved = (root.level, list(root.handlers))
    try:
        logging.config.fileConfig(path, disable_existing_loggers=False)
        logging.getLogger("nova.example").info("hello from the example")
    finally:
        for handler in root.handlers:
            handler.close()
        root.handlers[:] = saved[1]
        root.setLevel(saved[0])
    assert "hello from the example" in log_file.read_text()
