"""CrossCellWeigher: during a cross-cell move, prefer the source cell."""

from nova.scheduler import weights


class CrossCellWeigher(weights.BaseHostWeigher):
    """Hosts in the cell the request prefers (``requested_destination.cell``
    of a move that may cross cells) get 1, others -1
    (``cross_cell_move_weight_multiplier``); other requests weigh 0."""

    MULTIPLIER = "cross_cell_move_weight_multiplier"

    def weigh(self, host_state, spec_obj) -> float:
        destination = (
            spec_obj.requested_destination
            if "requested_destination" in spec_obj
            else None
        )
        if (
            destination is None
            or "cell" not in destination
            or destination.cell is None
            or not destination.allow_cross_cell_move
        ):
            return 0
        return 1 if host_state.cell_uuid == destination.cell.uuid else -1
