"""``[devices]``: mediated devices (vGPUs) offered to instances."""

from oslo_config import cfg

devices_group = cfg.OptGroup(
    "devices",
    title="Mediated device options",
    help="Mediated device types (e.g. vGPU types) the compute host offers.",
)

devices_opts = [
    cfg.ListOpt(
        "enabled_mdev_types",
        default=[],
        deprecated_name="enabled_vgpu_types",
        help="Mediated device types to offer. With more than one, each needs "
        "a ``[mdev_<type>]`` group naming its physical devices.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_group(devices_group)
    conf.register_opts(devices_opts, group=devices_group)


def list_opts() -> dict:
    return {devices_group: devices_opts}
