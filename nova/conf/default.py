"""Options of the ``[DEFAULT]`` group owned by nova.

oslo.log and oslo.messaging put their own options into ``[DEFAULT]`` too
(``debug``, ``log_file``, ``transport_url``, ``rpc_response_timeout``, …);
those are registered by ``nova.conf`` itself and by ``nova.config`` and are
not repeated here.
"""

import os
import socket
import sys

from oslo_config import cfg, types
from oslo_utils import netutils

_NOVA_PARENT_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

path_opts = [
    cfg.StrOpt(
        "pybasedir",
        default=_NOVA_PARENT_DIR,
        sample_default="<Path>",
        help="Directory that contains the nova Python package. Other paths "
        "may be built from it with ``$pybasedir``.",
    ),
    cfg.StrOpt(
        "bindir",
        default=os.path.join(sys.prefix, "local", "bin"),
        sample_default="<sys.prefix>/local/bin",
        help="Directory where nova's helper executables are installed.",
    ),
    cfg.StrOpt(
        "state_path",
        default="$pybasedir",
        help="Top-level directory for nova's persistent state (instances, "
        "mounts, locks). Other paths may refer to it as ``$state_path``.",
    ),
    cfg.StrOpt(
        "instances_path",
        default=os.path.join("$state_path", "instances"),
        help="Directory on the compute host where instance disks, console "
        "logs and the image cache (see ``[image_cache] subdirectory_name``) "
        "are kept.",
    ),
    cfg.StrOpt(
        "tempdir",
        help="Working directory for temporary files; the system default when unset.",
    ),
]

host_opts = [
    cfg.HostDomainOpt(
        "host",
        default=socket.gethostname(),
        sample_default="<current_hostname>",
        help="Name of this node as the other services know it: the key of its "
        "service record, its RPC topic suffix and, for compute hosts, the "
        "host of its instances. Must be unique within a cell and must not "
        "change while instances exist on the host.",
    ),
    cfg.IPOpt(
        "my_ip",
        default=netutils.get_my_ipv4(),
        sample_default="<host_ipv4>",
        help="IP address of this host on the management network. Used as the "
        "default for other addresses such as the console proxy client "
        "address and live migration target.",
    ),
    cfg.StrOpt(
        "my_block_storage_ip",
        default="$my_ip",
        help="IP address this host uses to reach block storage.",
    ),
    cfg.BoolOpt(
        "flat_injected",
        default=False,
        help="Write a static network configuration into the instance's disk "
        "(or config drive) at boot, for networks without DHCP.",
    ),
    cfg.StrOpt(
        "console_host",
        default=socket.gethostname(),
        sample_default="<current_hostname>",
        help="Host name under which this compute host's consoles are published.",
    ),
]

service_opts = [
    cfg.IntOpt(
        "report_interval",
        default=10,
        help="Seconds between two heartbeats a service writes to show it is "
        "alive. Must be well below ``service_down_time``.",
    ),
    cfg.IntOpt(
        "service_down_time",
        default=60,
        help="A service whose last heartbeat is older than this many seconds "
        "is considered down.",
    ),
    cfg.StrOpt(
        "servicegroup_driver",
        default="db",
        choices=[
            ("db", "Heartbeats are stored in the database."),
            ("mc", "Heartbeats are stored in memcached."),
        ],
        help="Where service heartbeats are recorded.",
    ),
    cfg.BoolOpt(
        "periodic_enable",
        default=True,
        help="Run the periodic tasks of a service (resource reporting, power "
        "state sync, cleanup …).",
    ),
    cfg.IntOpt(
        "periodic_fuzzy_delay",
        default=60,
        min=0,
        help="Wait a random number of seconds, up to this value, before the "
        "first periodic task run, so that many services started together do "
        "not all run their tasks at the same moment. 0 disables the delay.",
    ),
    cfg.IntOpt(
        "graceful_shutdown_timeout",
        default=60,
        min=0,
        help="Seconds a stopping service waits for requests and tasks in "
        "progress to finish before it exits anyway. 0 waits forever.",
    ),
    cfg.ListOpt(
        "enabled_apis",
        item_type=types.String(choices=["osapi_compute", "metadata"]),
        default=["osapi_compute", "metadata"],
        help="APIs served by the API service when it is started as one process.",
    ),
    cfg.ListOpt(
        "enabled_ssl_apis",
        default=[],
        help="APIs among ``enabled_apis`` that are served over TLS.",
    ),
    cfg.HostAddressOpt(
        "osapi_compute_listen",
        default="0.0.0.0",
        help="Address the compute API listens on.",
    ),
    cfg.PortOpt(
        "osapi_compute_listen_port",
        default=8774,
        help="Port the compute API listens on.",
    ),
    cfg.IntOpt(
        "osapi_compute_workers",
        min=1,
        help="Number of worker processes of the compute API; the number of "
        "CPUs when unset.",
    ),
    cfg.HostAddressOpt(
        "metadata_listen",
        default="0.0.0.0",
        help="Address the metadata API listens on.",
    ),
    cfg.PortOpt(
        "metadata_listen_port",
        default=8775,
        help="Port the metadata API listens on.",
    ),
    cfg.IntOpt(
        "metadata_workers",
        min=1,
        help="Number of worker processes of the metadata API; the number of "
        "CPUs when unset.",
    ),
    cfg.IntOpt(
        "long_rpc_timeout",
        default=1800,
        help="Timeout in seconds for RPC calls known to take long (for "
        "example the pre-checks of a live migration). Other calls use "
        "``rpc_response_timeout``.",
    ),
    cfg.StrOpt(
        "rootwrap_config",
        default="/etc/nova/rootwrap.conf",
        help="Path of the rootwrap configuration file used to run commands as root.",
    ),
    cfg.BoolOpt(
        "use_rootwrap_daemon",
        default=False,
        help="Keep a rootwrap daemon running instead of starting rootwrap for "
        "each privileged command.",
    ),
]

availability_zone_opts = [
    cfg.StrOpt(
        "internal_service_availability_zone",
        default="internal",
        help="Availability zone reported for services other than "
        "nova-compute (scheduler, conductor …). Must differ from every zone "
        "that holds compute hosts.",
    ),
    cfg.StrOpt(
        "default_availability_zone",
        default="nova",
        help="Availability zone of compute hosts that belong to no "
        "aggregate with an ``availability_zone`` key.",
    ),
    cfg.StrOpt(
        "default_schedule_zone",
        help="Availability zone given to a new server whose request names "
        "none. When unset the server may land in any zone.",
    ),
]

capacity_opts = [
    cfg.FloatOpt(
        "cpu_allocation_ratio",
        min=0.0,
        help="Virtual CPUs per physical CPU this compute host reports to "
        "Placement. When unset, a new host reports "
        "``initial_cpu_allocation_ratio`` and later leaves the value in "
        "Placement alone, so it can be changed there.",
    ),
    cfg.FloatOpt(
        "ram_allocation_ratio",
        min=0.0,
        help="Virtual RAM per physical RAM this compute host reports to "
        "Placement. When unset, ``initial_ram_allocation_ratio`` applies to "
        "new hosts only.",
    ),
    cfg.FloatOpt(
        "disk_allocation_ratio",
        min=0.0,
        help="Virtual disk per physical disk this compute host reports to "
        "Placement. When unset, ``initial_disk_allocation_ratio`` applies to "
        "new hosts only.",
    ),
    cfg.FloatOpt(
        "initial_cpu_allocation_ratio",
        default=4.0,
        min=0.0,
        help="CPU allocation ratio of a newly created compute node when "
        "``cpu_allocation_ratio`` is unset.",
    ),
    cfg.FloatOpt(
        "initial_ram_allocation_ratio",
        default=1.0,
        min=0.0,
        help="RAM allocation ratio of a newly created compute node when "
        "``ram_allocation_ratio`` is unset.",
    ),
    cfg.FloatOpt(
        "initial_disk_allocation_ratio",
        default=1.0,
        min=0.0,
        help="Disk allocation ratio of a newly created compute node when "
        "``disk_allocation_ratio`` is unset.",
    ),
    cfg.IntOpt(
        "reserved_host_memory_mb",
        default=512,
        min=0,
        help="Memory in MiB kept back for the host itself and reported to "
        "Placement as reserved.",
    ),
    cfg.IntOpt(
        "reserved_host_disk_mb",
        default=0,
        min=0,
        help="Disk in MiB kept back for the host itself and reported to "
        "Placement as reserved.",
    ),
    cfg.IntOpt(
        "reserved_host_cpus",
        default=0,
        min=0,
        help="Number of host CPUs kept back for the host itself and reported "
        "to Placement as reserved VCPU.",
    ),
    cfg.MultiOpt(
        "reserved_huge_pages",
        item_type=types.Dict(),
        help="Huge pages to keep back per host NUMA node, one entry per "
        "node and page size, e.g. ``node:0,size:2048,count:64``.",
    ),
    cfg.ListOpt(
        "compute_monitors",
        default=[],
        help="Metric monitors the compute host loads (e.g. "
        "``cpu.virt_driver``). Empty disables metric collection.",
    ),
]

compute_manager_opts = [
    cfg.StrOpt(
        "compute_driver",
        help="Virtualization driver of nova-compute, named as upstream names "
        "it: ``libvirt.LibvirtDriver`` or ``fake.FakeDriver``.",
    ),
    cfg.StrOpt(
        "instance_name_template",
        default="instance-%08x",
        help="Template of the name an instance gets on the hypervisor; it is "
        "formatted with the instance's integer id (and may use "
        "``%(id)s``/``%(uuid)s`` style keys).",
    ),
    cfg.BoolOpt(
        "allow_resize_to_same_host",
        default=False,
        help="Let a resize pick the host the instance already runs on. "
        "Useful on single-host clouds and with the server group affinity "
        "filter.",
    ),
    cfg.ListOpt(
        "non_inheritable_image_properties",
        default=[
            "cache_in_nova",
            "bittorrent",
        ],
        help="Image properties that a snapshot does not copy from the image "
        "its instance was booted from. Signature properties are never "
        "copied.",
    ),
    cfg.IntOpt(
        "max_local_block_devices",
        default=3,
        help="Most local disks (root, ephemeral, swap) one server may ask "
        "for. Negative means unlimited; 0 forbids local disks.",
    ),
    cfg.StrOpt(
        "default_ephemeral_format",
        help="Filesystem created on new ephemeral disks (ext2, ext3, ext4, "
        "xfs, ntfs). Driver-specific when unset.",
    ),
    cfg.StrOpt(
        "default_access_ip_network_name",
        help="Name of the network whose addresses fill a server's "
        "accessIPv4/accessIPv6 fields.",
    ),
    cfg.IntOpt(
        "max_concurrent_builds",
        default=10,
        min=0,
        help="Most instance builds a compute host runs at once. 0 means unlimited.",
    ),
    cfg.IntOpt(
        "max_concurrent_snapshots",
        default=5,
        min=0,
        help="Most snapshots a compute host takes at once. 0 means unlimited.",
    ),
    cfg.IntOpt(
        "max_concurrent_live_migrations",
        default=1,
        min=0,
        help="Most outgoing live migrations a compute host runs at once. 0 "
        "means unlimited.",
    ),
    cfg.IntOpt(
        "live_migration_retry_count",
        default=30,
        min=0,
        help="Times a live migration retries plugging the instance's network "
        "on the destination before it fails.",
    ),
    cfg.IntOpt(
        "migrate_max_retries",
        default=-1,
        min=-1,
        help="Times a live migration is retried after a retriable failure. "
        "-1 means no limit, 0 no retry.",
    ),
    cfg.BoolOpt(
        "resume_guests_state_on_host_boot",
        default=False,
        help="When nova-compute starts after a host reboot, start again the "
        "instances that were running before it.",
    ),
    cfg.IntOpt(
        "network_allocate_retries",
        default=0,
        min=0,
        help="Times a failed network allocation for a new instance is retried.",
    ),
    cfg.IntOpt(
        "block_device_allocate_retries",
        default=60,
        min=0,
        help="Times the compute host checks whether a new volume has become "
        "available before giving up on the build.",
    ),
    cfg.IntOpt(
        "block_device_allocate_retries_interval",
        default=3,
        min=0,
        help="Seconds between two of those checks.",
    ),
    cfg.BoolOpt(
        "vif_plugging_is_fatal",
        default=True,
        help="Fail a build when Neutron does not confirm the port is plugged "
        "within ``vif_plugging_timeout``; otherwise boot anyway.",
    ),
    cfg.IntOpt(
        "vif_plugging_timeout",
        default=300,
        min=0,
        help="Seconds to wait for Neutron's network-vif-plugged events. 0 "
        "does not wait.",
    ),
    cfg.IntOpt(
        "arq_binding_timeout",
        default=300,
        min=1,
        help="Seconds to wait for accelerator requests to be bound.",
    ),
    cfg.BoolOpt(
        "instance_usage_audit",
        default=False,
        help="Emit periodic compute.instance.exists usage notifications.",
    ),
    cfg.StrOpt(
        "instance_usage_audit_period",
        default="month",
        regex=r"^(hour|month|day|year)(@([0-9]+))?$",
        help="Period of those usage audits: hour, day, month or year, "
        "optionally with an offset such as ``month@15``.",
    ),
    cfg.IntOpt(
        "password_length",
        default=12,
        min=0,
        help="Length of generated instance admin passwords.",
    ),
    cfg.StrOpt(
        "running_deleted_instance_action",
        default="reap",
        choices=[
            ("reap", "Power off the instance and destroy it."),
            ("log", "Only log a warning."),
            ("shutdown", "Power off the instance."),
            ("noop", "Do nothing."),
        ],
        help="What the compute host does with an instance it finds running "
        "although the database says it was deleted.",
    ),
    cfg.IntOpt(
        "running_deleted_instance_poll_interval",
        default=1800,
        help="Seconds between two searches for such instances. 0 disables the search.",
    ),
    cfg.IntOpt(
        "running_deleted_instance_timeout",
        default=0,
        min=0,
        help="Seconds an instance must have been deleted before it is "
        "handled as running-deleted.",
    ),
    cfg.IntOpt(
        "maximum_instance_delete_attempts",
        default=5,
        min=1,
        help="Times the compute host retries cleaning up the files of a "
        "deleted instance.",
    ),
]

periodic_opts = [
    cfg.IntOpt(
        "sync_power_state_interval",
        default=600,
        help="Seconds between two comparisons of the power state in the "
        "database with the hypervisor's. Negative disables it.",
    ),
    cfg.IntOpt(
        "sync_power_state_pool_size",
        default=1000,
        help="Most instances whose power state is synced at the same time.",
    ),
    cfg.IntOpt(
        "heal_instance_info_cache_interval",
        default=60,
        help="Seconds between two refreshes of one instance's cached network "
        "information from Neutron. 0 or negative disables it.",
    ),
    cfg.IntOpt(
        "reclaim_instance_interval",
        default=0,
        help="Seconds a soft-deleted instance is kept before it is deleted "
        "for good. 0 or less deletes at once (no soft delete).",
    ),
    cfg.IntOpt(
        "volume_usage_poll_interval",
        default=0,
        help="Seconds between two volume usage polls. 0 disables them.",
    ),
    cfg.IntOpt(
        "shelved_poll_interval",
        default=3600,
        help="Seconds between two searches for shelved instances to offload. "
        "Negative disables it.",
    ),
    cfg.IntOpt(
        "shelved_offload_time",
        default=0,
        min=-1,
        help="Seconds a shelved instance stays on its host before it is "
        "offloaded. 0 offloads at once, -1 never.",
    ),
    cfg.IntOpt(
        "instance_delete_interval",
        default=300,
        help="Seconds between two retries of failed instance file cleanups. "
        "0 disables them.",
    ),
    cfg.IntOpt(
        "scheduler_instance_sync_interval",
        default=120,
        help="Seconds between two reports of a compute host's instance list "
        "to the scheduler.",
    ),
    cfg.IntOpt(
        "update_resources_interval",
        default=0,
        help="Seconds between two updates of the host's resources in "
        "Placement. 0 uses the periodic task default, negative disables "
        "them.",
    ),
]

timeout_opts = [
    cfg.IntOpt(
        "reboot_timeout",
        default=0,
        min=0,
        help="Seconds after which an instance stuck rebooting is hard "
        "rebooted. 0 disables the check.",
    ),
    cfg.IntOpt(
        "instance_build_timeout",
        default=0,
        min=0,
        help="Seconds after which an instance still building is set to "
        "ERROR. 0 disables the check.",
    ),
    cfg.IntOpt(
        "rescue_timeout",
        default=0,
        min=0,
        help="Seconds after which a rescued instance is unrescued. 0 disables it.",
    ),
    cfg.IntOpt(
        "resize_confirm_window",
        default=0,
        min=0,
        help="Seconds after which a resize left unconfirmed is confirmed "
        "automatically. 0 disables it.",
    ),
    cfg.IntOpt(
        "shutdown_timeout",
        default=60,
        min=0,
        help="Seconds an instance is given to shut down cleanly before it is "
        "powered off. The image property ``os_shutdown_timeout`` overrides "
        "it. 0 powers off at once.",
    ),
]

image_opts = [
    cfg.StrOpt(
        "preallocate_images",
        default="none",
        choices=[
            ("none", "Allocate storage on demand."),
            ("space", "Allocate an instance disk's full size at creation."),
        ],
        help="Whether instance disks get their storage allocated up front.",
    ),
    cfg.BoolOpt(
        "use_cow_images",
        default=True,
        help="Create instance disks as copy-on-write overlays over a cached "
        "base image.",
    ),
    cfg.BoolOpt(
        "force_raw_images",
        default=True,
        help="Convert cached base images to raw format.",
    ),
    cfg.MultiStrOpt(
        "virt_mkfs",
        default=[],
        help="Command that formats ephemeral disks of an OS type, as "
        "``<os_type>=<mkfs command>``.",
    ),
    cfg.BoolOpt(
        "resize_fs_using_block_device",
        default=False,
        help="Grow the filesystem of a resized disk from the host through a "
        "block device.",
    ),
    cfg.IntOpt(
        "timeout_nbd",
        default=10,
        min=0,
        help="Seconds to wait for an NBD device to come up.",
    ),
    cfg.StrOpt(
        "pointer_model",
        default="usbtablet",
        choices=[
            (None, "The driver's default pointer."),
            ("ps2mouse", "A PS/2 mouse (relative movement)."),
            ("usbtablet", "A USB tablet (absolute movement)."),
        ],
        help="Pointer device given to guests; the image property "
        "``hw_pointer_model`` wins over it.",
    ),
    cfg.StrOpt(
        "injected_network_template",
        default="$pybasedir/nova/virt/interfaces.template",
        help="Template of the Debian-style interfaces file written when "
        "``flat_injected`` is set.",
    ),
    cfg.StrOpt(
        "config_drive_format",
        default="iso9660",
        choices=[
            ("iso9660", "An ISO 9660 image."),
            ("vfat", "A 64 MiB VFAT image (needs dosfstools and mtools)."),
        ],
        help="Format of config drives, as upstream names them: iso9660 is "
        "built in process (pycdlib), vfat with mkfs.vfat and mcopy. libvirt "
        "attaches an iso9660 drive as a cdrom and a vfat one as a disk.",
    ),
    cfg.BoolOpt(
        "force_config_drive",
        default=False,
        help="Give every new instance a config drive, whether or not it asks for one.",
    ),
    cfg.StrOpt(
        "mkisofs_cmd",
        default="genisoimage",
        help="Upstream's program for ISO 9660 config drives; accepted and "
        "unused, as pycdlib builds them in process.",
    ),
]

ALL_OPTS = (
    path_opts
    + host_opts
    + service_opts
    + availability_zone_opts
    + capacity_opts
    + compute_manager_opts
    + periodic_opts
    + timeout_opts
    + image_opts
)


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_opts(ALL_OPTS)


def list_opts() -> dict:
    return {"DEFAULT": ALL_OPTS}
