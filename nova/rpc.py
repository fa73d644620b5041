"""RPC between nova services: oslo.messaging on native threads.

A deployment has several message queues: the API-level one (scheduler,
superconductor) and one per cell (its conductor and computes). Transports
are therefore cached per transport URL, and an RPC API sends a message on
the queue of the cell its context targets (``context.transport_url``, set
by :func:`nova.context.target_cell`), or on this service's own
``transport_url`` otherwise.

Every RPC API declares its version; ``[upgrade_levels]`` caps the version a
client sends (see :mod:`nova.upgrade_levels`), so an upgraded service keeps
talking to older peers: a client sends the older form of a message when
there is one, and refuses (RPCPinnedToOldVersion) when there is none. The
request context (user, project, roles, request ids) and Nova objects (with
their versions) travel with every message.
"""

from __future__ import annotations

import threading
from typing import Any, ClassVar

import oslo_messaging
from oslo_log import log as logging

import nova.conf
from nova import context as nova_context
from nova import exception, upgrade_levels, utils
from nova.notifications import notifier
from nova.objects import base as objects_base

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

# Exceptions of these modules raised by an RPC server are re-raised as
# themselves by the caller (others arrive as oslo.messaging RemoteError).
ALLOWED_EXMODS = ["nova.exception", "placement_client.exception"]

_transports: dict[str | None, oslo_messaging.Transport] = {}
# How often a client of this process tries again to reach the broker before
# a send fails with MessageDeliveryFailure; None: until it is back.
_send_retries: int | None = None
_transports_lock = threading.Lock()


def get_transport(url: str | None = None) -> oslo_messaging.Transport:
    """The (cached) RPC transport of ``url``; None is ``[DEFAULT] transport_url``."""
    # A cell whose mapping names this service's own transport_url shares its
    # transport: for in-memory transports (the all-in-one's ``fake://``) a
    # second transport object would be a second, disconnected broker.
    url = url or CONF.transport_url
    with _transports_lock:
        transport = _transports.get(url)
        if transport is None:
            try:
                transport = oslo_messaging.get_rpc_transport(
                    CONF, url=url, allowed_remote_exmods=ALLOWED_EXMODS
                )
            except (
                oslo_messaging.InvalidTransportURL,
                oslo_messaging.DriverLoadFailure,
            ) as exc:
                raise exception.InvalidTransportURL(
                    url=utils.mask_url_password(url) or "[DEFAULT] transport_url",
                    reason=str(exc),
                ) from exc
            _transports[url] = transport
        return transport


def bound_sends(retries: int | None) -> None:
    """Make this process's RPC clients give up a send after ``retries``
    more tries to reach the broker (None: retry until it is back).

    Daemons keep the default: their work waits for the broker. nova-api
    bounds them, so that a request answers 503 while the broker is down
    instead of hanging."""
    global _send_retries
    _send_retries = retries


def cleanup() -> None:
    """Close every transport (at service exit, or between tests)."""
    with _transports_lock:
        transports = list(_transports.values())
        _transports.clear()
    notifier.cleanup()
    for transport in transports:
        transport.cleanup()


class RequestContextSerializer(oslo_messaging.Serializer):
    """Carries the request context and Nova objects across RPC."""

    def __init__(self, base: oslo_messaging.Serializer | None = None) -> None:
        self._base = base or objects_base.NovaObjectSerializer()

    def serialize_entity(self, context, entity):
        return self._base.serialize_entity(context, entity)

    def deserialize_entity(self, context, entity):
        return self._base.deserialize_entity(context, entity)

    def serialize_context(self, context) -> dict[str, Any]:
        return context.to_dict()

    def deserialize_context(self, context: dict[str, Any]):
        return nova_context.RequestContext.from_dict(context)


class RPCServer(oslo_messaging.rpc.server.RPCServer):
    """oslo.messaging's RPC server, counting the requests it handles so a
    stopping service can wait for exactly those.

    Its own ``wait()`` also waits for every idle worker thread to notice
    the stop, which takes up to a second after the last request.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._requests = 0
        self._requests_done = threading.Condition()

    def _on_incoming(self, incoming) -> None:
        # Counted from the hand-over to the worker pool, so a request
        # waiting for a free thread is in flight too.
        with self._requests_done:
            self._requests += 1
        try:
            super()._on_incoming(incoming)
        except BaseException:
            self._finished()
            raise

    def _process_incoming(self, incoming) -> None:
        try:
            super()._process_incoming(incoming)  # dispatch, then reply
        finally:
            self._finished()

    def _finished(self) -> None:
        with self._requests_done:
            self._requests -= 1
            self._requests_done.notify_all()

    def wait_for_requests(self, timeout: float | None = None) -> bool:
        """After ``stop()``: block until every request received has been
        handled and answered; False if some still run at ``timeout``."""
        with self._requests_done:
            return self._requests_done.wait_for(lambda: self._requests == 0, timeout)


def get_server(
    target: oslo_messaging.Target,
    endpoints: list[Any],
    transport: oslo_messaging.Transport | None = None,
) -> RPCServer:
    """An RPC server dispatching to ``endpoints`` on a thread pool
    (``[DEFAULT] executor_thread_pool_size`` threads).

    oslo.messaging's threading executor is its default (and soon only)
    one; naming it explicitly is deprecated.
    """
    return oslo_messaging.get_rpc_server(
        transport or get_transport(),
        target,
        endpoints,
        serializer=RequestContextSerializer(),
        access_policy=oslo_messaging.DefaultRPCAccessPolicy,
        server_cls=RPCServer,
    )


class RPCAPI:
    """Client side of one service's RPC API.

    Subclasses set the topic, namespace, version and the ``[upgrade_levels]``
    option naming their cap; an API whose versions are in the service
    version history names its binary and history key (``AUTO_CAP``), else
    ``auto`` means no cap. One client is kept per message queue and cap.
    """

    TOPIC: ClassVar[str]
    VERSION: ClassVar[str]
    NAMESPACE: ClassVar[str | None] = None
    UPGRADE_LEVEL: ClassVar[str]
    AUTO_CAP: ClassVar[tuple[str, str] | None] = None

    def __init__(self) -> None:
        # A bad value fails the service at start, not at its first message.
        self._configured_cap()
        self._clients: dict[tuple, oslo_messaging.RPCClient]
        self._clients = {}
        self._lock = threading.Lock()

    def _configured_cap(self) -> str | None:
        return upgrade_levels.parse(
            self.UPGRADE_LEVEL, getattr(CONF.upgrade_levels, self.UPGRADE_LEVEL)
        )

    @property
    def version_cap(self) -> str | None:
        """The highest version this client sends now; None: no cap."""
        cap = self._configured_cap()
        if cap != upgrade_levels.AUTO:
            return cap
        if self.AUTO_CAP is None:
            return None
        return upgrade_levels.auto_cap(*self.AUTO_CAP)

    def _client(self, transport_url: str | None) -> oslo_messaging.RPCClient:
        cap = self.version_cap
        with self._lock:
            key = (transport_url, cap, _send_retries)
            client = self._clients.get(key)
            if client is None:
                target = oslo_messaging.Target(
                    topic=self.TOPIC, version=self.VERSION, namespace=self.NAMESPACE
                )
                client = oslo_messaging.get_rpc_client(
                    get_transport(transport_url),
                    target,
                    version_cap=cap,
                    serializer=RequestContextSerializer(),
                    retry=_send_retries,
                )
                self._clients[key] = client
            return client

    def prepare(self, context, **kwargs: Any):
        """A call context on the queue ``context`` targets (see module doc).

        ``kwargs`` are oslo.messaging's ``prepare`` arguments (version,
        server, timeout, ...).

        :raises RPCPinnedToOldVersion: the version asked for is above the
            cap; nothing is sent.
        """
        client = self._client(getattr(context, "transport_url", None))
        version = kwargs.get("version")
        if version is not None and not client.can_send_version(version):
            raise exception.RPCPinnedToOldVersion(
                api=self.NAMESPACE or self.TOPIC,
                version=version,
                option=self.UPGRADE_LEVEL,
                cap=client.version_cap,
            )
        return client.prepare(**kwargs)

    def can_send_version(self, version: str, context=None) -> bool:
        return self._client(getattr(context, "transport_url", None)).can_send_version(
            version
        )
