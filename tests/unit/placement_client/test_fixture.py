"""The Placement fixture skips locally but fails in CI when Placement is missing."""

import pytest

from tests.fixtures.placement import require_placement

ABSENT = ("no_such_module_for_placement_tests",)


def test_present_modules_pass(monkeypatch):
    monkeypatch.setenv("CI", "true")
    require_placement(("json",))


def test_missing_module_skips_outside_ci(monkeypatch):
    monkeypatch.delenv("CI", raising=False)

    with pytest.raises(pytest.skip.Exception, match=ABSENT[0]):
        require_placement(ABSENT)


def test_missing_module_fails_in_ci(monkeypatch):
    monkeypatch.setenv("CI", "true")

    with pytest.raises(pytest.fail.Exception, match=ABSENT[0]):
        require_placement(ABSENT)
