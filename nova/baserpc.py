"""The RPC API every nova service serves next to its own (namespace
``baseapi``): a ping, with which a service waits for a peer to be up.

Version history:
  1.0 - ping
"""

from __future__ import annotations

import time
from typing import Any

import oslo_messaging
from oslo_log import log as logging

from nova import rpc

LOG = logging.getLogger(__name__)

NAMESPACE = "baseapi"
# Seconds one ping waits for its answer while waiting for a peer.
PING_TIMEOUT = 5


class BaseAPI(rpc.RPCAPI):
    """Client of the base API of the services of ``topic``."""

    NAMESPACE = NAMESPACE
    VERSION = "1.0"
    UPGRADE_LEVEL = "baseapi"

    def __init__(self, topic: str) -> None:
        self.TOPIC = topic
        super().__init__()

    def ping(self, context, arg: Any, timeout: float | None = None) -> dict:
        client = self.prepare(context, timeout=timeout)
        return client.call(context, "ping", arg=arg)

    def wake(self, context, server: str) -> None:
        """Cast a ping to the service of the topic on ``server``: its RPC
        listener, waiting for a message, returns at once (see
        ``nova.service.Service.stop``)."""
        self.prepare(context, server=server).cast(context, "ping", arg="wake")

    def wait_until_ready(self, context, stop_waiting=None) -> None:
        """Ping until a service of the topic answers.

        A message published before any service of the topic declared its
        queue is lost, so the first real call of a service that starts
        before its peers would wait a whole RPC timeout; a series of short
        pings does not.
        """
        attempt = 0
        while True:
            attempt += 1
            try:
                self.ping(context, "ready?", timeout=PING_TIMEOUT)
                return
            except oslo_messaging.MessagingTimeout:
                if stop_waiting is not None and stop_waiting():
                    raise
                LOG.warning(
                    "No %s service answered (attempt %d); still waiting",
                    self.TOPIC,
                    attempt,
                )
                time.sleep(1)


class BaseRPCEndpoint:
    """The ``baseapi`` endpoint of a service."""

    target = oslo_messaging.Target(namespace=NAMESPACE, version="1.0")

    def __init__(self, binary: str) -> None:
        self.binary = binary

    def ping(self, context, arg: Any) -> dict:
        return {"service": self.binary, "arg": arg}
