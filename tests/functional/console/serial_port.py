"""A TCP listener standing in for a guest's serial port (what QEMU binds
for a ``<serial type='tcp'>``): it greets each connection with a login
prompt and echoes every line it receives, as a guest shell on ttyS0 does."""

from __future__ import annotations

import socketserver
import threading

PROMPT = b"guest login: "


class _Handler(socketserver.StreamRequestHandler):
    def handle(self) -> None:
        self.server.connections += 1
        try:
            self.wfile.write(self.server.greeting)
            for line in self.rfile:
                self.wfile.write(b"echo: " + line)
        except OSError:
            return


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    connections = 0
    greeting = PROMPT


class SerialPort:
    """The listener on 127.0.0.1 (a free port) until stopped; it greets
    with ``greeting`` (a SPICE server's magic stands in for one too)."""

    def __init__(self, host: str = "127.0.0.1", greeting: bytes = PROMPT) -> None:
        self._server = _Server((host, 0), _Handler)
        self._server.greeting = greeting
        self.host = host
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def connections(self) -> int:
        return self._server.connections

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)
