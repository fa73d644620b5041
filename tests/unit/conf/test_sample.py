"""etc/nova/nova.conf.sample is up to date with nova's options.

Only the ``From nova.conf`` part of each section is compared, option by
option, and options nova takes from oslo.db or keystoneauth1 are left out:
a new release of a library adding or rewording its own options does not
make the checked-in sample stale, while a nova option added, removed or
changed without regenerating the sample does.
"""

import pathlib
import re

import pytest
from keystoneauth1 import loading as ks_loading
from oslo_config import cfg, generator
from oslo_db import options as oslo_db_options

from nova.conf import utils

REPO = pathlib.Path(__file__).resolve().parents[3]
SAMPLE = REPO / "etc" / "nova" / "nova.conf.sample"
REGENERATE = "oslo-config-generator --config-file etc/nova/nova-config-generator.conf"
NAMESPACE = "nova.conf"

_SECTION = re.compile(r"^\[(?P<name>[^\]]+)\]$")
_NAMESPACE_HEADER = re.compile(r"^# From (?P<namespace>\S+)$")
_OPTION_LINE = re.compile(r"^#(?P<name>\w+) =")


def _library_option_names() -> set[str]:
    library_opts = (
        oslo_db_options.database_opts
        + ks_loading.get_session_conf_options()
        + ks_loading.get_auth_common_conf_options()
        + ks_loading.get_auth_plugin_conf_options(utils.SAMPLE_AUTH_PLUGIN)
        + ks_loading.get_adapter_conf_options(include_deprecated=False)
    )
    return {opt.dest for opt in library_opts}


def _blocks(lines: list[str]) -> list[str]:
    """Split lines into blank-line separated blocks of text."""
    text = "\n".join(lines)
    return [block for block in re.split(r"\n\s*\n", text) if block.strip()]


def _nova_sections(text: str) -> dict[str, dict[str, str]]:
    """{section: {"": group help, option: its rendered block}} for the
    part of each section that the nova.conf namespace wrote."""
    raw: dict[str, dict[str, list[str]]] = {}
    section = namespace = None
    for line in text.splitlines():
        if match := _SECTION.match(line):
            section, namespace = match["name"], None
            raw.setdefault(section, {"preamble": [], NAMESPACE: []})
        elif match := _NAMESPACE_HEADER.match(line):
            namespace = match["namespace"]
        elif section is not None and namespace is None:
            raw[section]["preamble"].append(line)
        elif namespace == NAMESPACE:
            raw[section][NAMESPACE].append(line)

    library = _library_option_names()
    sections = {}
    for name, parts in raw.items():
        if not parts[NAMESPACE]:
            continue
        options = {"": "\n".join(parts["preamble"]).strip()}
        for block in _blocks(parts[NAMESPACE]):
            option_lines = [m for m in map(_OPTION_LINE.match, block.splitlines()) if m]
            if option_lines and option_lines[-1]["name"] not in library:
                options[option_lines[-1]["name"]] = block
        sections[name] = options
    return sections


@pytest.fixture(scope="module")
def fresh_sample(tmp_path_factory) -> str:
    output = tmp_path_factory.mktemp("sample") / "nova.conf.sample"
    conf = cfg.ConfigOpts()
    generator.register_cli_opts(conf)
    conf(
        ["--namespace", NAMESPACE, "--wrap-width", "80", "--output-file", str(output)],
        default_config_files=[],
    )
    generator.generate(conf)
    return output.read_text()


def test_sample_has_the_same_nova_sections(fresh_sample):
    expected = _nova_sections(fresh_sample)
    checked_in = _nova_sections(SAMPLE.read_text())

    assert sorted(checked_in) == sorted(expected), f"stale sample, run: {REGENERATE}"


def test_sample_documents_each_nova_option_as_generated(fresh_sample):
    expected = _nova_sections(fresh_sample)
    checked_in = _nova_sections(SAMPLE.read_text())

    for section, options in expected.items():
        have = checked_in.get(section, {})
        assert sorted(have) == sorted(options), (
            f"[{section}] options differ; stale sample, run: {REGENERATE}"
        )
        for name, block in options.items():
            assert have[name] == block, (
                f"[{section}] {name or 'group help'} differs; stale sample, "
                f"run: {REGENERATE}"
            )
