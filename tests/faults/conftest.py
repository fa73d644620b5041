"""Fault injection: each test runs a boot-and-delete load, injects one fault
mid-flow, clears it and checks the invariants of :mod:`tests.faults.harness`.

Two slices:

- the quick slice (unmarked tests, small loads, under 3 minutes together)
  runs with every ``pytest tests``, in CI too;
- the full slice (``@pytest.mark.faults_full``: every fault, at least 50
  servers) runs only under ``tox -e faults`` or with
  ``NOVA_TEST_FAULTS=full``; elsewhere it is skipped, saying so.

Each test prints its report (requests accepted, final states, time to
recover, leaked allocations) at the end of the run.
"""

from __future__ import annotations

import os

import pytest

# Before anything imports oslo.messaging: nova.conf makes oslo.service
# settle on native threads, as every nova process does.
import nova.conf
from nova import placement
from tests.fixtures.placement import make_client
from tests.fixtures.rabbitmq import make_vhost, transport_url  # noqa: F401
from tests.functional.boot.deployment import configured_deployment

CONF = nova.conf.CONF
FULL = os.environ.get("NOVA_TEST_FAULTS") == "full"

# Short enough for a test to see the healing, long enough for a loaded CI
# machine's normal queues.
ORPHANED_BUILD_TIMEOUT = 30
RPC_RESPONSE_TIMEOUT = 20


def pytest_collection_modifyitems(config, items):
    if FULL:
        return
    skip = pytest.mark.skip(
        reason="long fault test: runs under `tox -e faults` or NOVA_TEST_FAULTS=full"
    )
    for item in items:
        if "faults_full" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="module", autouse=True)
def parsed_conf():
    # The compute API authorizes: policy files are looked up through CONF.
    CONF([], project="nova", default_config_files=[])


@pytest.fixture
def db_backend():
    """The faults run on MariaDB, as a production cloud would."""
    from tests.fixtures.databases import backend_unavailable_reason, skip_or_fail

    reason = backend_unavailable_reason("mysql")
    if reason:
        skip_or_fail(reason)
    return "mysql"


@pytest.fixture
def deployment(make_db_url, make_vhost, placement_endpoint, tmp_path, monkeypatch):  # noqa: F811
    """The boot tests' deployment, with orphaned builds healed and RPC calls
    timing out within a test's patience; this process, playing nova-api,
    reaches the same Placement."""
    monkeypatch.setattr(placement, "client", lambda: make_client(placement_endpoint))
    with configured_deployment(
        make_db_url,
        make_vhost,
        placement_endpoint,
        tmp_path / "deployment",
        common_options={
            "conductor": {"orphaned_build_timeout": ORPHANED_BUILD_TIMEOUT}
        },
        default_options={"rpc_response_timeout": RPC_RESPONSE_TIMEOUT},
    ) as deployment:
        yield deployment


@pytest.fixture
def fault_report(record_property):
    """Records a FaultReport for the end-of-run summary."""

    def record(report):
        text = report.render()
        print(text)
        record_property("fault_report", text)
        return report

    return record


def pytest_terminal_summary(terminalreporter):
    texts = [
        value
        for reports in terminalreporter.stats.values()
        for report in reports
        if getattr(report, "when", None) == "call"
        for name, value in report.user_properties
        if name == "fault_report"
    ]
    if texts:
        terminalreporter.section("fault reports")
        for text in texts:
            terminalreporter.write_line(text)
