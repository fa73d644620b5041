"""The Placement fixture restarted on a state directory it used before
(as benchmarks reuse a work dir) serves again, with the same data."""

from __future__ import annotations

from oslo_utils import uuidutils

from tests.fixtures.placement import make_client, require_placement, start_placement


def test_restart_on_a_used_state_dir_serves_the_same_providers(tmp_path):
    require_placement()
    state_dir = tmp_path / "placement"
    provider = uuidutils.generate_uuid()
    first = start_placement(state_dir)
    try:
        make_client(first.endpoint).create_provider("kept", uuid=provider)
    finally:
        first.stop()
    # The first run's port file must not be mistaken for the new server's.
    second = start_placement(state_dir, timeout=120)
    try:
        assert make_client(second.endpoint).get_provider(provider).name == "kept"
    finally:
        second.stop()
