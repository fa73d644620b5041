"""Just enough of a WebSocket client to see what a console proxy answers."""

from __future__ import annotations

import base64
import os
import socket
import struct

from tests.fixtures.vnc_server import read_exact


class Handshake:
    def __init__(self, status: int, sock: socket.socket | None) -> None:
        self.status = status
        self.sock = sock

    def read_binary(self, size: int) -> bytes:
        """At least ``size`` bytes of payload from the server's frames."""
        data = b""
        while len(data) < size:
            opcode, payload = _read_frame(self.sock)
            if opcode == 8:
                raise ConnectionError(f"closed by the proxy: {payload!r}")
            data += payload
        return data

    def send_binary(self, data: bytes) -> None:
        """One binary frame, masked as a client's must be."""
        mask = os.urandom(4)
        header = bytes([0x82])
        if len(data) < 126:
            header += bytes([0x80 | len(data)])
        else:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(data))
        masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(data))
        self.sock.sendall(header + mask + masked)

    def read_until(self, marker: bytes) -> bytes:
        """Payload up to and including ``marker``."""
        data = b""
        while marker not in data:
            data += self.read_binary(1)
        return data

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()


def _read_frame(sock: socket.socket) -> tuple[int, bytes]:
    first, second = read_exact(sock, 2)
    length = second & 0x7F
    if length == 126:
        (length,) = struct.unpack(">H", read_exact(sock, 2))
    elif length == 127:
        (length,) = struct.unpack(">Q", read_exact(sock, 8))
    # Frames from a server are never masked.
    return first & 0x0F, read_exact(sock, length)


def open_websocket(
    host: str, port: int, path: str, origin: str | None = None
) -> Handshake:
    """Send the upgrade request; the HTTP status and, on 101, the socket."""
    sock = socket.create_connection((host, port), timeout=30)
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [
        f"GET {path} HTTP/1.1",
        f"Host: {host}:{port}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key}",
        "Sec-WebSocket-Version: 13",
        "Sec-WebSocket-Protocol: binary",
    ]
    if origin is not None:
        lines.append(f"Origin: {origin}")
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    # Byte by byte: the first frame may follow the headers in the same
    # segment and must stay in the socket for read_binary.
    response = b""
    while not response.endswith(b"\r\n\r\n"):
        byte = sock.recv(1)
        if not byte:
            break
        response += byte
    status = int(response.split(b" ", 2)[1])
    if status != 101:
        sock.close()
        return Handshake(status, None)
    return Handshake(status, sock)
