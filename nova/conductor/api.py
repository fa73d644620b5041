"""What other services call to start conductor task flows.

nova-api hands accepted servers to the superconductor here.
"""

from __future__ import annotations

from nova.conductor import rpcapi


class ComputeTaskAPI:
    """Task flows of the (super)conductor."""

    def __init__(self) -> None:
        self.conductor_compute_rpcapi = rpcapi.ComputeTaskAPI()

    def schedule_and_build_instances(
        self, context, build_requests, request_specs, build_parameters
    ) -> None:
        """Schedule the build requests and build them where they land.

        Returns at once (a cast to the superconductor). ``build_requests``
        and ``request_specs`` are parallel lists, one per instance, already
        stored in the API database with the instances' mappings; the specs
        share one ``num_instances``, the instances one ``build_parameters``
        (a BuildParameters). Each instance ends ACTIVE in a cell or ERROR in
        cell0 with a fault saying why.
        """
        self.conductor_compute_rpcapi.schedule_and_build_instances(
            context,
            build_requests=build_requests,
            request_specs=request_specs,
            build_parameters=build_parameters,
        )

    def unshelve_instance(self, context, instance, request_spec=None) -> None:
        """Bring a shelved instance back (a cast to the superconductor);
        ``context`` is the API-level one, not targeted at a cell."""
        self.conductor_compute_rpcapi.unshelve_instance(
            context, instance, request_spec=request_spec
        )

    def migrate_server(
        self, context, instance, flavor, request_spec, clean_shutdown: bool = True
    ) -> None:
        """Resize the instance to ``flavor`` (its own flavor: a cold
        migration) where ``request_spec`` allows; returns once the
        destination has the move (a call to the superconductor).

        :raises NoValidHost: no host fits; the instance is left as it was.
        """
        self.conductor_compute_rpcapi.migrate_server(
            context, instance, flavor, request_spec, clean_shutdown=clean_shutdown
        )

    def live_migrate_instance(
        self,
        context,
        instance,
        request_spec,
        block_migration: bool = False,
        disk_over_commit: bool = False,
        host: str | None = None,
    ) -> None:
        """Live-migrate the instance to ``host`` (forced), else where
        ``request_spec`` allows; returns at once (a cast to the
        superconductor)."""
        self.conductor_compute_rpcapi.live_migrate_instance(
            context, instance, request_spec, block_migration, disk_over_commit, host
        )

    def rebuild_instance(self, context, instance, **kwargs) -> None:
        """Evacuate the instance of a dead host (a cast to the
        superconductor; see ``rpcapi.ComputeTaskAPI.rebuild_instance`` for
        the arguments); ``context`` is the API-level one."""
        self.conductor_compute_rpcapi.rebuild_instance(context, instance, **kwargs)
