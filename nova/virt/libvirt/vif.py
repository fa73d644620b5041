"""A guest's VIFs on this host: taps on Neutron's Open vSwitch bridge.

A port Neutron bound with ``vif_type=ovs`` is plugged as os-vif's OVS
plugin plugs one when it creates the port itself: a tap named
``tap<port id[:11]>`` is made here, added to the port's integration
bridge with the ``external_ids`` the OVS agent looks for (``iface-id``,
``attached-mac``, ``iface-status``, ``vm-uuid``), and the guest's domain
opens that tap (``<interface type='ethernet'>``, ``managed='no'``).

Why not libvirt's ``<virtualport type='openvswitch'>``: libvirtd runs its
own ``ovs-vsctl`` against the system's default database socket, while the
switch of a deployment (and of each test run) has its own; the tap made
here works alike on the kernel and the userspace (``netdev``) datapath.
Plugging and unplugging are idempotent, so a restart or a retry can
repeat them.
"""

from __future__ import annotations

import subprocess

from oslo_log import log as logging

import nova.conf
from nova import exception

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

VIF_TYPE_OVS = "ovs"
# The unbound types Neutron reports: the port has no place on this host.
VIF_TYPES_UNBOUND = ("unbound", "binding_failed")
# Linux's IFNAMSIZ less the terminating NUL.
DEVNAME_LENGTH = 14
IP_TIMEOUT = 30


def tap_name(vif) -> str:
    """The tap of ``vif``: the device name Neutron gave it, else
    ``tap`` + its port id, cut to fit a Linux interface name."""
    return (vif.get("devname") or f"tap{vif['id']}")[:DEVNAME_LENGTH]


def mtu(vif) -> int | None:
    network = vif.get("network") or {}
    value = (network.get("meta") or {}).get("mtu")
    return int(value) if value else None


def bridge(vif) -> str:
    """The integration bridge Neutron bound the port to."""
    details = vif.get("details") or {}
    network = vif.get("network") or {}
    return details.get("bridge_name") or network.get("bridge") or "br-int"


def check_pluggable(vif) -> None:
    """:raises VirtualInterfacePlugException: not a VIF this driver plugs."""
    vif_type = vif.get("type")
    if vif_type != VIF_TYPE_OVS:
        reason = (
            "the port is not bound to this host"
            if vif_type in VIF_TYPES_UNBOUND or not vif_type
            else f"vif_type {vif_type} is not supported"
        )
        raise exception.VirtualInterfacePlugException(
            reason=f"port {vif['id']}: {reason}"
        )


def _run(argv: list[str], timeout: float) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(
            argv, capture_output=True, text=True, timeout=timeout, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise exception.VirtualInterfacePlugException(
            reason=f"{argv[0]} failed: {exc}"
        ) from exc


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    result = _run(["ip", *args], IP_TIMEOUT)
    if check and result.returncode:
        raise exception.VirtualInterfacePlugException(
            reason=f"ip {' '.join(args)}: {result.stderr.strip()}"
        )
    return result


def _vsctl(*args: str) -> None:
    timeout = CONF.os_vif_ovs.ovs_vsctl_timeout
    argv = [
        "ovs-vsctl",
        f"--timeout={timeout}",
        f"--db={CONF.os_vif_ovs.ovsdb_connection}",
        *args,
    ]
    result = _run(argv, timeout + 5)
    if result.returncode:
        raise exception.VirtualInterfacePlugException(
            reason=f"ovs-vsctl {' '.join(args[:3])}: {result.stderr.strip()}"
        )


def _tap_exists(dev: str) -> bool:
    return _ip("link", "show", "dev", dev, check=False).returncode == 0


def plug(instance_uuid: str, vif) -> None:
    """Make ``vif``'s tap and put it on its bridge (already there: no-op)."""
    check_pluggable(vif)
    dev = tap_name(vif)
    if not _tap_exists(dev):
        _ip("tuntap", "add", "dev", dev, "mode", "tap", "vnet_hdr")
    link = ["link", "set", "dev", dev, "up"]
    if mtu(vif):
        link += ["mtu", str(mtu(vif))]
    _ip(*link)
    _vsctl(
        "--",
        "--may-exist",
        "add-port",
        bridge(vif),
        dev,
        "--",
        "set",
        "Interface",
        dev,
        f"external_ids:iface-id={vif.get('ovs_interfaceid') or vif['id']}",
        "external_ids:iface-status=active",
        f"external_ids:attached-mac={vif['address']}",
        f"external_ids:vm-uuid={instance_uuid}",
    )
    LOG.info("Plugged port %s of %s as %s on %s", vif["id"], instance_uuid, dev,
             bridge(vif))  # fmt: skip


def unplug_device(dev: str) -> None:
    """Take tap ``dev`` off its bridge and delete it; one that is not there
    is no error."""
    _vsctl("--if-exists", "del-port", dev)
    if _tap_exists(dev):
        _ip("link", "delete", "dev", dev, check=False)


def unplug(vif) -> None:
    unplug_device(tap_name(vif))
