"""The console proxies' server: a web client and its WebSocket proxy.

One server proxies one console type: nova-novncproxy noVNC's,
nova-spicehtml5proxy SPICE's, nova-serialproxy the serial consoles' (with
a terminal page of its own). A browser loads the web client from this
server, then opens a WebSocket to
``/?token=<token>``. Before the WebSocket is accepted the proxy checks
that the page came from this proxy or an allowed origin (``[console]
allowed_origins``), that the token is a live console token of this cell
and of the server's console type, and that the instance's compute host
(asked over RPC) still has its console at the token's address. Anything
else is refused with 403 before a single byte reaches a console. Then bytes flow
both ways between the WebSocket and the instance's console (VNC or SPICE
server, serial port) until either side closes.

Connections are served on native threads (websockify's handler on the
standard library's threading HTTP server), one per browser connection.
"""

from __future__ import annotations

import http.cookies
import re
import socket
import socketserver
import threading
import time
import urllib.parse
from http.server import HTTPServer

import oslo_messaging
from oslo_log import log as logging
from websockify import websocketproxy, websocketserver

import nova.conf
from nova import context as nova_context
from nova import exception, objects
from nova.console import api as console_api

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

# Seconds to wait for a compute host's console to accept.
CONNECT_TIMEOUT = 10

_TOKEN_IN_TEXT = re.compile(r"(token(?:=|%3D))[^&\s'\"]+", re.IGNORECASE)


def redact_token(text: str) -> str:
    """``text`` with any console token replaced: tokens never reach logs."""
    return _TOKEN_IN_TEXT.sub(r"\1***", text)


class ConsoleRefused(Exception):
    """The connection may not open a console (the reason is logged only)."""


def _host_name(netloc: str) -> str:
    """The host name of ``host[:port]`` (IPv6 literals in brackets)."""
    return (urllib.parse.urlsplit(f"//{netloc}").hostname or "").lower()


class NovaProxyRequestHandler(websocketproxy.ProxyRequestHandler):
    """Serves the web client, checks WebSocket upgrades, proxies consoles."""

    def __init__(self, *args, **kwargs) -> None:
        self._console: objects.ConsoleAuthToken | None = None
        super().__init__(*args, **kwargs)

    # -- the web client --------------------------------------------------

    def translate_path(self, path: str) -> str:
        # The server's web root, not the process's working directory.
        self.directory = self.server.web
        return super().translate_path(path)

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - stdlib name
        LOG.info(
            "%s %s",
            self.client_address[0],
            redact_token(format % args) if args else redact_token(format),
        )

    # -- checks before the WebSocket is accepted -------------------------

    def _token(self) -> str:
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
        if query.get("token"):
            return query["token"][0]
        # noVNC versions before 1.0 sent it as a cookie.
        cookies = http.cookies.SimpleCookie(self.headers.get("Cookie", ""))
        if "token" in cookies:
            return cookies["token"].value
        raise ConsoleRefused("no token")

    def _check_origin(self, access_url_base: str | None) -> None:
        origin = self.headers.get("Origin") or self.headers.get("Sec-WebSocket-Origin")
        if origin is None:
            # Not a browser: the token alone decides.
            return
        parts = urllib.parse.urlsplit(origin)
        if parts.scheme not in ("http", "https"):
            raise ConsoleRefused(f"origin scheme {parts.scheme!r}")
        expected_scheme = urllib.parse.urlsplit(access_url_base or "").scheme
        # A WebSocket URL (the serial console's) is opened from an HTTP page.
        expected_scheme = {"ws": "http", "wss": "https"}.get(
            expected_scheme, expected_scheme
        )
        if expected_scheme and parts.scheme != expected_scheme:
            raise ConsoleRefused(
                f"origin scheme {parts.scheme!r} is not {expected_scheme!r}"
            )
        origin_host = (parts.hostname or "").lower()
        allowed = {_host_name(self.headers.get("Host", ""))}
        allowed.update(name.lower() for name in CONF.console.allowed_origins)
        if origin_host not in allowed:
            raise ConsoleRefused(f"origin {origin_host!r} is not allowed")

    def authorize_console(self) -> objects.ConsoleAuthToken:
        """The console this connection may open.

        :raises ConsoleRefused: bad origin, unknown or expired token, an
            instance that is gone or has no host, or whose host puts its
            console elsewhere (or does not answer).
        """
        context = nova_context.get_admin_context()
        try:
            token = objects.ConsoleAuthToken.validate(context, self._token())
        except exception.InvalidToken as exc:
            raise ConsoleRefused("invalid or expired token") from exc
        if token.console_type != self.server.console_type:
            raise ConsoleRefused(f"a {token.console_type} token")
        self._check_origin(token.access_url_base)
        try:
            instance = objects.Instance.get_by_uuid(
                context, token.instance_uuid, expected_attrs=[]
            )
        except exception.InstanceNotFound as exc:
            raise ConsoleRefused(f"instance {token.instance_uuid} is gone") from exc
        if not instance.host:
            raise ConsoleRefused(f"instance {token.instance_uuid} has no host")
        self._check_console_on_host(context, instance, token)
        return token

    def _check_console_on_host(self, context, instance, token) -> None:
        """Ask the instance's compute host where its console is now: a token
        outlives a move, a rebuild or a guest gone from the hypervisor, and
        must then open nothing (least of all another guest's console)."""
        try:
            console = console_api.locate(context, instance, self.server.console_type)
        except (exception.NovaException, oslo_messaging.MessagingException) as exc:
            raise ConsoleRefused(
                f"{instance.host} has no console of {instance.uuid}: {exc}"
            ) from exc
        if (console["host"], console["port"]) != (token.host, token.port):
            raise ConsoleRefused(
                f"the console of {instance.uuid} is no longer at the token's address"
            )

    def handle_upgrade(self) -> None:
        try:
            token = self.authorize_console()
        except ConsoleRefused as exc:
            LOG.warning(
                "Console connection from %s refused: %s", self.client_address[0], exc
            )
            self.send_error(403, "Console access refused")
            return
        except Exception:
            LOG.exception("Console connection from %s failed", self.client_address[0])
            self.send_error(500, "Console check failed")
            return
        LOG.info(
            "Console of instance %s for %s: %s:%s",
            token.instance_uuid,
            self.client_address[0],
            token.host,
            token.port,
        )
        self._console = token
        websocketserver.WebSocketRequestHandlerMixIn.handle_upgrade(self)

    # -- proxying ----------------------------------------------------------

    def new_websocket_client(self) -> None:
        host, port = self._console.host, self._console.port
        try:
            target = socket.create_connection((host, port), timeout=CONNECT_TIMEOUT)
        except OSError as exc:
            LOG.warning("Cannot reach the console at %s:%s: %s", host, port, exc)
            raise self.CClose(1011, "Failed to connect to the console") from exc
        target.settimeout(None)
        target.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        session_timer = None
        if CONF.consoleauth.enforce_session_timeout:
            # Cutting the console side ends the proxy loop, which then
            # closes the browser's WebSocket.
            session_timer = threading.Timer(
                max(0.0, self._console.expires - time.time()),
                _shut_down,
                (target,),
            )
            session_timer.daemon = True
            session_timer.start()
        try:
            self.do_proxy(target)
        finally:
            if session_timer is not None:
                session_timer.cancel()
            _shut_down(target)
            target.close()


def _shut_down(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass  # already closed by the other side


class NovaWebSocketProxy(socketserver.ThreadingMixIn, HTTPServer):
    """The threaded HTTP server of a console proxy: ``console_type``
    tokens only, the web client from ``web`` (None: WebSockets only, any
    other request is 405)."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(
        self,
        host: str,
        port: int,
        web: str | None,
        console_type: str = console_api.NOVNC,
    ) -> None:
        self.web = web
        self.console_type = console_type
        # What websockify's handler reads from its server.
        self.only_upgrade = web is None
        self.file_only = True
        self.verbose = False
        self.heartbeat = None
        self.token_plugin = None
        self.auth_plugin = None
        self.target_host = None
        self.target_port = None
        self.handler_id = 0
        super().__init__((host, port), NovaProxyRequestHandler)
