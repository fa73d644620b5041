"""Microversions of the Compute API: parsing, ordering, negotiation.

A request names the version it wants in ``OpenStack-API-Version: compute
X.Y`` (2.27+) or the legacy ``X-OpenStack-Nova-API-Version: X.Y`` header;
``latest`` means the newest we serve and no header means the oldest. The
chosen version is echoed back in both headers on every response.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

from nova import exception

MIN_VERSION = "2.1"
# The newest microversion upstream released; every handler, schema and view
# that changes with the version is declared against these numbers.
MAX_VERSION = "2.104"

SERVICE_TYPE = "compute"
HEADER = "OpenStack-API-Version"
LEGACY_HEADER = "X-OpenStack-Nova-API-Version"

_VERSION_RE = re.compile(r"^([1-9]\d*)\.([1-9]\d*|0)$")


@functools.total_ordering
class APIVersionRequest:
    """A ``major.minor`` API version, comparable with another."""

    __slots__ = ("major", "minor")

    def __init__(self, version_string: str) -> None:
        match = _VERSION_RE.match(version_string)
        if match is None:
            raise exception.InvalidAPIVersionString(version=version_string)
        try:
            self.major = int(match.group(1))
            self.minor = int(match.group(2))
        except ValueError as exc:  # more digits than Python turns into an int
            raise exception.InvalidAPIVersionString(version=version_string) from exc

    def _key(self) -> tuple[int, int]:
        return (self.major, self.minor)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, APIVersionRequest):
            return NotImplemented
        return self._key() == other._key()

    def __lt__(self, other: APIVersionRequest) -> bool:
        return self._key() < other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}"

    def __repr__(self) -> str:
        return f"APIVersionRequest('{self}')"

    def matches(self, min_version: str, max_version: str | None = None) -> bool:
        """Whether this version lies in ``[min_version, max_version]``."""
        if self < APIVersionRequest(min_version):
            return False
        return max_version is None or self <= APIVersionRequest(max_version)


MIN = APIVersionRequest(MIN_VERSION)
MAX = APIVersionRequest(MAX_VERSION)


def _requested_string(headers: Mapping[str, str]) -> str | None:
    """The version string the headers ask for, new header first."""
    value = headers.get(HEADER)
    if value:
        # "compute 2.60" or a list of services: "volume 3.0, compute 2.60".
        for item in value.split(","):
            service, _, version = item.strip().partition(" ")
            if service.lower() == SERVICE_TYPE:
                return version.strip()
    legacy = headers.get(LEGACY_HEADER)
    if legacy:
        return legacy.strip()
    return None


def from_headers(headers: Mapping[str, str]) -> APIVersionRequest:
    """The version a request asks for.

    :raises InvalidAPIVersionString: for a malformed version (a 400).
    :raises InvalidGlobalAPIVersion: for a version outside what we serve
        (a 406).
    """
    requested = _requested_string(headers)
    if requested is None:
        return MIN
    if requested.lower() == "latest":
        return MAX
    version = APIVersionRequest(requested)
    if not MIN <= version <= MAX:
        raise exception.InvalidGlobalAPIVersion(
            req_ver=str(version), min_ver=MIN_VERSION, max_ver=MAX_VERSION
        )
    return version


def response_headers(version: APIVersionRequest) -> list[tuple[str, str]]:
    """The headers that echo the negotiated version on a response."""
    return [
        (HEADER, f"{SERVICE_TYPE} {version}"),
        (LEGACY_HEADER, str(version)),
        ("Vary", f"{HEADER}, {LEGACY_HEADER}"),
    ]
