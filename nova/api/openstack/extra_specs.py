"""Validation of flavor extra specs in the namespaces nova knows (2.86+).

A key in a known namespace (``hw:``, ``quota:``, ``resources1:`` ...) must
be one nova understands, with a value of the right form; keys without a
namespace, or in a namespace nova does not own, pass untouched (other
services and filters use them).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from oslo_utils import strutils

from nova import exception

Check = Callable[[str], bool]

_BOOL_STRINGS = {s.lower() for s in strutils.TRUE_STRINGS + strutils.FALSE_STRINGS}


def _boolean(value: str) -> bool:
    return value.strip().lower() in _BOOL_STRINGS


def _integer(minimum: int = 0) -> Check:
    def check(value: str) -> bool:
        try:
            return int(value) >= minimum
        except ValueError:
            return False

    return check


def _one_of(*choices: str) -> Check:
    return lambda value: value in choices


def _matches(pattern: str) -> Check:
    return lambda value: re.fullmatch(pattern, value) is not None


def _any(value: str) -> bool:
    return True


_CPU_SET = r"\^?\d+(-\d+)?(,\^?\d+(-\d+)?)*"
_MEM_PAGE_SIZE = r"(large|small|any|\d+([kKMGT]i?[Bb]?)?)"

# Full key (as a regular expression) -> check of its value.
VALIDATORS: dict[str, Check] = {
    # hw: guest hardware
    r"hw:cpu_policy": _one_of("shared", "dedicated", "mixed"),
    r"hw:cpu_thread_policy": _one_of("prefer", "isolate", "require"),
    r"hw:cpu_dedicated_mask": _matches(_CPU_SET),
    r"hw:cpu_realtime": _boolean,
    r"hw:cpu_realtime_mask": _matches(_CPU_SET),
    r"hw:emulator_threads_policy": _one_of("share", "isolate"),
    r"hw:hide_hypervisor_id": _boolean,
    r"hw:numa_nodes": _integer(1),
    r"hw:numa_cpus\.\d+": _matches(_CPU_SET),
    r"hw:numa_mem\.\d+": _integer(0),
    r"hw:pci_numa_affinity_policy": _one_of(
        "required", "preferred", "legacy", "socket"
    ),
    r"hw:mem_page_size": _matches(_MEM_PAGE_SIZE),
    r"hw:mem_encryption": _boolean,
    r"hw:mem_encryption_model": _one_of("amd-sev", "amd-sev-es"),
    r"hw:locked_memory": _boolean,
    r"hw:cpu_(sockets|cores|threads|max_sockets|max_cores|max_threads)": _integer(1),
    r"hw:cpu_model": _any,
    r"hw:watchdog_action": _one_of("none", "pause", "poweroff", "reset", "disabled"),
    r"hw:boot_menu": _boolean,
    r"hw:pmu": _boolean,
    r"hw:serial_port_count": _integer(0),
    r"hw:tpm_version": _one_of("1.2", "2.0"),
    r"hw:tpm_model": _one_of("tpm-tis", "tpm-crb"),
    r"hw:tpm_secret_security": _one_of("user", "host", "deployment"),
    r"hw:vif_multiqueue_enabled": _boolean,
    r"hw:virtio_packed_ring": _boolean,
    r"hw:viommu_model": _one_of("intel", "smmuv3", "virtio", "auto"),
    r"hw:maxphysaddr_mode": _one_of("passthrough", "emulate"),
    r"hw:maxphysaddr_bits": _integer(1),
    r"hw:sound_model": _any,
    r"hw:usb_model": _any,
    r"hw:redirected_usb_ports": _integer(0),
    r"hw:ephemeral_encryption": _boolean,
    r"hw:ephemeral_encryption_format": _one_of("luks"),
    r"hw:vtpm_secret_security": _one_of("user", "host", "deployment"),
    r"hw_rng:allowed": _boolean,
    r"hw_rng:rate_bytes": _integer(0),
    r"hw_rng:rate_period": _integer(0),
    r"hw_video:ram_max_mb": _integer(0),
    # quota: libvirt tuning of CPU, disk and network
    r"quota:cpu_(shares|period|quota)": _integer(0),
    r"quota:disk_(read|write|total)_(bytes|iops)_sec(_max|_max_length)?": _integer(0),
    r"quota:size_iops_sec": _integer(0),
    r"quota:vif_(inbound|outbound)_(average|peak|burst)": _integer(0),
    # Placement requests
    r"resources(\d+|_[a-zA-Z0-9_-]{1,64})?:[A-Z0-9_]+": _integer(0),
    r"trait(\d+|_[a-zA-Z0-9_-]{1,64})?:[a-zA-Z0-9_]+": _one_of("required", "forbidden"),
    r"group_policy": _one_of("none", "isolate"),
    # Scheduler filters and other consumers
    r"aggregate_instance_extra_specs:.+": _any,
    r"capabilities:.+": _any,
    r"os:secure_boot": _one_of("required", "disabled", "optional"),
    r"os:monitors": _any,
    r"accel:device_profile": _any,
    r"pci_passthrough:alias": _matches(r"[^:,]+:\d+(,[^:,]+:\d+)*"),
}

# Namespaces nova owns: an unknown key in one is a mistake.
NAMESPACES = (
    r"hw",
    r"hw_rng",
    r"hw_video",
    r"quota",
    r"resources(\d+|_[a-zA-Z0-9_-]{1,64})?",
    r"trait(\d+|_[a-zA-Z0-9_-]{1,64})?",
    r"aggregate_instance_extra_specs",
    r"capabilities",
    r"os",
    r"accel",
    r"pci_passthrough",
)


def validate(key: str, value: str) -> None:
    """:raises ValidationError: a known namespace's key or value is wrong."""
    for pattern, check in VALIDATORS.items():
        if re.fullmatch(pattern, key):
            if not check(value):
                raise exception.ValidationError(
                    detail=f"Validation failed; '{value}' is not a valid value "
                    f"for extra spec '{key}'."
                )
            return
    namespace, sep, _ = key.partition(":")
    if sep and any(re.fullmatch(ns, namespace) for ns in NAMESPACES):
        raise exception.ValidationError(
            detail=f"Validation failed; extra spec '{key}' does not appear to "
            "be a valid extra spec."
        )
