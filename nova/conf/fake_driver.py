"""``[fake_driver]``: the host size the in-memory ``fake.FakeDriver`` reports.

Upstream's fake driver has a fixed size; ours is configurable so that one
process can pose as hosts of any size in tests and the all-in-one.
"""

from oslo_config import cfg

fake_driver_group = cfg.OptGroup(
    "fake_driver",
    title="Fake virt driver",
    help="The resources the in-memory fake.FakeDriver reports for its host.",
)

fake_driver_opts = [
    cfg.IntOpt("vcpus", default=1000, min=1, help="vCPUs of the fake host."),
    cfg.IntOpt("memory_mb", default=800000, min=1, help="Memory of the fake host."),
    cfg.IntOpt("local_gb", default=600000, min=1, help="Disk of the fake host."),
    cfg.BoolOpt(
        "fail_spawn",
        default=False,
        help="Make every spawn on this fake host fail, as a broken "
        "hypervisor would: builds are rescheduled to their alternates. "
        "For testing reschedules; only the fake driver reads it.",
    ),
    cfg.FloatOpt(
        "spawn_seconds",
        default=0.0,
        min=0.0,
        help="How long a spawn on this fake host takes, as a real guest's "
        "image download and boot would: gives tests of deletes, kills and "
        "restarts during builds a window to hit. Only the fake driver reads it.",
    ),
    cfg.PortOpt(
        "vnc_port",
        default=6969,
        help="Port the fake guests' VNC console is said to listen on, at "
        "``[vnc] server_proxyclient_address``.",
    ),
    cfg.PortOpt(
        "spice_port",
        default=6970,
        help="Port the fake guests' SPICE console is said to listen on, at "
        "``[spice] server_proxyclient_address``.",
    ),
    cfg.PortOpt(
        "spice_tls_port",
        default=6971,
        help="TLS port the fake guests' SPICE console is said to listen on.",
    ),
    cfg.PortOpt(
        "serial_port",
        default=6999,
        help="Port the fake guests' serial console is said to listen on, at "
        "``[serial_console] proxyclient_address``.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_group(fake_driver_group)
    conf.register_opts(fake_driver_opts, group=fake_driver_group)


def list_opts() -> dict:
    return {fake_driver_group: fake_driver_opts}
