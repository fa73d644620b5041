"""One upstream Nova scheduler answering select_destinations in-process.

Run by benchmarks/scheduler_scale_upstream with the interpreter of a venv
holding upstream Nova from PyPI (never this repository's ``nova``):

    python upstream_scheduler_worker.py NOVA_CONF REQUESTS

It builds upstream's SchedulerManager from ``NOVA_CONF``, answers one
warm-up request (which fills its host state cache), prints ``ready``, waits
for a line on stdin, answers REQUESTS requests one after another (each a
new instance of 1 VCPU, 512 MiB, 1 GiB, claimed in Placement, alternates
asked for, as the superconductor asks), and prints one JSON line: the
latencies, the elapsed time and its resident memory in MiB.
"""

import json
import sys
import time


def rss_mib() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main() -> int:
    config_file, requests = sys.argv[1], int(sys.argv[2])
    from oslo_utils import uuidutils

    import nova
    from nova import config, context, objects
    from nova.scheduler import manager

    if "site-packages" not in nova.__file__:
        raise SystemExit(f"{nova.__file__} is not upstream Nova from PyPI")

    config.parse_args(["upstream-scheduler", "--config-file", config_file])
    objects.register_all()
    ctxt = context.get_admin_context()
    scheduler = manager.SchedulerManager()
    flavor = objects.Flavor(
        id=1,
        flavorid="f1",
        name="f1",
        memory_mb=512,
        vcpus=1,
        root_gb=1,
        ephemeral_gb=0,
        swap=0,
        extra_specs={},
    )

    def decide() -> None:
        instance_uuid = uuidutils.generate_uuid()
        spec = objects.RequestSpec.from_components(
            ctxt,
            instance_uuid,
            {"properties": {}},
            flavor,
            None,  # numa topology
            None,  # pci requests
            {},  # filter properties
            None,  # instance group
            None,  # availability zone
            project_id="p",
            user_id="u",
        )
        scheduler.select_destinations(
            ctxt,
            spec_obj=spec,
            instance_uuids=[instance_uuid],
            return_objects=True,
            return_alternates=True,
        )

    decide()
    print("ready", flush=True)
    sys.stdin.readline()
    latencies = []
    began = time.monotonic()
    for _ in range(requests):
        t0 = time.monotonic()
        decide()
        latencies.append(time.monotonic() - t0)
    elapsed = time.monotonic() - began
    print(json.dumps({"latencies": latencies, "elapsed": elapsed, "rss": rss_mib()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
