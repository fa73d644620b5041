"""``[pci]``: PCI passthrough devices."""

from oslo_config import cfg

pci_group = cfg.OptGroup(
    "pci",
    title="PCI passthrough options",
    help="Which host PCI devices instances may use and how flavors ask for them.",
)

pci_opts = [
    cfg.MultiStrOpt(
        "alias",
        default=[],
        deprecated_name="pci_alias",
        deprecated_group="DEFAULT",
        help="A name flavors use to request PCI devices, as a JSON object "
        "with ``name``, ``vendor_id``, ``product_id``, ``device_type`` … "
        "Repeat the option for several aliases.",
    ),
    cfg.MultiStrOpt(
        "device_spec",
        default=[],
        deprecated_opts=[
            cfg.DeprecatedOpt("passthrough_whitelist", group="pci"),
            cfg.DeprecatedOpt("pci_passthrough_whitelist", group="DEFAULT"),
        ],
        help="Host PCI devices available for passthrough, as JSON objects "
        "matching devices by address, vendor and product ids or device "
        "name. Repeat the option for several specifications.",
    ),
    cfg.BoolOpt(
        "report_in_placement",
        default=False,
        help="Report the passthrough devices to Placement as inventory.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_group(pci_group)
    conf.register_opts(pci_opts, group=pci_group)


def list_opts() -> dict:
    return {pci_group: pci_opts}
