"""Run real Tempest's compute API tests against a launched local cloud.

Usage (the cloud started with ``nova-local-cloud start``)::

    .venv/bin/pip install tempest          # not part of the test extra
    .venv/bin/python tests/tempest/run_tempest.py \\
        --clouds-yaml STATE/clouds.yaml --cloud local \\
        --workspace /tmp/tempest-ws [--regex REGEX] [--concurrency 2]

It makes what Tempest needs in the cloud (two flavors, two small public
images in Glance), writes ``tempest.conf`` from ``tempest.conf.template``
beside this file (neutron, cinder and swift disabled; dynamic credentials
through the admin user; feature flags from :data:`COMPUTE_FEATURES`; the
scheduler filters the deployment's ``nova.conf`` enables), runs ``tempest
run``, saves the run as ``last-run.subunit`` in the workspace and prints the
pass/fail/skip counts with every failure's test id.
"""

from __future__ import annotations

import argparse
import configparser
import os
import re
import string
import subprocess
import sys
from pathlib import Path

import yaml
from keystoneauth1 import loading, session

HERE = Path(__file__).parent
DEFAULT_REGEX = r"^tempest\.api\.compute\."
FLAVORS = (
    # (flavorid, name, ram MiB, vcpus, disk GiB)
    ("tempest-1", "tempest.tiny", 128, 1, 1),
    ("tempest-2", "tempest.small", 192, 1, 2),
)
# image_ref and image_ref_alt: rebuild and image-list tests need two.
IMAGE_NAMES = ("tempest-image", "tempest-image-alt")

# Tempest's [compute-feature-enabled] flags, the one place that says which
# optional compute features this deployment has. Flip a flag to True when
# the feature is implemented; Tempest then runs its tests.
COMPUTE_FEATURES: dict[str, bool] = {
    # Implemented.
    "console_output": True,
    "pause": True,
    "suspend": True,
    "disk_config": True,
    "enable_instance_password": True,
    "change_password": True,
    "snapshot": True,
    "shelve": True,
    "rescue": True,
    # The fake driver's guests have no VNC server behind the console proxy.
    "vnc_console": False,
    "serial_console": False,
    "spice_console": False,
    # Shelve then migrate; rescue of volume-backed servers (2.87).
    "shelve_migrate": False,
    "stable_rescue": False,
    # Moving servers between hosts (fake driver; libvirt moves to come).
    "resize": True,
    "cold_migration": True,
    "live_migration": True,
    "live_migrate_back_and_forth": False,
    "block_migration_for_live_migration": False,
    "can_migrate_between_any_hosts": False,
    # Needs Neutron / Cinder / the metadata service over a network.
    "interface_attach": False,
    "attach_encrypted_volume": False,
    "swap_volume": False,
    "volume_backed_live_migration": False,
    "volume_multiattach": False,
    "metadata_service": False,
    "config_drive": False,
    # Checked inside the guest over SSH: no guest networking here.
    "hostname_fqdn_sanitization": False,
    # Removed upstream (2.57).
    "personality": False,
}


def _session(cloud: dict) -> session.Session:
    auth = loading.get_plugin_loader("password").load_from_options(**cloud["auth"])
    return session.Session(auth=auth)


def _compute(sess: session.Session, method: str, path: str, **kwargs):
    return sess.request(
        path,
        method,
        endpoint_filter={"service_type": "compute", "interface": "public"},
        headers={"OpenStack-API-Version": "compute 2.1"},
        raise_exc=False,
        **kwargs,
    )


def ensure_flavors(sess: session.Session) -> list[str]:
    """The flavors Tempest boots servers with (created once)."""
    for flavorid, name, ram, vcpus, disk in FLAVORS:
        if _compute(sess, "GET", f"/flavors/{flavorid}").status_code == 200:
            continue
        body = {"flavor": {"id": flavorid, "name": name, "ram": ram,
                           "vcpus": vcpus, "disk": disk}}  # fmt: skip
        response = _compute(sess, "POST", "/flavors", json=body)
        response.raise_for_status()
    return [flavorid for flavorid, *_ in FLAVORS]


def ensure_image(sess: session.Session, name: str) -> str:
    """A small public raw image in Glance, active."""
    image_filter = {"service_type": "image", "interface": "public"}
    found = sess.get(f"/v2/images?name={name}", endpoint_filter=image_filter)
    images = found.json()["images"]
    if images and images[0]["status"] == "active":
        return images[0]["id"]
    image = sess.post(
        "/v2/images",
        endpoint_filter=image_filter,
        json={
            "name": name,
            "disk_format": "raw",
            "container_format": "bare",
            "visibility": "public",
            "min_disk": 0,
            "min_ram": 0,
        },  # fmt: skip
    ).json()
    sess.put(
        f"/v2/images/{image['id']}/file",
        endpoint_filter=image_filter,
        data=b"\0" * 1024 * 1024,
        headers={"Content-Type": "application/octet-stream"},
    )
    return image["id"]


def compute_host_count(sess: session.Session) -> int:
    """How many compute services are up: Tempest's ``min_compute_nodes``."""
    services = _compute(sess, "GET", "/os-services?binary=nova-compute")
    services.raise_for_status()
    return sum(1 for s in services.json()["services"] if s["state"] == "up")


def enabled_filters(nova_conf: Path | None) -> list[str]:
    """``[filter_scheduler] enabled_filters`` of the deployment's nova.conf,
    else our default (what the scheduler then runs)."""
    if nova_conf is not None and nova_conf.exists():
        parser = configparser.ConfigParser(interpolation=None, strict=False)
        parser.read(nova_conf)
        value = parser.get("filter_scheduler", "enabled_filters", fallback=None)
        if value is not None:
            return [name.strip() for name in value.split(",") if name.strip()]
    from nova.conf import filter_scheduler

    (options,) = filter_scheduler.list_opts().values()
    (option,) = (opt for opt in options if opt.name == "enabled_filters")
    return list(option.default)


def render_features(features: dict[str, bool], filters: list[str]) -> str:
    """The ``[compute-feature-enabled]`` section's option lines."""
    lines = [f"{name} = {enabled}" for name, enabled in sorted(features.items())]
    lines.append(f"scheduler_enabled_filters = {','.join(filters)}")
    return "\n".join(lines)


def write_conf(
    workspace: Path,
    cloud: dict,
    images: list[str],
    flavors: list[str],
    min_compute_nodes: int,
    filters: list[str],
) -> None:
    auth = cloud["auth"]
    template = string.Template((HERE / "tempest.conf.template").read_text())
    conf = template.substitute(
        workspace=workspace,
        auth_url=auth["auth_url"],
        admin_username=auth["username"],
        admin_password=auth["password"],
        admin_project_name=auth["project_name"],
        region=cloud.get("region_name", "RegionOne"),
        image_ref=images[0],
        image_ref_alt=images[1],
        min_compute_nodes=min_compute_nodes,
        compute_features=render_features(COMPUTE_FEATURES, filters),
        flavor_ref=flavors[0],
        flavor_ref_alt=flavors[1],
    )
    (workspace / "etc").mkdir(parents=True, exist_ok=True)
    (workspace / "etc" / "tempest.conf").write_text(conf)


# subunit-trace lines: "{worker} test.id [1.2s] ... ok" and, for a class
# whose set-up failed or skipped, "{worker} setUpClass (class.path) ... ".
_RESULT = re.compile(r"^\{\d+\} (.+?) (?:\[[\d.]+s\] )?\.\.\. (ok|FAILED|SKIPPED)")
_TOTAL = re.compile(r"^ - (Passed|Skipped|Failed): (\d+)$", re.MULTILINE)


def summarize(output: str) -> tuple[dict[str, int], list[str]]:
    """The run's totals (Passed/Skipped/Failed) and the failed test ids."""
    totals = {name: int(count) for name, count in _TOTAL.findall(output)}
    failed = [
        found.group(1)
        for found in map(_RESULT.match, output.splitlines())
        if found and found.group(2) == "FAILED"
    ]
    return totals, failed


def workspace_name(workspace: Path) -> str:
    """Tempest's registry (~/.tempest/workspace.yaml) names workspaces; a
    name from the whole path keeps two with one basename apart."""
    return str(workspace).strip("/").replace("/", "-")


def init_workspace(workspace: Path) -> None:
    """``tempest init`` the directory, forgetting a stale registration of
    the same name first (a workspace deleted by hand stays registered)."""
    tempest = str(Path(sys.executable).parent / "tempest")
    name = workspace_name(workspace)
    subprocess.run(
        [tempest, "workspace", "remove", "--name", name], capture_output=True
    )
    workspace.mkdir(parents=True, exist_ok=True)
    subprocess.run([tempest, "init", "--name", name, str(workspace)], check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clouds-yaml", required=True, type=Path)
    parser.add_argument(
        "--nova-conf",
        type=Path,
        default=None,
        help="the deployment's API-level nova.conf (default: nova/nova.conf "
        "beside clouds.yaml, as nova-local-cloud lays it out)",
    )
    parser.add_argument("--cloud", required=True, help="name prefix in clouds.yaml")
    parser.add_argument("--workspace", required=True, type=Path)
    parser.add_argument("--regex", default=DEFAULT_REGEX)
    parser.add_argument("--exclude-regex", default=None)
    parser.add_argument("--concurrency", type=int, default=2)
    args = parser.parse_args(argv)

    clouds = yaml.safe_load(args.clouds_yaml.read_text())["clouds"]
    admin = clouds[f"{args.cloud}-admin"]
    sess = _session(admin)
    flavors = ensure_flavors(sess)
    images = [ensure_image(sess, name) for name in IMAGE_NAMES]
    nova_conf = args.nova_conf or args.clouds_yaml.parent / "nova" / "nova.conf"
    workspace = args.workspace.resolve()
    if not (workspace / ".stestr.conf").exists():
        init_workspace(workspace)
    write_conf(
        workspace,
        admin,
        images,
        flavors,
        compute_host_count(sess),
        enabled_filters(nova_conf),
    )
    command = [
        str(Path(sys.executable).parent / "tempest"), "run",
        "--concurrency", str(args.concurrency), "--regex", args.regex,
    ]  # fmt: skip
    if args.exclude_regex:
        command += ["--exclude-regex", args.exclude_regex]
    run = subprocess.run(
        command, cwd=workspace, capture_output=True, text=True,
        env={**os.environ, "OS_CLIENT_CONFIG_FILE": ""},
    )  # fmt: skip
    (workspace / "last-run.log").write_text(run.stdout + run.stderr)
    with open(workspace / "last-run.subunit", "wb") as subunit:
        subprocess.run(
            [str(Path(sys.executable).parent / "stestr"), "last", "--subunit"],
            cwd=workspace,
            stdout=subunit,
            check=False,
        )
    totals, failed = summarize(run.stdout)
    print(
        f"passed {totals.get('Passed', 0)}, failed {totals.get('Failed', 0)}, "
        f"skipped {totals.get('Skipped', 0)}"
    )
    for test_id in failed:
        print(f"FAILED {test_id}")
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
