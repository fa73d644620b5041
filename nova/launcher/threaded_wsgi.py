"""A WSGI application served on native threads inside the current process.

The all-in-one serves the Compute API from its own process, where gunicorn
(which forks workers and owns signal handling) does not fit. The standard
library's server with one thread per connection is enough for one developer
and a CLI; production deployments run ``nova-api`` under gunicorn.
"""

from __future__ import annotations

import logging
import socketserver
import threading
from wsgiref import simple_server

LOG = logging.getLogger(__name__)

# Connections the kernel holds for the accept loop: upstream's API servers
# listened with 128. The standard library's 5 resets clients in a burst.
LISTEN_BACKLOG = 128


class _ThreadingWSGIServer(socketserver.ThreadingMixIn, simple_server.WSGIServer):
    daemon_threads = True  # a slow client must not hold up the exit
    allow_reuse_address = True
    request_queue_size = LISTEN_BACKLOG


class _LoggingHandler(simple_server.WSGIRequestHandler):
    """Access lines go to the service log, not stderr."""

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        LOG.info("%s %s", self.address_string(), format % args)


class ThreadedServer:
    """Serve a ``socketserver`` server from a background thread."""

    def __init__(self, name: str, server: socketserver.BaseServer) -> None:
        self.name = name
        self._server = server
        self._thread = threading.Thread(
            target=self._server.serve_forever, name=f"wsgi-{name}", daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/"

    def start(self) -> None:
        self._thread.start()
        LOG.info("%s listening on %s", self.name, self.url)

    def stop(self) -> None:
        """Stop accepting requests and close the socket."""
        # shutdown() waits for the serving loop: only one that was started.
        started = self._thread.is_alive()
        if started:
            self._server.shutdown()
        self._server.server_close()
        if started:
            self._thread.join(timeout=5)


class ThreadedWSGIServer(ThreadedServer):
    """Serve ``app`` on ``host:port`` from a background thread."""

    def __init__(self, name: str, app, host: str, port: int) -> None:
        super().__init__(
            name,
            simple_server.make_server(
                host,
                port,
                app,
                server_class=_ThreadingWSGIServer,
                handler_class=_LoggingHandler,
            ),
        )
