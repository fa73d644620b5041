"""What an ``[upgrade_levels]`` value stands for: the highest version of an
RPC API a client may send during a rolling upgrade.

A value is ``MAJOR.MINOR``, or ``auto``: the version the oldest running
service of the API speaks. Every service records its service version in its
row (``objects.service.SERVICE_VERSION``) and
``objects.service.SERVICE_VERSION_HISTORY`` says which RPC versions each
service version speaks, so ``auto`` is the lowest recorded version, looked
up in every cell when this service can reach them (API database configured)
and in its own cell otherwise (nova-compute asks its conductor).

The answer is kept until the service reloads its configuration (SIGHUP,
:func:`reset`): an upgrade finishes by restarting the old services, then
signalling the others.
"""

from __future__ import annotations

import threading

from oslo_log import log as logging

import nova.conf
from nova import context as nova_context
from nova import exception, objects, scatter_gather
from nova.objects import service as service_obj

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

AUTO = "auto"

_auto_caps: dict[tuple[str, str], str] = {}
_auto_caps_lock = threading.Lock()


def parse(service: str, value: str | None) -> str | None:
    """``value`` checked: None (no cap), ``auto`` or ``MAJOR.MINOR``.

    :raises InvalidRPCVersion: anything else.
    """
    if value is None or value == AUTO:
        return value
    parts = value.split(".")
    if len(parts) != 2 or not all(part.isdigit() for part in parts):
        raise exception.InvalidRPCVersion(
            value=value, service=service, reason="expected MAJOR.MINOR or auto"
        )
    return value


def minimum_service_version(binary: str) -> tuple[int, bool]:
    """The lowest service version of the live ``binary`` services (0 when
    none runs), and whether every cell answered."""
    context = nova_context.get_admin_context()
    if not CONF.api_database.connection:
        return objects.Service.get_minimum_version(context, binary), True
    results = scatter_gather.scatter_gather_all_cells(
        context, lambda cctxt: objects.Service.get_minimum_version(cctxt, binary)
    )
    versions, complete = [], True
    for cell, result in results:
        if isinstance(result, Exception):
            complete = False
            LOG.warning(
                "Cell %s did not tell the versions of its %s services (%s); "
                "leaving it out of [upgrade_levels] auto",
                cell.uuid,
                binary,
                result,
            )
        elif result:
            versions.append(result)
    return min(versions, default=0), complete


def auto_cap(binary: str, history_key: str) -> str | None:
    """The version of the RPC API named ``history_key`` in the service
    version history that the oldest ``binary`` service speaks.

    None (no cap) while no such service runs. Not kept when no service ran
    or a cell did not answer, so the next message asks again.
    """
    with _auto_caps_lock:
        cap = _auto_caps.get((binary, history_key))
        if cap is not None:
            return cap
        version, complete = minimum_service_version(binary)
        if not version:
            LOG.debug("No %s service recorded a version: no RPC version cap", binary)
            return None
        history = service_obj.SERVICE_VERSION_HISTORY
        # A service newer than this code speaks at least what this code does.
        cap = history[min(version, len(history) - 1)][history_key]
        LOG.info(
            "Automatically selected %s RPC version %s from minimum %s service "
            "version %d",
            history_key.removesuffix("_rpc"),
            cap,
            binary,
            version,
        )
        if complete:
            _auto_caps[(binary, history_key)] = cap
        return cap


def reset() -> None:
    """Forget what ``auto`` stood for (configuration reload)."""
    with _auto_caps_lock:
        _auto_caps.clear()
