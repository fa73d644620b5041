"""Move operations: resize (with confirmResize and revertResize), cold
migration, live migration and evacuate.

The place where they come, beside the other flows of the compute API; none
is accepted yet (the API answers "There is no such action"). Their states
join the table of :mod:`nova.states.machine`, their conductor flows
``nova/conductor/tasks/``, and their host steps the compute manager's
collaborator for moves.
"""

from __future__ import annotations

from nova.compute.api import base


class MovesAPI(base.FlowAPI):
    """Moving a server between hosts or flavors (none served yet)."""
