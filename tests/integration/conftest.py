"""Integration tests: several real processes (OpenStack services, ours)."""
