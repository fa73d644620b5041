"""The last completed audit period, per unit and offset."""

import datetime

import pytest

from nova import audit_period
from nova.conf import CONF

D = datetime.datetime
NOW = D(2026, 3, 10, 14, 30, 15)


@pytest.mark.parametrize(
    ("unit", "before", "expected"),
    [
        ("hour", NOW, (D(2026, 3, 10, 13), D(2026, 3, 10, 14))),
        ("hour@45", NOW, (D(2026, 3, 10, 12, 45), D(2026, 3, 10, 13, 45))),
        ("hour@30", NOW, (D(2026, 3, 10, 13, 30), D(2026, 3, 10, 14, 30))),
        # A period ending exactly now has not completed yet.
        ("hour", D(2026, 3, 10, 14), (D(2026, 3, 10, 12), D(2026, 3, 10, 13))),
        ("day", NOW, (D(2026, 3, 9), D(2026, 3, 10))),
        ("day@20", NOW, (D(2026, 3, 8, 20), D(2026, 3, 9, 20))),
        ("day@1", D(2026, 3, 1, 0, 5), (D(2026, 2, 27, 1), D(2026, 2, 28, 1))),
        ("month", NOW, (D(2026, 2, 1), D(2026, 3, 1))),
        ("month@15", NOW, (D(2026, 1, 15), D(2026, 2, 15))),
        ("month", D(2026, 1, 1), (D(2025, 11, 1), D(2025, 12, 1))),
        ("month@5", D(2026, 2, 3), (D(2025, 12, 5), D(2026, 1, 5))),
        ("year", NOW, (D(2025, 1, 1), D(2026, 1, 1))),
        ("year@4", NOW, (D(2024, 4, 1), D(2025, 4, 1))),
        ("year@3", NOW, (D(2025, 3, 1), D(2026, 3, 1))),
    ],
)
def test_last_completed_period(unit, before, expected):
    assert audit_period.last_completed_audit_period(unit, before) == expected


def test_aware_before_is_taken_as_utc():
    aware = NOW.replace(tzinfo=datetime.UTC)
    assert audit_period.last_completed_audit_period("day", aware) == (
        D(2026, 3, 9),
        D(2026, 3, 10),
    )


def test_configured_unit_is_the_default():
    CONF([], project="nova", default_config_files=[])
    CONF.set_override("instance_usage_audit_period", "day@6")
    try:
        assert audit_period.last_completed_audit_period(before=NOW) == (
            D(2026, 3, 9, 6),
            D(2026, 3, 10, 6),
        )
    finally:
        CONF.clear_override("instance_usage_audit_period")


def test_unknown_unit():
    with pytest.raises(ValueError, match="hour, day, month or year"):
        audit_period.last_completed_audit_period("week", NOW)
