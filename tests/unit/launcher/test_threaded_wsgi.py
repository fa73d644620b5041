"""The all-in-one's threaded WSGI server takes a burst of connections."""

from __future__ import annotations

import concurrent.futures
import socket

import requests

from nova.launcher.threaded_wsgi import ThreadedWSGIServer


def _hello(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"hello"]


def test_fifty_connections_made_before_the_first_accept_are_all_served():
    server = ThreadedWSGIServer("test-api", _hello, "127.0.0.1", 0)
    host, port = server.url.removeprefix("http://").rstrip("/").split(":")
    clients = 50

    def connect(_: int) -> socket.socket:
        # Listening but not accepting yet: only the backlog holds these.
        return socket.create_connection((host, int(port)), timeout=10)

    try:
        with concurrent.futures.ThreadPoolExecutor(clients) as pool:
            sockets = list(pool.map(connect, range(clients)))
        server.start()

        def ask(sock: socket.socket) -> bytes:
            with sock:
                sock.settimeout(10)
                sock.sendall(b"GET / HTTP/1.0\r\nHost: x\r\n\r\n")
                return sock.makefile("rb").read()

        with concurrent.futures.ThreadPoolExecutor(clients) as pool:
            answers = list(pool.map(ask, sockets))
        assert all(
            a.startswith(b"HTTP/1.0 200") and a.endswith(b"hello") for a in answers
        )
        # And the server still serves after the burst.
        assert requests.get(server.url, timeout=10).text == "hello"
    finally:
        server.stop()
