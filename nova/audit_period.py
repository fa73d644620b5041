"""Audit periods: the last completed hour, day, month or year.

``[DEFAULT] instance_usage_audit_period`` names the unit, optionally with
an offset after ``@``: the minute of the hour, the hour of the day, the day
of the month or the month of the year at which a period starts
(``month@15`` runs from the 15th to the 15th). Periods are naive UTC.
"""

from __future__ import annotations

import datetime

import nova.conf

CONF = nova.conf.CONF

UNITS = ("hour", "day", "month", "year")


def _parse(unit: str) -> tuple[str, int]:
    name, _, offset = unit.partition("@")
    if name not in UNITS:
        raise ValueError("Time period must be hour, day, month or year")
    return name, int(offset) if offset else 0


def _month_before(moment: datetime.datetime, day: int) -> datetime.datetime:
    """Day ``day`` of the month before ``moment``'s, at midnight."""
    year, month = (moment.year - 1, 12) if moment.month == 1 else (
        moment.year,
        moment.month - 1,
    )  # fmt: skip
    return datetime.datetime(year, month, day)


def last_completed_audit_period(
    unit: str | None = None, before: datetime.datetime | None = None
) -> tuple[datetime.datetime, datetime.datetime]:
    """(beginning, ending) of the last period of ``unit`` (the configured
    one by default) that ended before ``before`` (now by default).

    :raises ValueError: an unknown unit.
    """
    name, offset = _parse(unit or CONF.instance_usage_audit_period)
    now = before if before is not None else datetime.datetime.now(datetime.UTC)
    now = now.replace(tzinfo=None) if now.tzinfo else now
    if name == "hour":
        end = now.replace(minute=offset, second=0, microsecond=0)
        if end >= now:
            end -= datetime.timedelta(hours=1)
        return end - datetime.timedelta(hours=1), end
    if name == "day":
        end = datetime.datetime(now.year, now.month, now.day, offset)
        if end >= now:
            end -= datetime.timedelta(days=1)
        return end - datetime.timedelta(days=1), end
    if name == "month":
        day = offset or 1
        end = datetime.datetime(now.year, now.month, day)
        if end >= now:
            end = _month_before(now, day)
        return _month_before(end, day), end
    month = offset or 1
    end = datetime.datetime(now.year, month, 1)
    if end >= now:
        end = datetime.datetime(now.year - 1, month, 1)
    return datetime.datetime(end.year - 1, month, 1), end
