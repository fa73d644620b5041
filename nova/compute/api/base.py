"""What every flow of the compute API shares: finding a server where it
lives, the lock that keeps non-admins off it, and starting an action as the
state machine allows.
"""

from __future__ import annotations

from typing import Any

from nova import context as nova_context
from nova import exception, objects, policy, quota
from nova.image import api as image_api
from nova.network import api as network_api
from nova.notifications import instance as instance_notifications
from nova.states import machine, vm_states


def target(instance) -> dict[str, Any]:
    """The policy target of a server: its owner."""
    return {"project_id": instance.project_id, "user_id": instance.user_id}


def check_metadata_quota(context, metadata: dict) -> None:
    """A server's metadata fits the project's ``metadata_items`` limit.

    :raises MetadataLimitExceeded: it has too many items.
    """
    try:
        quota.enforce(context, {"metadata_items": len(metadata)}, context.project_id)
    except exception.OverQuota as exc:
        raise exception.MetadataLimitExceeded(
            allowed=exc.kwargs["quotas"]["metadata_items"]
        ) from exc


def check_injected_file_quota(context, injected_files) -> None:
    """Personality files fit the project's ``injected_files``,
    ``injected_file_path_bytes`` and ``injected_file_content_bytes``
    limits (content measured as sent, in base64, as upstream does).

    :raises OnsetFileLimitExceeded: (403) too many files, or a path or a
        content too long (its subclasses say which).
    """
    if not injected_files:
        return
    deltas = {
        "injected_files": len(injected_files),
        "injected_file_path_bytes": max(len(path) for path, _ in injected_files),
        "injected_file_content_bytes": max(
            len(contents) for _, contents in injected_files
        ),
    }
    try:
        quota.enforce(context, deltas, context.project_id)
    except exception.OverQuota as exc:
        overs = exc.kwargs["overs_list"]
        limits = exc.kwargs["quotas"]
        if "injected_files" in overs:
            raise exception.OnsetFileLimitExceeded() from exc
        if "injected_file_path_bytes" in overs:
            raise exception.OnsetFilePathLimitExceeded(
                allowed=limits["injected_file_path_bytes"]
            ) from exc
        raise exception.OnsetFileContentLimitExceeded(
            allowed=limits["injected_file_content_bytes"]
        ) from exc


def check_lock(instance) -> None:
    """:raises InstanceIsLocked: (409) a locked server, for non-admins."""
    if instance.locked and not instance._context.is_admin:
        raise exception.InstanceIsLocked(instance_uuid=instance.uuid)


class FlowAPI:
    """Base of the compute API's flows; each is stateless and cheap to
    make, and authorizes its caller before it reads."""

    def __init__(
        self,
        image: image_api.ImageAPI | None = None,
        network: network_api.NetworkAPI | None = None,
    ) -> None:
        self.image_api = image or image_api.get_image_api()
        self.network_api = network or network_api.get_network_api()

    # -- collaborators over RPC, imported when first needed -----------------

    @staticmethod
    def _compute_task_api():
        from nova.conductor import api as conductor_api

        return conductor_api.ComputeTaskAPI()

    @staticmethod
    def _compute_rpcapi():
        from nova.compute import rpcapi as compute_rpcapi

        return compute_rpcapi.ComputeAPI()

    # -- where a server lives -------------------------------------------------

    @staticmethod
    def mapping(context, instance_uuid: str):
        """The server's instance mapping.

        :raises InstanceNotFound: no such server, or another project's.
        """
        try:
            mapping = objects.InstanceMapping.get_by_instance_uuid(
                context, instance_uuid
            )
        except exception.InstanceMappingNotFound as exc:
            raise exception.InstanceNotFound(instance_id=instance_uuid) from exc
        # Another project's server does not exist for its caller.
        if not context.is_admin and mapping.project_id != context.project_id:
            raise exception.InstanceNotFound(instance_id=instance_uuid)
        return mapping

    def in_cell(self, context, instance, method: str):
        """The instance as its cell has it, and the cell's context.

        :raises InstanceInvalidState: not yet scheduled (409).
        """
        mapping = self.mapping(context, instance.uuid)
        if mapping.cell_mapping is None:
            raise exception.InstanceInvalidState(
                instance_uuid=instance.uuid,
                attr="vm_state",
                state=vm_states.BUILDING,
                method=method,
            )
        # target_cell only copies the context: the copy outlives the block.
        with nova_context.target_cell(context, mapping.cell_mapping) as cctxt:
            cell_instance = objects.Instance.get_by_uuid(cctxt, instance.uuid)
        return cctxt, cell_instance

    def on_host(self, context, instance, method: str, rule: str):
        """Authorize ``rule``; the instance as its cell has it (and the
        cell's context), which must be on a host.

        :raises InstanceInvalidState: not yet scheduled (409).
        :raises InstanceNotReady: on no host (409).
        """
        policy.authorize(context, rule, target(instance))
        cctxt, cell_instance = self.in_cell(context, instance, method)
        if not cell_instance.host:
            raise exception.InstanceNotReady(instance_id=instance.uuid)
        return cctxt, cell_instance

    # -- starting an action ---------------------------------------------------

    @staticmethod
    def record_action(cctxt, instance, transition: machine.Transition) -> None:
        """The instance action users see in ``os-instance-actions``."""
        objects.InstanceAction.action_start(
            cctxt, instance.uuid, transition.action, want_result=False
        )

    @staticmethod
    def claim_task(instance, transition: machine.Transition) -> None:
        """Set the action's task state, compare-and-swap on the task states
        it may start from, so two actions never both start.

        :raises UnexpectedTaskStateError: another action won.
        """
        allowed = transition.task_states
        old_task_state = instance.task_state
        instance.task_state = transition.task_state
        instance.save(
            expected_task_state=None if allowed is machine.ANY else list(allowed)
        )
        instance_notifications.notify_update(
            instance, None, instance.vm_state, old_task_state
        )

    def start_action(
        self, context, instance, transition: machine.Transition, rule: str
    ):
        """Authorize ``rule``, check the lock and the state machine, claim
        the task (if the action has one) and record the action; the cell's
        context and instance, ready for the cast to its host."""
        cctxt, cell_instance = self.on_host(context, instance, transition.action, rule)
        check_lock(cell_instance)
        machine.check(cell_instance, transition)
        if transition.task_state is not None:
            self.claim_task(cell_instance, transition)
        self.record_action(cctxt, cell_instance, transition)
        return cctxt, cell_instance
