"""The encrypted admin password a guest posts once and its owner reads.

The guest (cloud-init, cloudbase-init) encrypts a generated password with
the instance's public key and POSTs it to the metadata API; the owner reads
it with ``GET /servers/{id}/os-server-password`` and decrypts it with the
private key. Like upstream, it lives in the instance's system metadata,
split into chunks because a system metadata value holds 255 characters.
"""

from __future__ import annotations

CHUNKS = 4
CHUNK_LENGTH = 255
# What the metadata API accepts from a guest: an RSA-2048 ciphertext in
# base64 is 344 characters, so upstream's 256-byte limit is about raw keys.
MAX_SIZE = 256

_KEYS = tuple(f"password_{index}" for index in range(CHUNKS))


def extract_password(instance) -> str | None:
    """The stored password of ``instance``, None when there is none."""
    system_metadata = instance.system_metadata
    chunks = [system_metadata.get(key) or "" for key in _KEYS]
    password = "".join(chunks)
    return password or None


def password_chunks(password: str) -> dict[str, str]:
    """The system metadata entries that store ``password`` ('' clears it)."""
    return {
        key: password[index * CHUNK_LENGTH : (index + 1) * CHUNK_LENGTH]
        for index, key in enumerate(_KEYS)
    }


def set_password(instance, password: str) -> None:
    """Store ``password`` (or clear it with '') in ``instance``'s system
    metadata and save the instance."""
    instance.system_metadata.update(password_chunks(password))
    instance.save()
