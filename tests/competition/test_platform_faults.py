"""Issue 14: faults of the standalone platform that crashed or misled the real 2020 bots."""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
import socket
import time

import pytest
from websockets.asyncio.client import ClientConnection, connect

from server.competition import DEFAULT_SETTLE, parse_act_index, run_standalone
from server.safelog import LogBudget

from .protocol_client import (
    LateAndUnasked,
    OneInvalidAnswer,
    ProtocolClient,
    kind,
    played_its_own_choices_but,
)
from .table import run_table


def rests(msg: dict) -> list[int]:
    return [info["rest"] for info in msg["publicInfo"]]


async def test_the_tribute_act_shows_the_hand_before_the_tribute_and_counts_change_only_when_applied():
    clients = [ProtocolClient(f"t{i}", seed=i) for i in range(4)]
    await run_table(clients, matches=1, seed=12)
    tribute_acts = back_acts = 0
    for c in clients:
        dealt: list[str] = []
        announced: list[list] | None = None  # notify/tribute of this deal
        for msg in c.messages:
            if kind(msg) == ("notify", "beginning"):
                dealt, announced = msg["handCards"], None
            elif kind(msg) == ("act", "tribute"):
                tribute_acts += 1
                (card,) = msg["actionList"][0][2]
                assert announced is None, "act/tribute after notify/tribute"
                assert card in msg["handCards"] and len(msg["handCards"]) == 27
                assert msg["handCards"] == dealt  # nothing has changed hands yet
                assert rests(msg) == [27, 27, 27, 27]
            elif kind(msg) == ("notify", "tribute"):
                announced = msg["result"]
            elif kind(msg) == ("act", "back"):
                back_acts += 1
                assert announced is not None, "act/back before notify/tribute"
                want = [27, 27, 27, 27]  # the tribute applied, no return yet (notify/back comes last)
                for giver, receiver, card in announced:
                    want[giver] -= 1
                    want[receiver] += 1
                    if receiver == c.my_pos:
                        assert card in msg["handCards"]
                assert rests(msg) == want and len(msg["handCards"]) == want[c.my_pos]
    assert tribute_acts and back_acts  # this match has deals with tribute


class RawSocketBot:
    """A bot's first moments at the byte level: the handshake, then the first frame."""

    def __init__(self) -> None:
        self.handshake_read = b""  # the read that completed the handshake response
        self.opened_at = self.first_at = 0.0

    async def run(self, port: int) -> None:
        loop = asyncio.get_running_loop()
        with socket.create_connection(("127.0.0.1", port)) as sock:
            sock.setblocking(False)
            key = base64.b64encode(os.urandom(16)).decode()
            await loop.sock_sendall(sock, (
                f"GET /game/raw HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode())
            while b"\r\n\r\n" not in self.handshake_read:
                self.handshake_read += await loop.sock_recv(sock, 65536)
            self.opened_at = time.monotonic()
            if self.handshake_read.endswith(b"\r\n\r\n"):  # else the frame came in the same read
                assert await loop.sock_recv(sock, 65536)
            self.first_at = time.monotonic()
        # the bot leaves: the platform plays this seat (and says so)


async def test_no_frame_comes_with_the_4th_handshake_and_the_first_waits_the_settle_pause():
    ready = asyncio.get_running_loop().create_future()
    server = asyncio.create_task(run_standalone("127.0.0.1", 0, 1, seed=12, on_listening=ready.set_result))
    port = await asyncio.wait_for(ready, 10)
    clients = [ProtocolClient(f"s{i}", seed=i) for i in range(3)]
    tasks = []
    for c in clients:
        tasks.append(asyncio.create_task(c.run(f"ws://127.0.0.1:{port}")))
        await asyncio.wait_for(c.opened.wait(), 10)
    raw = RawSocketBot()
    await asyncio.wait_for(raw.run(port), 30)
    assert raw.handshake_read.startswith(b"HTTP/1.1 101")
    assert raw.handshake_read.endswith(b"\r\n\r\n"), "a frame arrived in the handshake's read"
    # the pause, less what a loaded client may take to see the handshake's end
    assert raw.first_at - raw.opened_at >= DEFAULT_SETTLE / 2
    summary = await asyncio.wait_for(server, 300)
    await asyncio.wait_for(asyncio.gather(*tasks), 30)
    assert all(c.first_at - c.opened_at >= DEFAULT_SETTLE / 2 for c in clients)
    assert summary["disconnects"] == [0, 0, 0, 1]


class LeavingBot(ProtocolClient):
    """Closes its socket at its 5th act instead of answering (a bot process that dies)."""

    async def on_message(self, ws: ClientConnection, msg: dict) -> None:
        if msg["type"] == "act" and sum(m["type"] == "act" for m in self.messages) == 5:
            await ws.close()
            return
        await super().on_message(ws, msg)


async def test_a_bot_that_disconnects_is_logged_counted_and_shown_in_the_progress(capsys, caplog):
    clients = [ProtocolClient("a", seed=1), LeavingBot("quitter", seed=2), ProtocolClient("c", seed=3),
               ProtocolClient("d", seed=4)]
    with caplog.at_level(logging.WARNING, logger="guandan.competition"):
        summary = await run_table(clients, matches=1, seed=12)
    out = capsys.readouterr().out
    assert "seat 1: quitter disconnected" in out
    assert any("quitter" in r.getMessage() and "disconnected" in r.getMessage() for r in caplog.records)
    assert "disconnects per seat [0, 1, 0, 0]" in out  # the final progress line
    assert summary["disconnects"] == [0, 1, 0, 0]
    assert summary["fallback_turns"][1] > 0 and summary["fallback_turns"][0::2] == [0, 0]


@pytest.mark.timeout(150)  # it used to stall for ever (and so did cancelling the platform)
async def test_an_invalid_answer_without_a_timeout_gets_the_fallback_at_once(caplog):
    clients = [OneInvalidAnswer("bad", seed=1), *(ProtocolClient(n, seed=i) for i, n in enumerate("bcd"))]
    with caplog.at_level(logging.WARNING, logger="guandan.competition"):
        summary = await run_table(clients, matches=1, seed=12)
    assert played_its_own_choices_but(clients[0], [2])
    assert summary["invalid_answers"] == [1, 0, 0, 0] and summary["fallback_turns"] == [1, 0, 0, 0]
    assert any("invalid answer" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("raw", ['{"actIndex": 4}', '{"actIndex": -1}', '{"actIndex": true}',
                                 '{"actIndex": "0"}', '{"actIndex": 1.0}', '{"index": 0}', "[0]", "not json"])
def test_answers_that_are_not_an_index_in_range_are_invalid(raw):
    assert parse_act_index(raw, 3) is None
    assert parse_act_index('{"actIndex": 3}', 3) == 3


async def test_a_late_or_unasked_answer_is_never_applied_to_a_later_act():
    clients = [LateAndUnasked("late", seed=1), *(ProtocolClient(n, seed=i) for i, n in enumerate("bcd"))]
    summary = await run_table(clients, matches=1, seed=12, act_timeout=5.0)
    # each act/play answered in time got exactly the move chosen for it, never the stale index 0
    assert played_its_own_choices_but(clients[0], [2]) and len(clients[0].my_moves()) > 10
    assert summary["late_answers"] == [1, 0, 0, 0] and summary["unasked_answers"] == [1, 0, 0, 0]
    assert summary["fallback_turns"] == [1, 0, 0, 0]


class SkipsOneAct(ProtocolClient):
    """Never answers its 2nd act/play (it lost the message), then answers every act at once."""

    async def on_message(self, ws: ClientConnection, msg: dict) -> None:
        if kind(msg) == ("act", "play") and sum(kind(m) == ("act", "play") for m in self.messages) == 2:
            return
        await super().on_message(ws, msg)


async def _printed(capsys, seen: list[str], words: str, within: float) -> bool:
    """Collects stdout into ``seen`` until ``words`` is in it."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        seen.append(capsys.readouterr().out)
        if words in "".join(seen):
            return True
        await asyncio.sleep(0.05)
    return False


async def test_a_bot_that_leaves_before_the_table_is_full_gives_its_seat_back(capsys):
    ready = asyncio.get_running_loop().create_future()
    server = asyncio.create_task(run_standalone("127.0.0.1", 0, 1, seed=12, on_listening=ready.set_result,
                                                settle=0.1))
    url = f"ws://127.0.0.1:{await asyncio.wait_for(ready, 10)}"
    seen: list[str] = []
    first = ProtocolClient("a", seed=1)
    tasks = [asyncio.create_task(first.run(url))]
    await asyncio.wait_for(first.opened.wait(), 10)
    async with connect(f"{url}/game/crashed"):
        pass  # a bot process that dies while the others are still starting
    assert await _printed(capsys, seen, "crashed left before the table was full; seats now: 0 a", 10)
    clients = [first, *(ProtocolClient(n, seed=i) for i, n in enumerate("bcd", 2))]
    for c in clients[1:]:
        tasks.append(asyncio.create_task(c.run(url)))
        await asyncio.wait_for(c.opened.wait(), 10)
    summary = await asyncio.wait_for(server, 300)
    await asyncio.wait_for(asyncio.gather(*tasks), 30)
    assert summary["disconnects"] == [0, 0, 0, 0] and summary["fallback_turns"] == [0, 0, 0, 0]
    assert [c.my_pos for c in clients] == [0, 1, 2, 3]
    assert "crashed disconnected" not in "".join(seen) + capsys.readouterr().out


async def test_a_bot_one_answer_behind_is_warned_of_once(capsys):
    ready = asyncio.get_running_loop().create_future()
    server = asyncio.create_task(run_standalone("127.0.0.1", 0, 1, seed=12, on_listening=ready.set_result,
                                                settle=0.1, act_timeout=0.2))
    url = f"ws://127.0.0.1:{await asyncio.wait_for(ready, 10)}"
    clients = [SkipsOneAct("skipper", seed=1), *(ProtocolClient(n, seed=i) for i, n in enumerate("bcd", 2))]
    tasks = []
    for c in clients:
        tasks.append(asyncio.create_task(c.run(url)))
        await asyncio.wait_for(c.opened.wait(), 10)
    seen: list[str] = []
    warning = "seat 0: skipper answers every act only after its timeout"
    try:
        assert await _printed(capsys, seen, warning, 120)
        acts = sum(kind(m) == ("act", "play") for m in clients[0].messages)
        await _printed(capsys, seen, "never", 2)  # three more acts' worth of output: still one warning
        assert sum(kind(m) == ("act", "play") for m in clients[0].messages) > acts
        assert "".join(seen).count(warning) == 1
    finally:
        server.cancel()
        for t in tasks:
            t.cancel()
        await asyncio.gather(server, *tasks, return_exceptions=True)



class BadTribute(ProtocolClient):
    """Answers every act/tribute out of range, every other act as it should."""

    async def on_message(self, ws: ClientConnection, msg: dict) -> None:
        if kind(msg) == ("act", "tribute"):
            await ws.send(json.dumps({"actIndex": msg["indexRange"] + 1}))
            return
        await super().on_message(ws, msg)


async def test_an_invalid_tribute_answer_counts_as_a_turn_our_bot_played():
    """The rules fix the tribute card, so the gift is made all the same; the summary still counts the
    act as one our bot played for the seat, as it does an invalid answer to act/play or act/back."""
    clients = [BadTribute(f"t{i}", seed=i) for i in range(4)]
    summary = await run_table(clients, matches=1, seed=12)
    tributes = [sum(kind(m) == ("act", "tribute") for m in c.messages) for c in clients]
    assert sum(tributes) > 0  # this match has deals with tribute
    assert summary["fallback_turns"] == tributes and summary["invalid_answers"] == tributes


async def test_a_silent_bot_is_logged_a_few_lines_not_one_per_act(caplog):
    """With an act timeout, a bot that never answers was logged once for every act (565 lines in one
    match): the lines about one seat are budgeted as those about its late or invalid answers are."""
    clients = [ProtocolClient(name, seed=i) for i, name in enumerate("abcd")]
    clients[0].silent = True
    with caplog.at_level(logging.WARNING, logger="guandan.competition"):
        summary = await run_table(clients, matches=1, seed=12, act_timeout=0.02)
    silence = [r for r in caplog.records if "seat 0 (a) did not answer" in r.getMessage()]
    assert summary["fallback_turns"][0] > 20
    assert 0 < len(silence) <= LogBudget().lines
