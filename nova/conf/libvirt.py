"""``[libvirt]``: the libvirt virt driver."""

from oslo_config import cfg

libvirt_group = cfg.OptGroup(
    "libvirt",
    title="Libvirt driver options",
    help="Options of the libvirt driver (``compute_driver = libvirt.LibvirtDriver``).",
)

hypervisor_opts = [
    cfg.StrOpt(
        "virt_type",
        default="kvm",
        choices=[
            ("kvm", "Hardware-accelerated QEMU/KVM guests."),
            ("lxc", "Linux containers."),
            ("qemu", "QEMU guests under software emulation (TCG)."),
            ("parallels", "Virtuozzo/Parallels guests."),
        ],
        help="Kind of domains libvirt creates. ``qemu`` (software emulation) "
        "works where KVM does not.",
    ),
    cfg.StrOpt(
        "connection_uri",
        default="",
        help="libvirt URI to connect to; derived from ``virt_type`` when "
        "empty (e.g. ``qemu:///system``).",
    ),
    cfg.StrOpt(
        "cpu_mode",
        choices=[
            ("host-model", "Copy the host CPU model and features."),
            ("host-passthrough", "Pass the host CPU through unchanged."),
            ("custom", "Use one of ``cpu_models``."),
            ("none", "Let the hypervisor pick."),
        ],
        help="Guest CPU model policy. When unset, ``host-model`` for KVM "
        "and QEMU, ``none`` otherwise.",
    ),
    cfg.ListOpt(
        "cpu_models",
        default=[],
        deprecated_name="cpu_model",
        help="Named CPU models to offer with ``cpu_mode = custom``, from "
        "oldest to newest.",
    ),
    cfg.ListOpt(
        "cpu_model_extra_flags",
        default=[],
        help="CPU flags to add to (``+flag`` or ``flag``) or remove from "
        "(``-flag``) the guest CPU model.",
    ),
    cfg.ListOpt(
        "hw_machine_type",
        help="Default machine type per architecture, e.g. "
        "``x86_64=q35``. The image property ``hw_machine_type`` wins.",
    ),
    cfg.StrOpt(
        "sysinfo_serial",
        default="unique",
        choices=[
            ("none", "No serial number."),
            ("os", "The host's /etc/machine-id."),
            ("hardware", "The host's hardware UUID."),
            ("auto", "``os`` if machine-id is readable, else ``hardware``."),
            ("unique", "The instance's UUID."),
        ],
        help="Source of the system serial number shown to guests.",
    ),
    cfg.IntOpt(
        "mem_stats_period_seconds",
        default=10,
        help="Seconds between two guest memory statistics samples. 0 or "
        "less disables them.",
    ),
    cfg.IntOpt(
        "num_pcie_ports",
        default=0,
        min=0,
        max=28,
        help="PCIe root ports given to q35 guests for hotplug. 0 leaves it to libvirt.",
    ),
    cfg.IntOpt(
        "file_backed_memory",
        default=0,
        min=0,
        help="MiB of file-backed memory available for guests. 0 disables "
        "file-backed memory.",
    ),
    cfg.IntOpt(
        "rx_queue_size",
        choices=(256, 512, 1024),
        help="Receive queue size of virtio-net devices.",
    ),
    cfg.IntOpt(
        "tx_queue_size",
        choices=(256, 512, 1024),
        help="Transmit queue size of virtio-net devices (vhost-user only).",
    ),
    cfg.IntOpt(
        "max_queues",
        min=1,
        help="Most multiqueue virtio-net queues per interface. The kernel's "
        "limit when unset.",
    ),
    cfg.ListOpt(
        "disk_cachemodes",
        default=[],
        help="Cache mode per disk source type, e.g. ``file=directsync,"
        "block=none,network=writeback``.",
    ),
    cfg.StrOpt(
        "rng_dev_path",
        default="/dev/urandom",
        help="Host entropy source of guests' virtio RNG devices.",
    ),
    cfg.BoolOpt(
        "swtpm_enabled",
        default=False,
        help="Offer emulated TPM devices (needs swtpm).",
    ),
    cfg.StrOpt(
        "swtpm_user",
        default="tss",
        help="User the swtpm processes run as.",
    ),
    cfg.StrOpt(
        "swtpm_group",
        default="tss",
        help="Group the swtpm processes run as.",
    ),
    cfg.IntOpt(
        "wait_soft_reboot_seconds",
        default=120,
        help="Seconds a soft reboot waits for the guest to shut down before "
        "a hard reboot is done instead.",
    ),
    cfg.IntOpt(
        "device_detach_attempts",
        default=8,
        min=1,
        help="Times a device detach is requested from libvirt before it fails.",
    ),
    cfg.IntOpt(
        "device_detach_timeout",
        default=20,
        min=1,
        help="Seconds to wait for the guest to release a device after each "
        "detach request.",
    ),
]

image_opts = [
    cfg.StrOpt(
        "images_type",
        default="default",
        choices=("raw", "flat", "qcow2", "lvm", "rbd", "ploop", "default"),
        help="Backend of instance disks. ``default`` means qcow2 when "
        "``use_cow_images`` is on, else flat.",
    ),
    cfg.StrOpt(
        "images_volume_group",
        help="LVM volume group for ``images_type = lvm``.",
    ),
    cfg.StrOpt(
        "images_rbd_pool",
        default="rbd",
        help="Ceph pool for ``images_type = rbd``.",
    ),
    cfg.StrOpt(
        "images_rbd_ceph_conf",
        default="",
        help="Ceph configuration file for ``images_type = rbd``.",
    ),
    cfg.StrOpt(
        "rbd_user",
        help="Ceph user for RBD disks and volumes.",
    ),
    cfg.StrOpt(
        "rbd_secret_uuid",
        help="UUID of the libvirt secret holding the Ceph user's key.",
    ),
    cfg.IntOpt(
        "rbd_connect_timeout",
        default=5,
        help="Seconds to wait for the Ceph cluster.",
    ),
    cfg.StrOpt(
        "snapshot_image_format",
        choices=[
            ("raw", "Raw disk image."),
            ("qcow2", "QCOW2 image."),
            ("vmdk", "VMDK image."),
            ("vdi", "VDI image."),
        ],
        help="Format of snapshot images; the backend's format when unset.",
    ),
    cfg.StrOpt(
        "snapshots_directory",
        default="$instances_path/snapshots",
        help="Directory where snapshots are staged before upload.",
    ),
    cfg.StrOpt(
        "disk_prefix",
        help="Overrides the guest device name prefix (``vd``, ``sd``, ``hd``).",
    ),
    cfg.StrOpt(
        "hw_disk_discard",
        choices=[
            ("ignore", "Ignore discard requests."),
            ("unmap", "Pass discard requests to the backend."),
        ],
        help="Discard (TRIM) handling of instance disks.",
    ),
    cfg.BoolOpt(
        "inject_password",
        default=False,
        help="Write the admin password into the instance's disk at boot.",
    ),
    cfg.BoolOpt(
        "inject_key",
        default=False,
        help="Write the SSH key into the instance's disk at boot.",
    ),
    cfg.IntOpt(
        "inject_partition",
        default=-2,
        min=-2,
        help="Partition injection writes into: -2 disables injection, -1 "
        "finds the root partition, 0 uses the whole disk, N the Nth "
        "partition.",
    ),
    cfg.StrOpt(
        "volume_clear",
        default="zero",
        choices=[
            ("zero", "Overwrite with zeros."),
            ("shred", "Overwrite repeatedly with random data."),
            ("none", "Do not wipe."),
        ],
        help="How deleted LVM-backed ephemeral disks are wiped.",
    ),
    cfg.IntOpt(
        "volume_clear_size",
        default=0,
        min=0,
        help="MiB wiped from the start of such a disk. 0 wipes it all.",
    ),
    cfg.StrOpt(
        "nfs_mount_point_base",
        default="$state_path/mnt",
        help="Directory where NFS volumes are mounted on the compute host.",
    ),
    cfg.BoolOpt(
        "volume_use_multipath",
        default=False,
        help="Attach volumes over multipath where the backend offers it.",
    ),
    cfg.StrOpt(
        "remote_filesystem_transport",
        default="ssh",
        choices=("ssh", "rsync"),
        help="Tool used to copy disks between hosts on resize and cold migration.",
    ),
]

live_migration_opts = [
    cfg.HostAddressOpt(
        "live_migration_inbound_addr",
        help="Address other hosts use to send live migrations to this one. "
        "The host name when unset.",
    ),
    cfg.StrOpt(
        "live_migration_scheme",
        help="URI scheme of the migration connection (e.g. ``tls``); the "
        "driver's default when unset.",
    ),
    cfg.BoolOpt(
        "live_migration_tunnelled",
        default=False,
        help="Carry migration data through the libvirtd connection instead "
        "of a direct hypervisor connection.",
    ),
    cfg.BoolOpt(
        "live_migration_with_native_tls",
        default=False,
        help="Encrypt migration data with QEMU's native TLS.",
    ),
    cfg.IntOpt(
        "live_migration_bandwidth",
        default=0,
        min=0,
        help="Migration bandwidth cap in MiB/s. 0 means no cap.",
    ),
    cfg.IntOpt(
        "live_migration_downtime",
        default=500,
        min=100,
        help="Most milliseconds the guest may be paused at the end of a live "
        "migration.",
    ),
    cfg.IntOpt(
        "live_migration_downtime_steps",
        default=10,
        min=3,
        help="Steps in which the allowed downtime grows to its maximum.",
    ),
    cfg.IntOpt(
        "live_migration_downtime_delay",
        default=75,
        min=3,
        help="Seconds per GiB of guest RAM between two downtime steps.",
    ),
    cfg.IntOpt(
        "live_migration_completion_timeout",
        default=800,
        min=0,
        mutable=True,
        help="Seconds per GiB of guest RAM after which an unfinished live "
        "migration gets ``live_migration_timeout_action``. 0 disables it.",
    ),
    cfg.StrOpt(
        "live_migration_timeout_action",
        default="abort",
        choices=[
            ("abort", "Cancel the migration."),
            ("force_complete", "Pause the guest or switch to post-copy."),
        ],
        mutable=True,
        help="What happens to a live migration that times out.",
    ),
    cfg.BoolOpt(
        "live_migration_permit_post_copy",
        default=False,
        help="Allow switching to post-copy to finish a migration that does "
        "not converge.",
    ),
    cfg.BoolOpt(
        "live_migration_permit_auto_converge",
        default=False,
        help="Allow throttling the guest's CPUs to make a migration converge.",
    ),
]

ALL_OPTS = hypervisor_opts + image_opts + live_migration_opts


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_group(libvirt_group)
    conf.register_opts(ALL_OPTS, group=libvirt_group)


def list_opts() -> dict:
    return {libvirt_group: ALL_OPTS}
