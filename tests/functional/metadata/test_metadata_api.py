"""The metadata API through HTTP: both formats, who may ask, caching."""

from __future__ import annotations

import base64
import contextlib
import http.client
import http.server
import json
import threading
import uuid

import pytest
import requests

from nova import objects
from nova.api.metadata import handler, wsgi_app
from nova.conf import CONF
from nova.metadata import vendordata
from tests.fixtures.secrets import secret
from tests.functional.api.test_servers import _in_cell
from tests.functional.metadata.conftest import WSGIServer

SECRET = secret("s3cr3t-shared-with-neutron")
USER_DATA = bytes(range(256)) + b"\x00\xff#!/bin/sh\n"
KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIK3pfUZxMGrsuiBl1Qk3kSJcv8Flb demo@box"
FIXED_IP = "10.0.0.5"
NETWORK_INFO = [
    {
        "id": "3c1d4f0e-5b2a-4d55-9a0e-7b8c9d0e1f2a",
        "address": "fa:16:3e:11:22:33",
        "type": "ovs",
        "devname": "tap3c1d4f0e-5b",
        "network": {
            "id": "9d1c2b3a-0000-4000-8000-000000000001",
            "label": "private",
            "meta": {"mtu": 1450},
            "subnets": [
                {
                    "cidr": "10.0.0.0/24",
                    "version": 4,
                    "gateway": {"address": "10.0.0.1"},
                    "dns": [{"address": "10.0.0.2"}],
                    "routes": [],
                    "ips": [
                        {
                            "address": FIXED_IP,
                            "type": "fixed",
                            "floating_ips": [{"address": "172.24.4.10"}],
                        }
                    ],
                }
            ],
        },
    }
]


def _instance(cloud, project="demo", user_data=USER_DATA, **values):
    """An instance of ``project`` in cell1 with everything metadata shows."""
    fields = dict(
        display_name="web 1", hostname="web-1", launch_index=0,
        image_ref="6b7f2c1e-8d3a-4c55-b1a0-2f4e6d8c0a11",
        availability_zone="nova", reservation_id="r-abcd1234",
        key_name="demo-key", key_data=KEY, metadata={"role": "web"},
        user_data=base64.b64encode(user_data).decode() if user_data else None,
        info_cache=objects.InstanceInfoCache(network_info=NETWORK_INFO),
    )  # fmt: skip
    fields.update(values)
    return _in_cell(cloud, "cell1", project=project, **fields)


class MetadataClient:
    def __init__(self, url: str) -> None:
        self.url = url
        self.session = requests.Session()
        self.session.trust_env = False

    def get(self, path: str, instance=None, headers=None) -> requests.Response:
        return self.session.get(
            self.url + path,
            headers={**_signed(instance), **(headers or {})},
            timeout=30,
        )

    def post(self, path: str, data: bytes, instance=None) -> requests.Response:
        return self.session.post(
            self.url + path, data=data, headers=_signed(instance), timeout=30
        )


def _signed(instance) -> dict[str, str]:
    if instance is None:
        return {}
    return {
        "X-Instance-ID": instance.uuid,
        "X-Tenant-ID": instance.project_id,
        "X-Instance-ID-Signature": handler.instance_id_signature(instance.uuid, SECRET),
    }


def _behind_proxy(cache_expiration: int) -> list[tuple]:
    return [
        ("service_metadata_proxy", True, "neutron"),
        ("metadata_proxy_shared_secret", SECRET, "neutron"),
        ("metadata_cache_expiration", cache_expiration, "api"),
    ]


@contextlib.contextmanager
def _overridden(overrides):
    for name, value, group in overrides:
        CONF.set_override(name, value, group=group)
    try:
        yield
    finally:
        for name, _, group in overrides:
            CONF.clear_override(name, group=group)


@contextlib.contextmanager
def _serving(overrides):
    """The metadata API over HTTP with these option overrides."""
    with _overridden(overrides):
        server = WSGIServer(wsgi_app.build_app(CONF))
        try:
            yield MetadataClient(server.url)
        finally:
            server.stop()


@pytest.fixture
def metadata_server(nova_conf, flavor):
    """The metadata API behind the Neutron proxy, no caching."""
    with _serving(_behind_proxy(cache_expiration=0)) as client:
        yield client


@pytest.fixture
def md(metadata_server):
    return metadata_server


# -- OpenStack format ------------------------------------------------------


def test_root_lists_ec2_versions_without_asking_who(md):
    response = md.get("/")
    assert response.status_code == 200
    lines = response.text.splitlines()
    assert lines[0] == "1.0" and lines[-1] == "latest" and "2009-04-04" in lines


def test_openstack_lists_versions_and_files(md, nova_conf):
    instance = _instance(nova_conf)
    versions = md.get("/openstack", instance).text.splitlines()
    assert versions[0] == "2012-08-10" and versions[-1] == "latest"
    assert "2018-08-27" in versions
    files = md.get("/openstack/latest/", instance).text.splitlines()
    assert set(files) == {
        "meta_data.json",
        "user_data",
        "password",
        "vendor_data.json",
        "network_data.json",
        "vendor_data2.json",
    }
    assert md.get("/openstack/2012-08-10/", instance).text.splitlines() == [
        "meta_data.json",
        "user_data",
    ]
    assert md.get("/openstack/1999-01-01/", instance).status_code == 404
    assert md.get("/openstack/latest/nothing", instance).status_code == 404


def test_meta_data_json(md, nova_conf):
    instance = _instance(nova_conf)
    response = md.get("/openstack/latest/meta_data.json", instance)
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["uuid"] == instance.uuid
    assert body["name"] == "web 1"
    assert body["hostname"] == "web-1.novalocal"
    assert body["launch_index"] == 0
    assert body["availability_zone"] == "nova"
    assert body["project_id"] == "demo"
    assert body["meta"] == {"role": "web"}
    assert body["public_keys"] == {"demo-key": KEY}
    assert body["keys"] == [{"name": "demo-key", "type": "ssh", "data": KEY}]
    assert len(base64.b64decode(body["random_seed"])) == 512
    assert body["devices"] == []
    older = md.get("/openstack/2012-08-10/meta_data.json", instance).json()
    assert "devices" not in older and older["uuid"] == instance.uuid


def test_user_data_round_trips_byte_exact_and_404_without(md, nova_conf):
    instance = _instance(nova_conf)
    assert md.get("/openstack/latest/user_data", instance).content == USER_DATA
    assert md.get("/latest/user-data", instance).content == USER_DATA
    assert md.get("/2009-04-04/user-data", instance).content == USER_DATA
    bare = _instance(nova_conf, user_data=None)
    assert md.get("/openstack/latest/user_data", bare).status_code == 404
    assert md.get("/latest/user-data", bare).status_code == 404
    assert "user_data" not in md.get("/openstack/latest/", bare).text


def test_network_data_json(md, nova_conf):
    instance = _instance(nova_conf)
    body = md.get("/openstack/latest/network_data.json", instance).json()
    assert body["links"] == [
        {
            "id": "tap3c1d4f0e-5b",
            "vif_id": NETWORK_INFO[0]["id"],
            "type": "ovs",
            "mtu": 1450,
            "ethernet_mac_address": "fa:16:3e:11:22:33",
        }
    ]
    (network,) = body["networks"]
    assert network["ip_address"] == FIXED_IP
    assert network["netmask"] == "255.255.255.0"
    assert network["type"] == "ipv4"
    assert {"network": "0.0.0.0", "netmask": "0.0.0.0", "gateway": "10.0.0.1"} in (
        network["routes"]
    )
    assert body["services"] == [{"type": "dns", "address": "10.0.0.2"}]


class _VendorService(http.server.BaseHTTPRequestHandler):
    received: list[dict] = []

    def do_POST(self):  # noqa: N802 - http.server's name
        length = int(self.headers["Content-Length"])
        self.received.append(json.loads(self.rfile.read(length)))
        body = json.dumps(
            {"greeting": "hello", "token": self.headers.get("X-Auth-Token")}
        )
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body.encode())

    def log_message(self, format, *args):  # noqa: A002
        pass


@pytest.fixture
def vendor_service():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _VendorService)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _VendorService.received = []
    yield f"http://127.0.0.1:{server.server_port}/vendor"
    server.shutdown()
    server.server_close()


def test_vendor_data_static_and_dynamic(md, nova_conf, tmp_path, vendor_service):
    static = tmp_path / "vendor.json"
    static.write_text(json.dumps({"cloud": "ours", "tier": 2}))
    overrides = [
        ("vendordata_providers", ["StaticJSON", "DynamicJSON"], "api"),
        ("vendordata_jsonfile_path", str(static), "api"),
        ("vendordata_dynamic_targets", [f"hello@{vendor_service}"], "api"),
    ]
    vendordata.reset()
    with _overridden(overrides):
        instance = _instance(nova_conf)
        vd = md.get("/openstack/latest/vendor_data.json", instance)
        assert vd.json() == {"cloud": "ours", "tier": 2}
        vd2 = md.get("/openstack/latest/vendor_data2.json", instance).json()
        assert vd2 == {"hello": {"greeting": "hello", "token": None}}
        (sent,) = _VendorService.received
        assert sent["instance-id"] == instance.uuid
        assert sent["project-id"] == "demo"
        assert sent["hostname"] == "web-1"
    vendordata.reset()


def test_dynamic_vendor_data_failure_is_left_out(md, nova_conf):
    overrides = [
        ("vendordata_providers", ["DynamicJSON"], "api"),
        ("vendordata_dynamic_targets", ["gone@http://127.0.0.1:9/x"], "api"),
    ]
    with _overridden(overrides):
        instance = _instance(nova_conf)
        assert md.get("/openstack/latest/vendor_data2.json", instance).json() == {}
        assert md.get("/openstack/latest/vendor_data.json", instance).json() == {}


def test_password_is_posted_once(md, nova_conf):
    instance = _instance(nova_conf)
    path = "/openstack/latest/password"
    assert md.get(path, instance).text == ""
    assert md.post(path, b"x" * 257, instance).status_code == 400
    encrypted = base64.b64encode(b"\x01" * 180).decode()
    assert md.post(path, encrypted.encode(), instance).status_code == 200
    assert md.get(path, instance).text == encrypted
    assert md.post(path, b"again", instance).status_code == 409
    assert md.get(path, instance).text == encrypted
    # Not served before the version that introduced it.
    assert md.post("/openstack/2012-08-10/password", b"x", instance).status_code == 404


# -- EC2 format ------------------------------------------------------------


def test_ec2_keys_without_value_are_not_listed(md, nova_conf):
    instance = _instance(nova_conf, image_ref=None, key_name=None, key_data=None)
    listing = md.get("/latest/meta-data/", instance).text.splitlines()
    assert "ami-id" not in listing and "public-keys/" not in listing
    assert md.get("/latest/meta-data/ami-id", instance).status_code == 404
    body = md.get("/openstack/latest/meta_data.json", instance).json()
    assert "public_keys" not in body and "keys" not in body


def test_ec2_version_listing(md, nova_conf):
    instance = _instance(nova_conf)
    assert md.get("/latest/", instance).text.splitlines() == ["meta-data/", "user-data"]
    assert md.get("/2099-01-01/", instance).status_code == 404


def test_ec2_meta_data(md, nova_conf):
    instance = _instance(nova_conf)
    listing = md.get("/latest/meta-data/", instance).text.splitlines()
    assert {
        "ami-id",
        "ami-launch-index",
        "ami-manifest-path",
        "block-device-mapping/",
        "hostname",
        "instance-action",
        "instance-id",
        "instance-type",
        "local-hostname",
        "local-ipv4",
        "placement/",
        "public-hostname",
        "public-ipv4",
        "public-keys/",
        "reservation-id",
        "security-groups",
    } <= set(listing)

    def value(key, version="latest"):
        response = md.get(f"/{version}/meta-data/{key}", instance)
        assert response.status_code == 200, (key, response.text)
        return response.text

    assert value("ami-id") == "ami-6b7f2c1e"
    assert value("ami-launch-index") == "0"
    assert value("hostname") == "web-1.novalocal"
    assert value("local-hostname") == "web-1.novalocal"
    assert value("instance-id") == f"i-{instance.id:08x}"
    assert value("instance-type") == "m1.tiny"
    assert value("local-ipv4") == FIXED_IP
    assert value("public-ipv4") == "172.24.4.10"
    assert value("placement/") == "availability-zone"
    assert value("placement/availability-zone") == "nova"
    assert value("reservation-id") == "r-abcd1234"
    assert value("security-groups") == "default"
    assert value("public-keys/") == "0=demo-key"
    assert value("public-keys/0/") == "openssh-key"
    assert value("public-keys/0/openssh-key") == KEY
    # Dated versions serve the keys of their time.
    old = md.get("/1.0/meta-data/", instance).text.splitlines()
    assert (
        "instance-id" in old and "instance-type" not in old and "placement/" not in old
    )
    assert value("instance-type", "2009-04-04") == "m1.tiny"
    assert md.get("/latest/meta-data/nothing", instance).status_code == 404


# -- who is asking ---------------------------------------------------------


def _raw_get(url: str, headers: list[tuple[str, str]]) -> int:
    """GET with headers repeated as given (requests folds duplicates)."""
    host, port = url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        connection.putrequest("GET", "/openstack/latest/meta_data.json")
        for name, value in headers:
            connection.putheader(name, value)
        connection.endheaders()
        return connection.getresponse().status
    finally:
        connection.close()


def test_signature_matrix(md, nova_conf):
    instance = _instance(nova_conf)
    other = _instance(nova_conf, project="other")
    good = _signed(instance)
    assert _raw_get(md.url, list(good.items())) == 200
    bad = {**good, "X-Instance-ID-Signature": "0" * 64}
    assert _raw_get(md.url, list(bad.items())) == 403
    # Signed for another instance.
    swapped = {
        **good,
        "X-Instance-ID-Signature": _signed(other)["X-Instance-ID-Signature"],
    }
    assert _raw_get(md.url, list(swapped.items())) == 403
    for name in good:
        missing = [(k, v) for k, v in good.items() if k != name]
        assert _raw_get(md.url, missing) == 400, name
        duplicated = [*good.items(), (name, good[name])]
        assert _raw_get(md.url, duplicated) == 400, name
    wrong_tenant = {**good, "X-Tenant-ID": "other"}
    assert _raw_get(md.url, list(wrong_tenant.items())) == 404
    unknown = str(uuid.uuid4())
    forged = {
        "X-Instance-ID": unknown,
        "X-Tenant-ID": "demo",
        "X-Instance-ID-Signature": handler.instance_id_signature(unknown, SECRET),
    }
    assert _raw_get(md.url, list(forged.items())) == 404


def test_deleted_instance_has_no_metadata(md, nova_conf):
    instance = _instance(nova_conf)
    instance.destroy()
    assert md.get("/openstack/latest/meta_data.json", instance).status_code == 404


@pytest.fixture
def by_address(nova_conf, flavor):
    """The metadata API without the proxy, behind a trusted HTTP proxy."""
    overrides = [
        ("service_metadata_proxy", False, "neutron"),
        ("use_forwarded_for", True, "api"),
        ("metadata_cache_expiration", 0, "api"),
    ]
    with _serving(overrides) as client:
        yield client


def test_instance_found_by_fixed_ip(by_address, nova_conf):
    instance = _instance(nova_conf)
    response = by_address.get(
        "/openstack/latest/meta_data.json", headers={"X-Forwarded-For": FIXED_IP}
    )
    assert response.status_code == 200
    assert response.json()["uuid"] == instance.uuid
    ec2 = by_address.get(
        "/latest/meta-data/instance-id", headers={"X-Forwarded-For": FIXED_IP}
    )
    assert ec2.text == f"i-{instance.id:08x}"
    unknown = {"X-Forwarded-For": "10.0.0.99"}
    assert by_address.get("/latest/meta-data/", headers=unknown).status_code == 404
    # Without a trusted proxy the header is ignored: 127.0.0.1 is nobody.
    CONF.set_override("use_forwarded_for", False, group="api")
    response = by_address.get(
        "/latest/meta-data/", headers={"X-Forwarded-For": FIXED_IP}
    )
    assert response.status_code == 404


def test_metadata_is_cached(md, nova_conf):
    instance = _instance(nova_conf)
    with _serving(_behind_proxy(cache_expiration=300)) as client:
        path = "/openstack/latest/meta_data.json"
        assert client.get(path, instance).json()["meta"] == {"role": "web"}
        instance.metadata = {"role": "db"}
        instance.save()
        assert client.get(path, instance).json()["meta"] == {"role": "web"}
        # The uncached server sees the change at once.
        assert md.get(path, instance).json()["meta"] == {"role": "db"}


def test_local_metadata_per_cell(md, nova_conf):
    instance = _instance(nova_conf)
    CONF.set_override("local_metadata_per_cell", True, group="api")
    CONF.set_override("connection", nova_conf["urls"]["cell1"], group="database")
    try:
        body = md.get("/openstack/latest/meta_data.json", instance).json()
        assert body["uuid"] == instance.uuid
    finally:
        CONF.clear_override("local_metadata_per_cell", group="api")
        CONF.set_override("connection", nova_conf["urls"]["cell0"], group="database")
