"""Personality files on create (up to 2.56): handed to the build as sent,
limited by the project's injected file quotas, refused before anything is
written."""

from __future__ import annotations

import base64

import pytest

from nova.conf import CONF
from tests.functional.api.conftest import fault
from tests.functional.api.test_server_rebuild_images import (  # noqa: F401
    _rebuild,
    _server,
    compute_rpc,
)
from tests.functional.api.test_servers import _api_rows, _body

VERSION = "2.56"


def _file(path: str, data: bytes) -> dict:
    return {"path": path, "contents": base64.b64encode(data).decode()}


def test_personality_files_reach_the_build(api, nova_conf, glance, flavor, conductor):
    files = [_file("/etc/motd", b"hello\n"), _file("/root/.x", b"\x00\xff")]
    response = api.post(
        "/v2.1/servers",
        _body(glance.active, personality=files, config_drive=True),
        version=VERSION,
    )
    assert response.status_code == 202, response.text
    (build,) = conductor.builds
    assert build["build_parameters"].injected_files == [
        [item["path"], item["contents"]] for item in files
    ]
    (build_request,) = build["build_requests"]
    assert build_request.instance.config_drive == "True"


@pytest.mark.parametrize(
    ("option", "limit", "files", "message"),
    [
        (
            "injected_files",
            1,
            [_file("/a", b"a"), _file("/b", b"b")],
            "Personality file limit exceeded",
        ),
        (
            "injected_file_path_length",
            4,
            [_file("/etc/motd", b"a")],
            "Personality file path exceeds maximum 4",
        ),
        (
            "injected_file_content_bytes",
            8,
            [_file("/a", b"more than eight bytes")],
            "Personality file content exceeds maximum 8",
        ),
    ],
)
def test_personality_over_quota_is_403_and_writes_nothing(
    api, nova_conf, glance, flavor, conductor, option, limit, files, message
):
    CONF.set_override(option, limit, group="quota")
    try:
        response = api.post(
            "/v2.1/servers", _body(glance.active, personality=files), version=VERSION
        )
    finally:
        CONF.clear_override(option, group="quota")
    assert fault(response) == ("forbidden", 403, message)
    assert _api_rows(nova_conf) == (0, 0, 0)
    assert conductor.builds == []


def test_bad_personality_is_400(api, nova_conf, glance, flavor, conductor):
    for files, version in (
        ([{"path": "/etc/motd", "contents": "not base64!"}], VERSION),
        ([_file("/etc/motd", b"gone at 2.57")], "2.57"),
    ):
        response = api.post(
            "/v2.1/servers", _body(glance.active, personality=files), version=version
        )
        assert response.status_code == 400, response.text
    assert _api_rows(nova_conf) == (0, 0, 0)
    assert conductor.builds == []


def test_rebuild_hands_personality_on_within_quota(
    api,
    nova_conf,
    glance,
    flavor,
    compute_rpc,  # noqa: F811 - the rebuild tests' recording compute
):
    server = _server(nova_conf, glance.active)
    files = [_file("/etc/motd", b"rebuilt\n")]
    response = _rebuild(api, server, VERSION, image=glance.active, personality=files)
    assert response.status_code == 202, response.text
    ((kind, _, kwargs),) = compute_rpc.casts
    assert kind == "rebuild"
    assert kwargs["injected_files"] == [["/etc/motd", files[0]["contents"]]]

    # Another server: the first is rebuilding now.
    other = _server(nova_conf, glance.active)
    too_many = [_file(f"/etc/f{n}", b"x") for n in range(6)]
    response = _rebuild(api, other, VERSION, image=glance.active, personality=too_many)
    assert fault(response) == ("forbidden", 403, "Personality file limit exceeded")
    assert len(compute_rpc.casts) == 1
