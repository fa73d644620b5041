"""What the launcher writes: service configs, gunicorn files, nova.conf
files, clouds.yaml and openrc, settings."""

import configparser
import dataclasses
import os
import subprocess
import urllib.parse
from unittest import mock

import pytest
import yaml

from nova.launcher.authtoken import ServiceUser
from nova.launcher.clouds import Cloud, render_openrc, write_client_config
from nova.launcher.glance import Glance, generated_paste_config
from nova.launcher.gunicorn import GunicornApp
from nova.launcher.keystone import Keystone
from nova.launcher.nova_config import NovaConfigFiles
from nova.launcher.placement import Placement
from nova.launcher.rabbitmq import broker_user, transport_url
from nova.launcher.settings import DeploymentSettings, Ports
from nova.launcher.state import StateDir

AUTH_URL = "http://127.0.0.1:5000/v3"


def _ini(text: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string(text)
    return parser


@pytest.fixture
def state(tmp_path):
    return StateDir(tmp_path / "state")


@pytest.fixture
def user():
    return ServiceUser("placement", "pw", AUTH_URL, "RegionOne")


def test_keystone_config(state):
    keystone = Keystone(state, 5001, "sqlite:////x/keystone.sqlite", "secret")
    conf = _ini(keystone.render_config())
    assert conf["database"]["connection"] == "sqlite:////x/keystone.sqlite"
    assert conf["token"]["provider"] == "fernet"
    assert conf["fernet_tokens"]["key_repository"].startswith(str(state.root))
    assert conf["cache"]["enabled"] == "True"
    assert keystone.url == "http://127.0.0.1:5001/v3"
    assert keystone.process_spec().probe.url == "http://127.0.0.1:5001/v3"


def test_keystone_setup_plan_skips_steps_done(state):
    keystone = Keystone(state, 5000, "sqlite://", "secret", region="R2")
    plan = keystone.setup_plan()
    assert [[argv[3] for argv in stage] for stage in plan] == [
        ["fernet_setup", "credential_setup", "db_sync"],
        ["bootstrap"],
    ]
    bootstrap = plan[1][0]
    assert bootstrap[bootstrap.index("--bootstrap-region-id") + 1] == "R2"
    assert "secret" not in bootstrap  # the password travels in the environment
    for step in ("fernet_setup", "credential_setup", "db_sync"):
        state.mark_step(f"keystone-{step}")
    assert [[argv[3] for argv in stage] for stage in keystone.setup_plan()] == [
        ["bootstrap"]
    ]


def test_placement_config(state, user):
    placement = Placement(state, 8778, "mysql+pymysql://root@127.0.0.1/p", user)
    conf = _ini(placement.render_config())
    assert conf["api"]["auth_strategy"] == "keystone"
    assert conf["placement_database"]["sync_on_startup"] == "True"
    auth = conf["keystone_authtoken"]
    assert auth["username"] == "placement"
    assert auth["project_name"] == "service"
    assert auth["auth_url"] == auth["www_authenticate_uri"] == AUTH_URL
    assert auth["memcached_servers"] == ""


def test_glance_config_uses_a_file_store_in_the_state_dir(state, user):
    glance = Glance(state, 9393, "sqlite:////x/glance.sqlite", user)
    conf = _ini(glance.render_config())
    datadir = conf["fs"]["filesystem_store_datadir"]
    assert datadir.startswith(str(state.root)) and datadir.endswith("/images/")
    assert conf["paste_deploy"]["flavor"] == "keystone"
    assert conf["paste_deploy"]["config_file"] == str(glance.paste_path)
    assert conf["DEFAULT"]["worker_self_reference_url"] == "http://127.0.0.1:9393"


def test_glance_paste_file_is_copied_or_generated(state, user):
    glance = Glance(state, 9292, "sqlite://", user)
    glance.write_files()
    paste = _ini(glance.paste_path.read_text())
    assert "composite:glance-api-keystone" in paste
    generated = _ini(generated_paste_config())
    assert "authtoken" in generated["composite:api"]["keystone"]
    assert "composite:glance-api-keystone" in generated


def test_gunicorn_config_keeps_sys_argv_clean(tmp_path):
    app = GunicornApp(
        name="keystone",
        wsgi_app="keystone.wsgi.api:application",
        host="127.0.0.1",
        port=5000,
        directory=tmp_path,
        access_log=tmp_path / "access.log",
        environ={"OS_KEYSTONE_CONFIG_DIR": str(tmp_path)},
        threads=4,
    )
    namespace: dict = {}
    with mock.patch.dict(os.environ):
        exec(compile(app.render(), "gunicorn.conf.py", "exec"), namespace)
        assert os.environ["OS_KEYSTONE_CONFIG_DIR"] == str(tmp_path)
    assert namespace["wsgi_app"] == "keystone.wsgi.api:application"
    assert namespace["bind"] == "127.0.0.1:5000"
    assert namespace["threads"] == 4
    assert namespace["control_socket_disable"] is True
    assert "on_starting" not in namespace
    spec = app.process_spec(probe=None)  # type: ignore[arg-type]
    assert len(spec.argv) == 1 and spec.argv[0].endswith("gunicorn")
    assert spec.cwd == tmp_path


def test_gunicorn_watchdog_hook_when_tied_to_a_pid(tmp_path):
    app = GunicornApp(
        "p", "x:y", "127.0.0.1", 1, tmp_path, tmp_path / "a", exit_with_pid=42
    )
    namespace: dict = {}
    exec(compile(app.render(), "gunicorn.conf.py", "exec"), namespace)
    assert namespace["EXIT_WITH_PID"] == 42
    assert callable(namespace["on_starting"])


def _nova_configs(tmp_path, computes=2):
    return NovaConfigFiles(
        directory=tmp_path / "nova",
        api_database_url="mysql+pymysql://root@127.0.0.1/x_nova_api",
        cell0_database_url="mysql+pymysql://root@127.0.0.1/x_nova_cell0",
        cell1_database_url="mysql+pymysql://root@127.0.0.1/x_nova_cell1",
        api_transport_url="rabbit://guest:guest@127.0.0.1:5672/%2Fnova-x",
        cell1_transport_url="rabbit://guest:guest@127.0.0.1:5672/%2Fnova-x-cell1",
        nova_user=ServiceUser("nova", "npw", AUTH_URL, "RegionOne"),
        api_port=8774,
        metadata_port=8775,
        computes=computes,
    )


def test_api_level_nova_conf(tmp_path):
    conf = _ini(_nova_configs(tmp_path).render_api())
    assert conf["api_database"]["connection"].endswith("/x_nova_api")
    assert conf["database"]["connection"].endswith("/x_nova_cell0")
    assert conf["DEFAULT"]["transport_url"].endswith("/%2Fnova-x")
    assert conf["DEFAULT"]["osapi_compute_listen_port"] == "8774"
    assert conf["api"]["auth_strategy"] == "keystone"
    assert conf["keystone_authtoken"]["username"] == "nova"
    assert conf["vnc"]["novncproxy_port"] == "6080"
    assert conf["vnc"]["novncproxy_base_url"] == "http://127.0.0.1:6080/vnc_lite.html"
    for group in ("placement", "glance"):
        assert conf[group]["auth_type"] == "password"
        assert conf[group]["username"] == "nova"
        assert conf[group]["password"] == "npw"
        assert conf[group]["region_name"] == "RegionOne"


def test_cell1_conf_has_no_api_database(tmp_path):
    conf = _ini(_nova_configs(tmp_path).render_cell1())
    assert not conf.has_section("api_database")
    assert not conf.has_section("keystone_authtoken")
    assert conf["database"]["connection"].endswith("/x_nova_cell1")
    assert conf["DEFAULT"]["transport_url"].endswith("/%2Fnova-x-cell1")
    # Computes hand out console URLs, the proxy listens: both read [vnc].
    assert conf["vnc"]["novncproxy_base_url"].startswith("http://127.0.0.1:6080/")
    # Serial consoles: the computes' guests listen on loopback, the API
    # hands out nova-serialproxy's URL, the proxy listens there.
    for rendered in (conf, _ini(_nova_configs(tmp_path).render_api())):
        serial = rendered["serial_console"]
        assert serial["enabled"] == "True"
        assert serial["proxyclient_address"] == "127.0.0.1"
        assert serial["base_url"] == "ws://127.0.0.1:6083/"
        assert (serial["serialproxy_host"], serial["serialproxy_port"]) == (
            "127.0.0.1",
            "6083",
        )
    assert conf["placement"]["username"] == "nova"


def test_compute_confs_layer_host_driver_and_state_path(tmp_path):
    configs = _nova_configs(tmp_path, computes=3)
    written = configs.write()
    assert [p.name for p in written] == [
        "nova.conf",
        "nova-cell1.conf",
        "nova-compute-1.conf",
        "nova-compute-2.conf",
        "nova-compute-3.conf",
    ]
    conf = _ini(configs.compute_conf(2).read_text())
    assert conf["DEFAULT"]["host"] == "compute-2"
    assert conf["DEFAULT"]["compute_driver"] == "fake.FakeDriver"
    assert conf["DEFAULT"]["state_path"] == str(tmp_path / "nova" / "compute-2")
    assert (tmp_path / "nova" / "compute-2").is_dir()
    assert oct(configs.api_conf.stat().st_mode & 0o777) == "0o600"


def test_nova_options_are_laid_over_api_and_cell_files(tmp_path):
    configs = dataclasses.replace(
        _nova_configs(tmp_path),
        options={
            "DEFAULT": {"report_interval": 1, "service_down_time": 5},
            "scheduler": {"discover_hosts_in_cells_interval": 7},
        },
    )
    api, cell = _ini(configs.render_api()), _ini(configs.render_cell1())
    for conf in (api, cell):
        assert conf["DEFAULT"]["report_interval"] == "1"
        assert conf["DEFAULT"]["service_down_time"] == "5"
        assert conf["DEFAULT"]["graceful_shutdown_timeout"] == "10"
    assert api["DEFAULT"]["transport_url"].endswith("/%2Fnova-x")
    assert api["scheduler"]["discover_hosts_in_cells_interval"] == "7"
    assert cell["DEFAULT"]["transport_url"].endswith("/%2Fnova-x-cell1")


def test_scheduler_enables_devstacks_filters(tmp_path):
    from nova.scheduler import filters

    api = _ini(_nova_configs(tmp_path).render_api())
    enabled = api["filter_scheduler"]["enabled_filters"].split(",")
    assert {"SameHostFilter", "DifferentHostFilter"} <= set(enabled)
    # Every one of them is a filter the scheduler has.
    known = {cls.__name__ for cls in filters.all_filters()}
    assert set(enabled) <= known


def test_transport_url_encodes_the_vhost_slash():
    url = transport_url("rabbit://guest:guest@127.0.0.1:5672/", "/nova-x")
    assert url == "rabbit://guest:guest@127.0.0.1:5672/%2Fnova-x"
    assert urllib.parse.unquote(urllib.parse.urlsplit(url).path[1:]) == "/nova-x"
    assert broker_user(url) == "guest"


def test_clouds_yaml_and_openrc(tmp_path):
    clouds = [
        Cloud("c-admin", AUTH_URL, "RegionOne", "admin", "pw'1", "admin"),
        Cloud("c", AUTH_URL, "RegionOne", "demo", "pw'1", "demo"),
    ]
    path = write_client_config(tmp_path, clouds)
    data = yaml.safe_load(path.read_text())["clouds"]
    assert list(data) == ["c-admin", "c"]
    assert data["c"]["auth"]["username"] == "demo"
    assert data["c"]["auth"]["project_name"] == "demo"
    assert data["c"]["identity_api_version"] == 3
    assert data["c"]["region_name"] == "RegionOne"
    shown = subprocess.run(
        [
            "bash",
            "-c",
            f'. {tmp_path / "c-openrc"} && echo "$OS_PASSWORD|$OS_USERNAME"',
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert shown == "pw'1|demo"
    assert "export OS_AUTH_URL=" in render_openrc(clouds[0])


def test_settings_round_trip_through_json(tmp_path):
    settings = DeploymentSettings(
        name="dev_2",
        db="postgresql",
        computes=3,
        ports=Ports().offset(100),
        nova_options={"DEFAULT": {"report_interval": 1}},
    )
    assert settings.db_url.startswith("postgresql")
    assert set(settings.service_passwords) == {"placement", "glance", "nova"}
    settings.save(tmp_path / "deployment.json")
    loaded = DeploymentSettings.load(tmp_path / "deployment.json")
    assert loaded == settings
    assert loaded.ports.keystone == 5100
    assert loaded.dashed_name == "dev-2"
    assert DeploymentSettings.load(tmp_path / "absent.json") is None


@pytest.mark.parametrize(
    "kwargs",
    [{"name": "Bad-Name"}, {"name": "x" * 30}, {"db": "oracle"}, {"computes": -1}],
)
def test_invalid_settings_are_refused(kwargs):
    with pytest.raises(ValueError):
        DeploymentSettings(**kwargs)


def test_horizon_settings_name_keystone_and_keep_one_secret_key(state):
    from nova.launcher.horizon import Horizon

    horizon = Horizon(state=state, port=8080, keystone_url=AUTH_URL)
    horizon.write_files()
    settings: dict = {}
    exec(horizon.config_path.read_text(), settings)  # noqa: S102 - our own file

    assert settings["OPENSTACK_KEYSTONE_URL"] == AUTH_URL
    assert settings["DEBUG"] is False and settings["COMPRESS_OFFLINE"] is True
    assert settings["STATIC_ROOT"] == str(horizon.static_root)
    assert len(settings["SECRET_KEY"]) >= 32
    assert os.stat(horizon.config_path).st_mode & 0o077 == 0
    # A second write (a restart) keeps the key: sessions stay valid.
    horizon.write_files()
    again: dict = {}
    exec(horizon.config_path.read_text(), again)  # noqa: S102
    assert again["SECRET_KEY"] == settings["SECRET_KEY"]
    gunicorn = horizon.gunicorn().render()
    assert f"pythonpath = {str(horizon.directory)!r}" in gunicorn
    assert "nova.launcher.dashboard_app:application" in gunicorn
    assert (horizon.directory / "local" / "__init__.py").exists()


def test_dashboard_is_off_unless_asked(state):
    from nova.launcher.upstream import UpstreamServices

    plain = UpstreamServices(state, DeploymentSettings(db="sqlite"))
    assert plain.horizon is None and "horizon" not in plain.ports()
    settings = DeploymentSettings(db="sqlite", dashboard=True)
    with_dashboard = UpstreamServices(state, settings)
    assert with_dashboard.ports()["horizon"] == settings.ports.horizon == 8080
    assert with_dashboard.horizon.keystone_url == with_dashboard.auth_url
