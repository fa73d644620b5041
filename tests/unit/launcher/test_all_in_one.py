"""nova-aio's own parts: its configuration, image, settings, lock and
refusals (the whole cloud is tests/integration/test_aio_quickstart.py)."""

from __future__ import annotations

import configparser
import os
import socket

import pytest
from oslo_utils.imageutils import format_inspector

from nova.launcher import aio_cli
from nova.launcher.all_in_one import AllInOne, AlreadyRunning
from nova.launcher.authtoken import ServiceUser
from nova.launcher.cloud_content import (
    BOOT_MESSAGE,
    DEVSTACK_FLAVORS,
    IMAGE_SIZE,
    MBR_LOAD_ADDRESS,
    boot_sector_image,
)
from nova.launcher.nova_config import NovaConfigFiles
from nova.launcher.ports import LOOPBACK, ports_in_use
from nova.launcher.settings import DeploymentSettings, Ports


def _configs(tmp_path, driver: str = "fake.FakeDriver") -> NovaConfigFiles:
    return NovaConfigFiles(
        directory=tmp_path / "nova",
        api_database_url="sqlite:////s/aio_nova_api.sqlite",
        cell0_database_url="sqlite:////s/aio_nova_cell0.sqlite",
        cell1_database_url="sqlite:////s/aio_nova_cell1.sqlite",
        api_transport_url="fake:///",
        cell1_transport_url="fake:///",
        nova_user=ServiceUser("nova", "npw", "http://127.0.0.1:5000/v3", "R"),
        api_port=8774,
        metadata_port=8775,
        computes=1,
        compute_driver=driver,
        all_in_one_host="aio",
    )


def _ini(text: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string(text)
    return parser


def test_one_file_serves_every_service_with_cell1_as_local_database(tmp_path):
    configs = _configs(tmp_path)
    assert configs.write() == [configs.all_in_one_conf]
    conf = _ini(configs.all_in_one_conf.read_text())
    assert conf["api_database"]["connection"].endswith("aio_nova_api.sqlite")
    # Untargeted cell work (the compute's, the cell conductor's) hits cell1.
    assert conf["database"]["connection"].endswith("aio_nova_cell1.sqlite")
    assert conf["DEFAULT"]["transport_url"] == "fake:///"
    assert conf["DEFAULT"]["host"] == "aio"
    assert conf["DEFAULT"]["compute_driver"] == "fake.FakeDriver"
    assert not conf.has_section("libvirt")
    assert conf["api"]["auth_strategy"] == "keystone"
    assert configs.config_file(api_level=False) == configs.all_in_one_conf


def test_libvirt_driver_gets_qemu_guests(tmp_path):
    conf = _ini(_configs(tmp_path, "libvirt.LibvirtDriver").render_all_in_one())
    assert conf["DEFAULT"]["compute_driver"] == "libvirt.LibvirtDriver"
    assert conf["libvirt"]["virt_type"] == "qemu"


def test_boot_sector_image_passes_glance_safety_checks(tmp_path):
    image = boot_sector_image()
    assert len(image) == IMAGE_SIZE
    assert image[510:512] == b"\x55\xaa"
    path = tmp_path / "disk.raw"
    path.write_bytes(image)
    inspector = format_inspector.detect_file_format(str(path))
    inspector.safety_check()  # raises what makes Glance answer 415
    # `mov si, imm16` (0xbe) points at the message in the loaded sector.
    at = image.index(b"\xbe") + 1
    address = int.from_bytes(image[at : at + 2], "little")
    offset = address - MBR_LOAD_ADDRESS
    assert image[offset : offset + len(BOOT_MESSAGE)] == BOOT_MESSAGE


def test_devstack_flavors():
    assert [f.name for f in DEVSTACK_FLAVORS] == [
        "m1.tiny",
        "m1.small",
        "m1.medium",
        "m1.large",
        "m1.xlarge",
    ]
    assert [f.id for f in DEVSTACK_FLAVORS] == ["1", "2", "3", "4", "5"]


def test_default_settings_need_no_broker_nor_database_server():
    settings = aio_cli.settings_from(aio_cli.build_parser().parse_args([]))
    assert settings.all_in_one and settings.db == "sqlite"
    assert settings.transport_url == "fake:///"
    assert settings.compute_driver == "fake.FakeDriver"


def test_a_resumed_cloud_keeps_its_transport(tmp_path):
    saved = DeploymentSettings(
        name="aio", db="sqlite", all_in_one=True, transport_url="rabbit://h//"
    )
    saved.save(tmp_path / "deployment.json")
    args = aio_cli.build_parser().parse_args([])
    assert aio_cli._requested_settings(tmp_path, args).transport_url == "rabbit://h//"


def test_a_local_cloud_state_dir_is_refused(tmp_path):
    DeploymentSettings(name="local", db="sqlite").save(tmp_path / "deployment.json")
    with pytest.raises(Exception, match="nova-local-cloud deployment"):
        AllInOne(tmp_path, out=None)


def test_second_start_says_which_process_runs_the_cloud(tmp_path, capsys):
    settings = aio_cli.settings_from(aio_cli.build_parser().parse_args([]))
    with AllInOne(tmp_path, settings).owned():
        with pytest.raises(AlreadyRunning, match=f"pid {os.getpid()}"):
            with AllInOne(tmp_path, settings, out=None).owned():
                pass
        assert aio_cli.main(["--state-dir", str(tmp_path)]) == 1
    assert "already running" in capsys.readouterr().err


def _offset_with_api_port_taken() -> tuple[socket.socket, int]:
    """A listening socket, and a port offset that puts nova-api on it while
    the other ports are free."""
    defaults = vars(Ports())
    for _ in range(20):
        sock = socket.socket()
        sock.bind((LOOPBACK, 0))
        sock.listen()
        offset = sock.getsockname()[1] - defaults["nova_api"]
        others = {
            name: port + offset for name, port in defaults.items() if name != "nova_api"
        }
        if offset > 0 and not ports_in_use(others):
            return sock, offset
        sock.close()
    raise AssertionError("no usable port layout")


def test_a_taken_port_is_reported_with_its_number(tmp_path, capsys):
    sock, offset = _offset_with_api_port_taken()
    with sock:
        code = aio_cli.main(
            ["--state-dir", str(tmp_path), "--port-offset", str(offset)]
        )
    err = capsys.readouterr().err
    assert code == 1
    assert f"{Ports().nova_api + offset} (nova-api)" in err
    assert not list((tmp_path / "run").glob("*.pid"))
