"""A minimal HTTP/1.1 keep-alive client for the load generator: one connection, JSON in, status and body out.

A load generator shares the machine's cores with the server it measures, and every CPU second it spends is one
the server does not get. httpx costs about 5-10 ms of CPU a request here (its async client most), as much as a
third of what the server spends; this client writes the request bytes itself and reads the response by its
``Content-Length``, well under a millisecond. It speaks only what ``tiermem serve`` answers (no chunked
bodies, no redirects, no TLS) and says so with an error rather than guessing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from typing import Any


class ProtocolError(Exception):
    """The server answered something this client does not read (or closed the connection)."""


def request_bytes(method: str, path: str, host: str, headers: dict[str, str], payload: Any = None) -> bytes:
    """The bytes of one request, with a JSON body when ``payload`` is given."""
    body = b"" if payload is None else json.dumps(payload).encode()
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}", f"Content-Length: {len(body)}"]
    if payload is not None:
        lines.append("Content-Type: application/json")
    lines += [f"{k}: {v}" for k, v in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def parse_head(head: bytes) -> tuple[int, int, bool]:
    """Status, Content-Length and whether the server will close, from a response's head."""
    status_line, *fields = head.decode("latin-1").split("\r\n")
    parts = status_line.split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/1.") or not parts[1].isdigit():
        raise ProtocolError(f"not an HTTP/1.x status line: {status_line[:80]!r}")
    length: int | None = None
    closing = False
    for field in fields:
        name, _, value = field.partition(":")
        name, value = name.strip().lower(), value.strip().lower()
        if name == "content-length":
            length = int(value)
        elif name == "transfer-encoding":
            raise ProtocolError(f"transfer-encoding {value} is not read by this client")
        elif name == "connection" and value == "close":
            closing = True
    status = int(parts[1])
    if length is None:
        if status in (204, 304) or 100 <= status < 200:
            length = 0
        else:
            raise ProtocolError("a response without Content-Length")
    return status, length, closing


class AsyncConnection:
    """One keep-alive connection on asyncio streams; reconnects after the server closes it."""

    def __init__(self, host: str, port: int, headers: dict[str, str]) -> None:
        self.host, self.port, self.headers = host, port, headers
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, payload: Any = None) -> tuple[int, bytes]:
        """Status and body of one request."""
        if self._writer is None:
            self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        assert self._reader is not None
        try:
            self._writer.write(request_bytes(method, path, f"{self.host}:{self.port}", self.headers, payload))
            head = await self._reader.readuntil(b"\r\n\r\n")
            status, length, closing = parse_head(head[:-4])
            body = await self._reader.readexactly(length)
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ProtocolError):
            await self.close()
            raise
        if closing:
            await self.close()
        return status, body

    async def close(self) -> None:
        """Close the connection (the next request opens a new one)."""
        writer, self._writer, self._reader = self._writer, None, None
        if writer is not None:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()


class Connection:
    """The same on a blocking socket, for the one-client phase."""

    def __init__(self, host: str, port: int, headers: dict[str, str]) -> None:
        self.host, self.port, self.headers = host, port, headers
        self._sock: socket.socket | None = None
        self._file: Any = None

    def request(self, method: str, path: str, payload: Any = None) -> tuple[int, bytes]:
        """Status and body of one request."""
        if self._sock is None:
            self._sock = socket.create_connection((self.host, self.port))
            self._sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self._file = self._sock.makefile("rb")
        try:
            self._sock.sendall(request_bytes(method, path, f"{self.host}:{self.port}", self.headers, payload))
            lines = []
            while (line := self._file.readline(65537)) not in (b"\r\n", b""):
                lines.append(line)
            if not lines:
                raise ProtocolError("the server closed the connection")
            status, length, closing = parse_head(b"".join(lines).rstrip(b"\r\n"))
            body = self._file.read(length)
            if len(body) != length:
                raise ProtocolError(f"the body ended after {len(body)} of {length} bytes")
        except (OSError, ProtocolError):
            self.close()
            raise
        if closing:
            self.close()
        return status, body

    def close(self) -> None:
        """Close the connection."""
        if self._sock is not None:
            self._file.close()
            self._sock.close()
            self._sock, self._file = None, None
