"""The Tempest runner's own logic: the tempest.conf it writes and how it
reads a run's output (tests/tempest/run_tempest.py)."""

import configparser
import importlib.util
from pathlib import Path

import pytest

RUNNER = Path(__file__).parents[1] / "tempest" / "run_tempest.py"


@pytest.fixture(scope="module")
def runner():
    spec = importlib.util.spec_from_file_location("run_tempest", RUNNER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CLOUD = {
    "auth": {
        "auth_url": "http://127.0.0.1:5000/v3",
        "username": "admin",
        "password": "pw",
        "project_name": "admin",
    },
    "region_name": "RegionOne",
}


def _written_conf(runner, tmp_path, filters=("ComputeFilter",)):
    runner.write_conf(
        tmp_path, CLOUD, ["img-1", "img-2"], ["f-1", "f-2"], 2, list(filters)
    )
    # Tempest's [DEFAULT] is an ordinary section, not inherited ones.
    conf = configparser.ConfigParser(interpolation=None, default_section="-")
    conf.read(tmp_path / "etc" / "tempest.conf")
    return conf


def test_feature_flags_come_from_the_one_table(runner, tmp_path, monkeypatch):
    monkeypatch.setitem(runner.COMPUTE_FEATURES, "shelve", True)
    conf = _written_conf(runner, tmp_path)
    section = conf["compute-feature-enabled"]
    for name, enabled in runner.COMPUTE_FEATURES.items():
        assert section.getboolean(name) is enabled, name
    assert section.getboolean("shelve") is True
    # Nothing besides the table and the scheduler filters.
    assert set(section) == set(runner.COMPUTE_FEATURES) | {"scheduler_enabled_filters"}


def test_conf_has_two_images_and_the_compute_host_count(runner, tmp_path):
    conf = _written_conf(runner, tmp_path, ["ComputeFilter", "AggregateFilter"])
    compute = conf["compute"]
    assert compute["image_ref"] == "img-1"
    assert compute["image_ref_alt"] == "img-2"
    assert compute["flavor_ref"] == "f-1"
    assert compute["flavor_ref_alt"] == "f-2"
    assert compute["min_compute_nodes"] == "2"
    filters = conf["compute-feature-enabled"]["scheduler_enabled_filters"]
    assert filters == "ComputeFilter,AggregateFilter"
    assert conf["service_available"].getboolean("neutron") is False
    assert conf["service_available"].getboolean("cinder") is False


def test_filters_are_read_from_the_deployments_nova_conf(runner, tmp_path):
    nova_conf = tmp_path / "nova.conf"
    nova_conf.write_text(
        "[filter_scheduler]\nenabled_filters = ComputeFilter, AvailabilityZoneFilter\n"
    )
    assert runner.enabled_filters(nova_conf) == [
        "ComputeFilter",
        "AvailabilityZoneFilter",
    ]


def test_filters_default_to_the_schedulers_default(runner, tmp_path):
    from nova import conf as nova_conf_module

    nova_conf = tmp_path / "nova.conf"
    nova_conf.write_text("[DEFAULT]\ndebug = True\n")
    expected = nova_conf_module.CONF.filter_scheduler.enabled_filters
    assert runner.enabled_filters(nova_conf) == list(expected)
    assert runner.enabled_filters(None) == list(expected)


def test_summarize_counts_and_failed_ids(runner):
    output = "\n".join(
        [
            "{0} tempest.api.compute.a.Test.test_one [1.2s] ... ok",
            "{1} tempest.api.compute.a.Test.test_two [0.3s] ... FAILED",
            "{1} setUpClass (tempest.api.compute.b.Test) ... FAILED",
            "{0} tempest.api.compute.a.Test.test_three ... SKIPPED: no",
            "======",
            " - Passed: 1",
            " - Skipped: 1",
            " - Failed: 2",
        ]
    )
    totals, failed = runner.summarize(output)
    assert totals == {"Passed": 1, "Skipped": 1, "Failed": 2}
    assert failed == [
        "tempest.api.compute.a.Test.test_two",
        "setUpClass (tempest.api.compute.b.Test)",
    ]


def test_workspaces_with_one_basename_get_different_names(runner):
    first = runner.workspace_name(Path("/tmp/a/ws"))
    second = runner.workspace_name(Path("/tmp/b/ws"))
    assert first != second and "/" not in first
