"""ImagePropertiesFilter: hosts that can run the image's architecture,
hypervisor type and VM mode."""

from nova.scheduler import filters

_PROPERTIES = ("hw_architecture", "img_hv_type", "hw_vm_mode")


class ImagePropertiesFilter(filters.BaseHostFilter):
    """The image's ``hw_architecture``, ``img_hv_type`` and ``hw_vm_mode``
    must match one [architecture, hypervisor type, vm mode] the host
    supports. Images that ask for none of them fit anywhere."""

    def host_passes(self, host_state, spec_obj) -> bool:
        image = spec_obj.image if "image" in spec_obj else None
        if image is None or "properties" not in image:
            return True
        wanted = [image.properties.get(name) for name in _PROPERTIES]
        if not any(wanted):
            return True
        for supported in host_state.supported_instances:
            if all(
                want is None or want.lower() == (have or "").lower()
                for want, have in zip(wanted, supported, strict=False)
            ):
                return True
        return False
