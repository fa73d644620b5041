"""Key pairs: a user's public keys in the API database."""

import pytest

from nova import exception, objects


def _keypair(ctxt, user_id, name, public_key="ssh-ed25519 AAAA test"):
    keypair = objects.KeyPair(
        ctxt, user_id=user_id, name=name, public_key=public_key, fingerprint="f"
    )
    keypair.create()
    return keypair


def test_a_key_is_found_by_its_users_name_only(ctxt):
    _keypair(ctxt, "u1", "k1", public_key="ssh-ed25519 AAAA one")
    _keypair(ctxt, "u2", "k2")

    found = objects.KeyPair.get_by_name(ctxt, "u1", "k1")

    assert found.public_key == "ssh-ed25519 AAAA one"
    with pytest.raises(exception.KeypairNotFound):
        objects.KeyPair.get_by_name(ctxt, "u1", "k2")


def test_key_pair_count_is_per_user(ctxt):
    _keypair(ctxt, "u1", "a")
    _keypair(ctxt, "u1", "b")
    _keypair(ctxt, "u2", "a")

    assert objects.KeyPairList.get_count_by_user(ctxt, "u1") == 2
    assert objects.KeyPairList.get_count_by_user(ctxt, "u2") == 1
    assert objects.KeyPairList.get_count_by_user(ctxt, "u3") == 0
