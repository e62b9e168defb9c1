"""A client that stops reading is closed instead of waited for, so it never holds up its room."""

from __future__ import annotations

import asyncio

from server.app import Conn
from server.limits import FrameGate


class _Transport:
    def __init__(self, queued: int) -> None:
        self.queued = queued

    def get_write_buffer_size(self) -> int:
        return self.queued


class _Socket:
    """Stands in for a websockets connection: what was sent, and how it was closed."""

    def __init__(self, queued: int) -> None:
        self.transport = _Transport(queued)
        self.sent: list[bytes] = []
        self.closed: list[tuple[int, str]] = []

    async def send(self, frame: bytes) -> None:
        self.sent.append(frame)

    async def close(self, code: int, reason: str) -> None:
        self.closed.append((code, reason))


async def test_a_client_that_stopped_reading_is_closed_not_waited_for(server) -> None:
    app = server.app
    reading = Conn(ws=_Socket(queued=100), id="p:1", peer="test", address="test",  # type: ignore[arg-type]
                   gate=FrameGate(1, 1))
    asleep = Conn(ws=_Socket(queued=app.config.slow_client + 1), id="p:2", peer="test",  # type: ignore[arg-type]
                  address="test", gate=FrameGate(1, 1))
    for _ in range(3):
        await app.send_frame(reading, b"frame")
        await app.send_frame(asleep, b"frame")
    await asyncio.sleep(0)  # the close runs in its own task
    assert reading.ws.sent == [b"frame"] * 3 and reading.ws.closed == []
    assert asleep.ws.sent == [] and asleep.ws.closed == [(1013, "not reading: reconnect")]  # closed once
