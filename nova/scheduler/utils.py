"""What a request spec asks of Placement."""

from __future__ import annotations

import dataclasses
import math

# Flavor extra specs that shape the Placement query.
_RESOURCES_PREFIX = "resources:"
_TRAIT_PREFIX = "trait:"


@dataclasses.dataclass
class ResourceRequest:
    """Amounts per resource class and traits, for one instance."""

    resources: dict[str, int]
    required_traits: set[str] = dataclasses.field(default_factory=set)
    forbidden_traits: set[str] = dataclasses.field(default_factory=set)

    @classmethod
    def from_request_spec(cls, spec_obj) -> ResourceRequest:
        """VCPU, MEMORY_MB and DISK_GB from the flavor (disk: root unless the
        server boots from a volume, plus ephemeral, plus swap rounded up to
        whole GiB), adjusted by ``resources:<RC>=<amount>`` extra specs
        (0 removes a class); traits from ``trait:<T>=required|forbidden``
        extra specs and the image's required traits."""
        flavor = spec_obj.flavor
        is_bfv = spec_obj.is_bfv if "is_bfv" in spec_obj else False
        disk = (0 if is_bfv else flavor.root_gb) + flavor.ephemeral_gb
        disk += math.ceil(flavor.swap / 1024)
        resources = {
            "VCPU": flavor.vcpus,
            "MEMORY_MB": flavor.memory_mb,
            "DISK_GB": disk,
        }
        request = cls(resources)
        extra_specs = (flavor.extra_specs if "extra_specs" in flavor else None) or {}
        for key, value in extra_specs.items():
            if key.startswith(_RESOURCES_PREFIX):
                resources[key[len(_RESOURCES_PREFIX) :]] = int(value)
            elif key.startswith(_TRAIT_PREFIX):
                trait = key[len(_TRAIT_PREFIX) :]
                if value == "required":
                    request.required_traits.add(trait)
                elif value == "forbidden":
                    request.forbidden_traits.add(trait)
        image = spec_obj.image if "image" in spec_obj else None
        if image is not None and "properties" in image:
            request.required_traits.update(
                image.properties.get("traits_required") or []
            )
        # Placement refuses zero amounts.
        request.resources = {rc: n for rc, n in resources.items() if n > 0}
        return request

    def describe(self) -> str:
        return ", ".join(f"{rc}:{n}" for rc, n in sorted(self.resources.items()))
