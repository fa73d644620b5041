"""Selections: a host the scheduler chose (or kept as an alternate)."""

from __future__ import annotations

import json
from typing import Any

from oslo_versionedobjects import fields

from nova.objects import base


@base.NovaObjectRegistry.register
class SchedulerLimits(base.NovaObject):
    """Limits a host must respect for one build (None: no limit).

    Placement enforces capacity now; the object stays in selections so the
    build RPC keeps upstream's shape.
    """

    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {
        "vcpu": fields.IntegerField(nullable=True, default=None),
        "disk_gb": fields.IntegerField(nullable=True, default=None),
        "memory_mb": fields.IntegerField(nullable=True, default=None),
    }


@base.NovaObjectRegistry.register
class Selection(base.NovaObject):
    """Where to build: a compute node, its host and cell, and the
    allocation request claimed (or to claim) there."""

    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {
        "compute_node_uuid": fields.UUIDField(),
        "service_host": fields.StringField(),
        "nodename": fields.StringField(),
        "cell_uuid": fields.UUIDField(),
        "limits": fields.ObjectField("SchedulerLimits", nullable=True),
        # The Placement allocation request, JSON-encoded.
        "allocation_request": fields.StringField(nullable=True),
        "allocation_request_version": fields.StringField(nullable=True),
        "availability_zone": fields.StringField(nullable=True),
    }

    @classmethod
    def from_host_state(
        cls,
        host_state: Any,
        allocation_request: dict[str, Any] | None = None,
        allocation_request_version: str | None = None,
    ) -> Selection:
        """A selection of ``host_state`` (a scheduler HostState)."""
        return cls(
            compute_node_uuid=host_state.uuid,
            service_host=host_state.host,
            nodename=host_state.nodename,
            cell_uuid=host_state.cell_uuid,
            limits=None,
            allocation_request=(
                None if allocation_request is None else json.dumps(allocation_request)
            ),
            allocation_request_version=allocation_request_version,
            availability_zone=host_state.availability_zone,
        )
