"""Key pairs over HTTP: import, generate (before 2.92), types, admin access,
paging, quota."""

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519

from nova.conf import CONF
from tests.functional.api.conftest import ADMIN, DEMO, fault


def _public_key() -> str:
    key = ed25519.Ed25519PrivateKey.generate().public_key()
    return key.public_bytes(
        serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH
    ).decode()


def _create(api, name, version="2.92", token=DEMO, **values):
    body = {"keypair": {"name": name, **values}}
    return api.post("/v2.1/os-keypairs", body, version=version, token=token)


def test_import_show_list_delete(api):
    key = _public_key()
    response = _create(api, "mykey", public_key=key)
    assert response.status_code == 201
    created = response.json()["keypair"]
    assert created["public_key"] == key and created["type"] == "ssh"
    assert created["user_id"] == "demo" and "private_key" not in created
    assert len(created["fingerprint"].split(":")) == 16

    shown = api.get("/v2.1/os-keypairs/mykey", version="2.92").json()["keypair"]
    assert shown["fingerprint"] == created["fingerprint"]
    assert shown["deleted"] is False and shown["id"] > 0
    listed = api.get("/v2.1/os-keypairs", version="2.92").json()["keypairs"]
    assert [k["keypair"]["name"] for k in listed] == ["mykey"]
    assert set(listed[0]["keypair"]) == {"name", "public_key", "fingerprint", "type"}

    assert api.delete("/v2.1/os-keypairs/mykey", version="2.92").status_code == 204
    assert fault(api.get("/v2.1/os-keypairs/mykey")) == (
        "itemNotFound",
        404,
        "Keypair mykey not found for user demo",
    )


def test_generation_before_2_92_and_legacy_codes(api):
    response = _create(api, "gen", version="2.1")
    assert response.status_code == 200
    created = response.json()["keypair"]
    assert created["private_key"].startswith("-----BEGIN RSA PRIVATE KEY-----")
    assert created["public_key"].startswith("ssh-rsa ") and "type" not in created
    assert api.delete("/v2.1/os-keypairs/gen", version="2.1").status_code == 202
    # From 2.92 the public key is required.
    assert fault(_create(api, "gen", version="2.92"))[:2] == ("badRequest", 400)


@pytest.mark.parametrize(
    "name, version, code",
    [
        ("", "2.1", 400),
        ("x" * 256, "2.1", 400),
        ("key/slash", "2.1", 400),
        ("user@host.key", "2.91", 400),
        ("user@host.key", "2.92", 201),
    ],
)
def test_names(api, name, version, code):
    assert _create(api, name, version, public_key=_public_key()).status_code == code


def test_bad_keys_and_duplicates(api):
    assert fault(_create(api, "bad", public_key="ssh-rsa not-base64")) == (
        "badRequest",
        400,
        "Keypair data is invalid: failed to generate fingerprint",
    )
    assert fault(_create(api, "x", type="x509", public_key="no cert"))[1] == 400
    assert _create(api, "dup", public_key=_public_key()).status_code == 201
    assert fault(_create(api, "dup", public_key=_public_key())) == (
        "conflictingRequest",
        409,
        "Key pair 'dup' already exists.",
    )
    listed = api.get("/v2.1/os-keypairs").json()["keypairs"]
    assert [k["keypair"]["name"] for k in listed] == ["dup"]


def test_admin_acts_for_another_user_from_2_10(api):
    key = _public_key()
    response = _create(
        api, "theirs", "2.10", token=ADMIN, public_key=key, user_id="demo"
    )
    assert response.status_code == 201
    assert response.json()["keypair"]["user_id"] == "demo"
    names = api.get("/v2.1/os-keypairs?user_id=demo", version="2.10", token=ADMIN)
    assert [k["keypair"]["name"] for k in names.json()["keypairs"]] == ["theirs"]
    # Users may not name another user.
    response = api.get("/v2.1/os-keypairs?user_id=admin", version="2.10")
    assert fault(response)[:2] == ("forbidden", 403)
    response = _create(api, "mine", "2.10", public_key=key, user_id="admin")
    assert fault(response)[:2] == ("forbidden", 403)
    # Before 2.10 the parameter is ignored: the caller's own key pairs.
    own = api.get("/v2.1/os-keypairs?user_id=demo", version="2.9", token=ADMIN)
    assert own.json()["keypairs"] == []


def test_paging_from_2_35(api):
    for name in ("a", "b", "c"):
        _create(api, name, public_key=_public_key())
    page = api.get("/v2.1/os-keypairs?limit=2", version="2.35").json()
    assert [k["keypair"]["name"] for k in page["keypairs"]] == ["a", "b"]
    assert "marker=b" in page["keypairs_links"][0]["href"]
    rest = api.get("/v2.1/os-keypairs?marker=b", version="2.35").json()
    assert [k["keypair"]["name"] for k in rest["keypairs"]] == ["c"]
    assert api.get("/v2.1/os-keypairs?marker=zz", version="2.35").status_code == 400
    # 2.75 refuses unknown parameters.
    assert api.get("/v2.1/os-keypairs?foo=1", version="2.75").status_code == 400
    assert api.get("/v2.1/os-keypairs?foo=1", version="2.74").status_code == 200


def test_quota_refuses_one_too_many(api):
    CONF.set_override("key_pairs", 2, group="quota")
    try:
        for name in ("k1", "k2"):
            assert _create(api, name, public_key=_public_key()).status_code == 201
        assert fault(_create(api, "k3", public_key=_public_key())) == (
            "forbidden",
            403,
            "Quota exceeded, too many key pairs.",
        )
    finally:
        CONF.clear_override("key_pairs", group="quota")
    assert len(api.get("/v2.1/os-keypairs").json()["keypairs"]) == 2
