"""The keystoneauth1 session and service credentials of one config group.

nova talks to Glance (``[glance]``) and Neutron (``[neutron]``) as its
service user; each group's session and auth plugin are loaded once per
process and shared by every thread (a session pools its connections).
"""

from __future__ import annotations

import threading

from keystoneauth1 import loading as ks_loading

import nova.conf

CONF = nova.conf.CONF

_loaded: dict[str, tuple] = {}
_lock = threading.Lock()


def session_and_auth(group: str) -> tuple:
    """(session, auth plugin or None) of the options of ``group``."""
    with _lock:
        if group not in _loaded:
            _loaded[group] = (
                ks_loading.load_session_from_conf_options(CONF, group),
                ks_loading.load_auth_from_conf_options(CONF, group),
            )
        return _loaded[group]


def reset(group: str | None = None) -> None:
    """Forget what was loaded (of ``group``, or of all): tests change the
    options between cases."""
    with _lock:
        if group is None:
            _loaded.clear()
        else:
            _loaded.pop(group, None)
