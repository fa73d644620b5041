"""Integration tests: several real processes (OpenStack services, ours)."""

from tests.fixtures.local_cloud import local_cloud  # noqa: F401  (fixture)
