"""The base of the conductor's task flows, and the steps they share.

A task is one run of a flow, handed the versioned objects it works on.
``execute`` runs its steps; when one fails, ``rollback`` undoes the steps
already taken and records the failure where the user sees it (a fault, the
instance's state), then the failure goes on to the caller.
"""

from __future__ import annotations

from typing import Any

from oslo_log import log as logging
from oslo_utils import excutils

from nova import exception, placement
from nova.compute import utils as compute_utils
from nova.states import vm_states

LOG = logging.getLogger(__name__)


class TaskBase:
    """One run of a conductor flow."""

    def __init__(self, context) -> None:
        self.context = context

    def execute(self) -> Any:
        """Run the flow; on failure roll back what it did, then re-raise."""
        try:
            return self._execute()
        except Exception as exc:
            # A failing rollback is logged with the failure it undid.
            with excutils.save_and_reraise_exception():
                self.rollback(exc)

    def _execute(self) -> Any:
        raise NotImplementedError

    def rollback(self, exc: Exception) -> None:
        """Undo the steps ``_execute`` took before it failed with ``exc``."""


def remove_allocations(context, instance_uuid: str) -> None:
    """Give back what the instance holds in Placement."""
    try:
        placement.client().remove_allocations(instance_uuid, context=context)
    except Exception:  # left for `nova-manage placement audit`
        LOG.exception("Could not remove the allocations of %s", instance_uuid)


def set_error(context, instance, exc: BaseException) -> None:
    """ERROR, with ``exc`` as the instance's fault; an instance deleted
    meanwhile is let go."""
    try:
        compute_utils.add_instance_fault_from_exc(context, instance, exc)
        instance.vm_state = vm_states.ERROR
        instance.task_state = None
        instance.save()
    except (exception.InstanceNotFound, exception.UnexpectedDeletingTaskStateError):
        LOG.info("Instance %s was deleted meanwhile", instance.uuid)
