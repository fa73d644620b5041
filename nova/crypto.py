"""Key material for key pairs: fingerprints, validation, generation."""

from __future__ import annotations

import base64
import hashlib

from cryptography import exceptions as crypto_exceptions
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from nova import exception

# The size of the RSA keys generated for users who bring none (before 2.92).
GENERATED_KEY_BITS = 2048


def _colon_hex(digest: bytes) -> str:
    return ":".join(f"{byte:02x}" for byte in digest)


def ssh_fingerprint(public_key: str) -> str:
    """The MD5 fingerprint of an OpenSSH public key (``aa:bb:...``).

    :raises InvalidKeypair: not a public key OpenSSH could read.
    """
    try:
        serialization.load_ssh_public_key(public_key.strip().encode("utf-8"))
        blob = base64.b64decode(public_key.split()[1])
    except (
        ValueError,
        IndexError,
        UnicodeError,
        crypto_exceptions.UnsupportedAlgorithm,
    ) as exc:
        raise exception.InvalidKeypair(reason="failed to generate fingerprint") from exc
    return _colon_hex(hashlib.md5(blob, usedforsecurity=False).digest())


def x509_fingerprint(certificate: str) -> str:
    """The SHA-1 fingerprint of a PEM certificate.

    :raises InvalidKeypair: not a PEM certificate.
    """
    try:
        cert = x509.load_pem_x509_certificate(certificate.encode("utf-8"))
    except (ValueError, UnicodeError) as exc:
        raise exception.InvalidKeypair(reason="failed to generate fingerprint") from exc
    return _colon_hex(cert.fingerprint(hashes.SHA1()))  # noqa: S303 - upstream's


def generate_ssh_key_pair() -> tuple[str, str, str]:
    """A new RSA key pair: (private key PEM, OpenSSH public key, fingerprint)."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=GENERATED_KEY_BITS)
    private = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.NoEncryption(),
    ).decode("ascii")
    public = (
        key.public_key()
        .public_bytes(
            serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH
        )
        .decode("ascii")
        + " Generated-by-Nova"
    )
    return private, public, ssh_fingerprint(public)
