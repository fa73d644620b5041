"""The dashboard tests' browser: a Chromium session per test on the
module's ``dashboard`` (each module starts Horizon for its cloud)."""

from __future__ import annotations

import contextlib
import os

import pytest

from tests.fixtures import browser, horizon
from tests.fixtures.databases import skip_or_fail
from tests.integration.dashboard.pages import HorizonPages


@contextlib.contextmanager
def dashboard_for(cloud, tmp_path_factory):
    """Horizon on ``cloud``'s Keystone while the block runs."""
    reason = horizon.missing_reason() or browser.browser_missing()
    if reason:
        skip_or_fail(reason)
    with horizon.running_dashboard(
        cloud.services.auth_url, tmp_path_factory.mktemp("horizon"), os.getpid()
    ) as running:
        yield running


@pytest.fixture
def pages(dashboard):
    driver = browser.chromium("1400,1000")
    try:
        yield HorizonPages(driver, dashboard.url)
    finally:
        driver.quit()
