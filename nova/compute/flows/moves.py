"""Move operations on this host: resize and cold migration
(migrate_disk_and_power_off on the source, finish_migration on the
destination, confirm and revert), live migration (pre, the migration
itself, post and rollback) and evacuate.

The place where they come: the compute manager will hand these RPC methods
to this flow; the driver methods they call are declared in
:class:`nova.virt.driver.ComputeDriver`. None is served yet.
"""

from __future__ import annotations

from nova.compute.flows import base


class MovesFlow(base.Flow):
    """Host steps of resize, migrations and evacuate (none served yet)."""
