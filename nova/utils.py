"""Small helpers shared by the services and the command line tools."""

from __future__ import annotations

import hashlib
import re

MASK = "****"

# A host entry of a transport URL that carries no credentials: a name or
# bracketed IPv6 address with an optional numeric port.
_BARE_HOST = re.compile(r"^(\[[^\]/@]*\]|[^:@\[\]/,]*)(:\d*)?$")
_PASSWORD_QUERY_PARAM = re.compile(r"(?i)((?:^|[?&;])password=)[^&;#]*")


def mask_url_password(url: str | None) -> str | None:
    """Return ``url`` with every password replaced by ``****``.

    Handles database URLs (``mysql+pymysql://nova:secret@db/nova``) and
    oslo.messaging transport URLs, which may list several hosts separated by
    commas, each with its own credentials
    (``rabbit://u1:p1@h1:5672,u2:p2@h2:5672/vhost``). A ``password=`` query
    parameter is masked too. Anything that is not a URL comes back unchanged.
    """
    if not url or "://" not in url:
        return url
    scheme, rest = url.split("://", 1)
    # The host list ends at the first '/' after the last '@' (passwords may
    # contain '/', host names may not); without credentials, at the first '/'.
    at = rest.rfind("@")
    slash = rest.find("/", at + 1)
    if slash == -1:
        slash = len(rest)
    netloc, tail = rest[:slash], rest[slash:]
    if at != -1:
        netloc = ",".join(_mask_host_entry(e) for e in _host_entries(netloc))
    tail = _PASSWORD_QUERY_PARAM.sub(r"\g<1>" + MASK, tail)
    return f"{scheme}://{netloc}{tail}"


def _host_entries(netloc: str) -> list[str]:
    """Split a host list on commas, re-joining a password that holds one.

    oslo.messaging splits on every comma; a piece that does not end in a bare
    host (``host:port`` after any ``user:password@``) can only be the front
    of a password containing a comma, so it is glued to the following piece
    rather than shown as is.
    """
    entries: list[str] = []
    pending = ""
    for piece in netloc.split(","):
        entry = f"{pending},{piece}" if pending else piece
        if _BARE_HOST.match(entry.rsplit("@", 1)[-1]):
            entries.append(entry)
            pending = ""
        else:
            pending = entry
    if pending:
        entries.append(pending)
    return entries


def _mask_host_entry(entry: str) -> str:
    if "@" not in entry:
        # Only a leftover fragment that never met its '@' gets here; it may be
        # part of a secret, so it is not shown at all.
        return entry if _BARE_HOST.match(entry) else MASK
    credentials, host = entry.rsplit("@", 1)
    user, has_password, _ = credentials.partition(":")
    if not has_password:
        return entry
    return f"{user}:{MASK}@{host}"


def generate_hostid(host: str | None, project_id: str) -> str:
    """The opaque id under which a project sees a host: equal for two of
    its servers on the same host, meaningless to other projects."""
    if not host:
        return ""
    return hashlib.sha224((str(project_id) + host).encode("utf-8")).hexdigest()
