"""The Glance image API: endpoints, tokens and nova's image dict."""

import pytest

from nova import exception, user_token
from nova.image import glance

IMAGE_ID = "9f3c0d52-5c83-4b43-9c4e-6b0e4c1f7a10"

GLANCE_IMAGE = {
    "id": "img1", "name": "cirros", "status": "active", "visibility": "public",
    "container_format": "bare", "disk_format": "qcow2", "min_ram": 64,
    "min_disk": 1, "size": 1024, "virtual_size": None, "owner": "p",
    "file": "/v2/images/img1/file", "schema": "/v2/schemas/image",
    "self": "/v2/images/img1", "hw_disk_bus": "virtio", "os_distro": "cirros",
}  # fmt: skip


def test_normalize_nests_custom_properties():
    image = glance.normalize(GLANCE_IMAGE)
    assert image["properties"] == {"hw_disk_bus": "virtio", "os_distro": "cirros"}
    assert image["min_ram"] == 64 and image["min_disk"] == 1
    assert "file" not in image and "self" not in image


def test_normalize_leaves_out_glances_own_bookkeeping():
    image = glance.normalize(
        {**GLANCE_IMAGE, "stores": "fs", "os_glance_importing_to_stores": ""}
    )
    assert image["properties"] == {"hw_disk_bus": "virtio", "os_distro": "cirros"}


@pytest.mark.parametrize(
    "url, versioned",
    [("http://g:9292", "http://g:9292/v2"), ("http://g:9292/", "http://g:9292/v2"),
     ("http://g/image/v2", "http://g/image/v2"), ("http://g/v2.1", "http://g/v2.1")],
)  # fmt: skip
def test_versioned_endpoint(url, versioned):
    assert glance._versioned(url) == versioned


CATALOG = [
    {"type": "compute", "endpoints": [{"interface": "public", "url": "http://nova"}]},
    {
        "type": "image",
        "endpoints": [
            {"interface": "public", "url": "http://public:9292", "region": "R1"},
            {"interface": "internal", "url": "http://internal:9292", "region": "R1"},
        ],
    },
]


def test_user_token_plugin_finds_endpoints_in_the_users_catalog():
    plugin = user_token.UserTokenPlugin("token", CATALOG)
    assert plugin.get_token(None) == "token"
    assert (
        plugin.get_endpoint(
            None,
            service_type="image",
            interface=["internal", "public"],
            region_name="R1",
        )
        == "http://internal:9292"
    )
    assert plugin.get_endpoint(None, service_type="image", interface="public") == (
        "http://public:9292"
    )
    assert (
        plugin.get_endpoint(None, service_type="volumev3", interface="public") is None
    )


# What keystonemiddleware puts in X-Service-Catalog for a v3 token.
NORMALIZED_CATALOG = [
    {
        "type": "image",
        "name": "glance",
        "endpoints": [
            {
                "region": "R1",
                "publicURL": "http://public:9292",
                "internalURL": "http://internal:9292",
            }
        ],
    },
]


def test_user_token_plugin_reads_keystonemiddlewares_normalized_catalog():
    plugin = user_token.UserTokenPlugin("token", NORMALIZED_CATALOG)
    assert (
        plugin.get_endpoint(
            None,
            service_type="image",
            interface=["internal", "public"],
            region_name="R1",
        )
        == "http://internal:9292"
    )
    assert plugin.get_endpoint(None, service_type="image", interface="public") == (
        "http://public:9292"
    )
    assert plugin.get_endpoint(None, service_type="image", interface="admin") is None
    assert plugin.get_endpoint(None, service_type="image", region_name="R2") is None


class _Response:
    def __init__(self, status_code, body=None):
        self.status_code = status_code
        self._body = body
        self.text = str(body)

    def json(self):
        return self._body


class _Adapter:
    """keystoneauth1's Adapter as the client calls it, answering with one
    response and remembering the last request."""

    def __init__(self, response):
        self.response = response

    def request(self, url, method, **kwargs):
        self.url, self.method, self.kwargs = url, method, kwargs
        return self.response

    def get(self, url, **kwargs):
        return self.request(url, "GET", **kwargs)


@pytest.mark.parametrize("status", [403, 404])
def test_invisible_images_are_not_found(monkeypatch, status):
    api = glance.GlanceImageAPI()
    monkeypatch.setattr(api, "_adapter", lambda context: _Adapter(_Response(status)))
    with pytest.raises(exception.ImageNotFound):
        api.show(None, IMAGE_ID)


def test_show_returns_the_normalized_image(monkeypatch):
    api = glance.GlanceImageAPI()
    adapter = _Adapter(_Response(200, GLANCE_IMAGE))
    monkeypatch.setattr(api, "_adapter", lambda context: adapter)
    assert api.show(None, IMAGE_ID)["properties"]["os_distro"] == "cirros"
    assert adapter.url == f"/images/{IMAGE_ID}"


def test_glance_errors_are_service_unavailable(monkeypatch):
    api = glance.GlanceImageAPI()
    monkeypatch.setattr(api, "_adapter", lambda context: _Adapter(_Response(500)))
    with pytest.raises(exception.ImageServiceUnavailable):
        api.show(None, IMAGE_ID)


def test_create_leaves_out_what_glance_sets_itself(monkeypatch):
    api = glance.GlanceImageAPI()
    adapter = _Adapter(_Response(201, GLANCE_IMAGE))
    monkeypatch.setattr(api, "_adapter", lambda context: adapter)
    api.create(
        None,
        {
            "name": "snap",
            "status": "active",
            "size": 5,
            "min_disk": 1,
            "properties": {
                "os_glance_import_task": "x",
                "stores": "file",
                "hw_disk_bus": "virtio",
                "hw_cpu_cores": 2,
                "unset": None,
            },
        },
    )
    assert (adapter.method, adapter.url) == ("POST", "/images")
    assert adapter.kwargs["json"] == {
        "name": "snap",
        "min_disk": 1,
        "hw_disk_bus": "virtio",
        "hw_cpu_cores": "2",
    }


@pytest.mark.parametrize(
    ("status", "error"),
    [
        (403, exception.ImageNotAuthorized),
        (400, exception.ImageBadRequest),
        (404, exception.ImageNotFound),
        (503, exception.ImageServiceUnavailable),
    ],
)
def test_delete_maps_glance_refusals(monkeypatch, status, error):
    api = glance.GlanceImageAPI()
    monkeypatch.setattr(api, "_adapter", lambda context: _Adapter(_Response(status)))
    with pytest.raises(error):
        api.delete(None, IMAGE_ID)


@pytest.mark.parametrize("image_id", ["img1", "..", "a?b", "9" * 5000, ""])
def test_ids_that_are_no_uuid_name_no_image_and_are_not_sent(monkeypatch, image_id):
    api = glance.GlanceImageAPI()
    adapter = _Adapter(_Response(200, GLANCE_IMAGE))
    monkeypatch.setattr(api, "_adapter", lambda context: adapter)
    for call in (api.show, api.delete):
        with pytest.raises(exception.ImageNotFound):
            call(None, image_id)
    assert not hasattr(adapter, "url")
