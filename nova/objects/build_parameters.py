"""Build parameters: what a build carries besides its request spec.

nova-api makes one for all the instances of a create request; the
superconductor gives each instance its own copy with that instance's disks,
the compute builds from it, and a reschedule hands it on with the attempts
made so far. Before this object (conductor RPC 1.0-1.2, compute RPC 1.0)
these were a dozen keyword arguments of every build message;
``message_kwargs`` and ``from_legacy_kwargs`` are the one place that knows
that older form, for the rolling upgrade.
"""

from __future__ import annotations

from typing import Any

from oslo_versionedobjects import fields

from nova.objects import base

# The keyword arguments a build message spelled out before this object: the
# build itself (compute build_and_run_instance 1.0, conductor
# build_and_run_instance 1.0 and build_instances 1.1) and the superconductor's
# schedule_and_build_instances (1.0).
LEGACY_BUILD_KWARGS = (
    "image",
    "filter_properties",
    "admin_password",
    "injected_files",
    "requested_networks",
    "security_groups",
    "block_device_mapping",
)
LEGACY_SCHEDULE_KWARGS = (
    "image",
    "admin_password",
    "injected_files",
    "requested_networks",
    "block_device_mapping",
    "tags",
)


@base.NovaObjectRegistry.register
class BuildParameters(base.NovaObject):
    """The image, password, files, networks, security groups, disks and tags
    of a build, and the attempts of its reschedules."""

    # Version 1.0: Initial version
    VERSION = "1.0"

    fields = {
        # The image as the image API shows it (a dict).
        "image": base.JsonField(),
        "admin_password": base.SecretField(nullable=True, default=None),
        # [path, contents] pairs.
        "injected_files": fields.ListOfListsOfStringsField(default=[]),
        # "none", "auto" or a list of requested networks.
        "requested_networks": base.JsonField(nullable=True, default=None),
        "security_groups": fields.ListOfStringsField(nullable=True, default=None),
        "block_device_mapping": fields.ObjectField(
            "BlockDeviceMappingList", nullable=True, default=None
        ),
        "tags": fields.ListOfStringsField(nullable=True, default=None),
        # The reschedule's record of the hosts tried and why each failed
        # (``retry``, see nova.compute.build_retry).
        "filter_properties": base.JsonField(default={}),
    }

    def __init__(self, context=None, **kwargs: Any) -> None:
        super().__init__(context, **kwargs)
        self.obj_set_defaults()

    @classmethod
    def from_legacy_kwargs(cls, **kwargs: Any) -> BuildParameters:
        """The parameters an older sender spelled out as keyword arguments
        (any of LEGACY_BUILD_KWARGS and LEGACY_SCHEDULE_KWARGS)."""
        unknown = set(kwargs) - set(LEGACY_BUILD_KWARGS) - set(LEGACY_SCHEDULE_KWARGS)
        if unknown:
            raise TypeError(f"unexpected build arguments: {sorted(unknown)}")
        # None stood for "nothing" where the fields now have an empty default.
        given = {name: value for name, value in kwargs.items() if value is not None}
        return cls(**given)

    @classmethod
    def received(
        cls, build_parameters: BuildParameters | None, legacy_kwargs: dict[str, Any]
    ) -> BuildParameters:
        """The parameters of a build message: those it carries, or, from an
        older sender, those made of its keyword arguments."""
        if build_parameters is not None:
            if legacy_kwargs:
                raise TypeError(f"unexpected build arguments: {sorted(legacy_kwargs)}")
            return build_parameters
        return cls.from_legacy_kwargs(**legacy_kwargs)

    def message_kwargs(
        self, current: bool, legacy_names: tuple[str, ...]
    ) -> dict[str, Any]:
        """The keyword arguments carrying these parameters in a build
        message: the object itself, or, for a receiver that predates it
        (not ``current``), its older form ``legacy_names``
        (LEGACY_BUILD_KWARGS or LEGACY_SCHEDULE_KWARGS)."""
        if current:
            return {"build_parameters": self}
        return {name: getattr(self, name) for name in legacy_names}
