"""``nova-manage placement …``: Placement repairs from the nova side."""

from __future__ import annotations

from nova import context as nova_context
from nova.cmd.manage_common import args, error
from nova.compute import aggregates


class PlacementCommands:
    """Placement, as seen from the API database."""

    @args("--verbose", action="store_true", help="Say what was synchronized")
    def sync_aggregates(self, verbose: bool = False) -> int:
        """Mirror host aggregate membership into Placement aggregates.

        Returns 0 on success, 3 when Placement refused an update, 4 when an
        aggregate member has no host mapping (run ``cell_v2 discover_hosts``).
        """
        unmapped, failed = aggregates.sync_aggregates(nova_context.get_admin_context())
        if unmapped:
            error(
                "Hosts without a host mapping (run nova-manage cell_v2 "
                f"discover_hosts): {', '.join(sorted(set(unmapped)))}"
            )
            return 4
        if failed:
            error(
                "Placement could not be updated for hosts: "
                f"{', '.join(sorted(set(failed)))}"
            )
            return 3
        if verbose:
            print("Placement aggregates are in sync with the host aggregates.")
        return 0
