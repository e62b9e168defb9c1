"""Issue 15, defect 3: a flood costs the sender more than it costs us.

Every frame counts against the connection's rate limit, whatever it holds; past the limit frames are
dropped unanswered (the first gets one notice) and a connection that keeps on is closed (1008). Client
values reach the log clipped, and one connection (or AI seat) causes a few log lines, not one per frame.
Real sockets on loopback, a real Redis; each test fails on the server before the fix.
"""

from __future__ import annotations

import asyncio
import json
import logging

import msgpack
import pytest
from srv_client import Client, seated_room
from websockets.asyncio.client import connect
from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed

from server.competition import SocketSeat
from server.safelog import clip
from server.store import Store

SLOW = 0.001  # tokens per second: no refill while a test runs, so counts do not depend on timing


def _lines(caplog: pytest.LogCaptureFixture, *needles: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if all(n in r.getMessage() for n in needles)]


def _conn_id(server, client: Client) -> str:
    port = client.ws.local_address[1]
    return next(c.id for c in server.app.conns.values() if c.peer.endswith(f":{port}"))


async def _closed(client: Client) -> int | None:
    await asyncio.wait_for(client.reader, 10)
    return client.ws.close_code


async def test_every_frame_counts_and_past_the_limit_frames_are_dropped_then_the_flood_closed(
        start_server, aredis) -> None:
    server = await start_server(rate=SLOW, burst=6)
    client = await Client.open(server.url, hello=False)
    for frame in ("text", "text", b"\x00" * 20_000, b"\x00" * 20_000, b"\xc1", b"\xc1"):
        await client.send_raw(frame)  # text, oversized, undecodable: each takes a token
    hello = await client.send({"type": "hello", "protocol": 1})  # no token left: dropped
    for _ in range(20):
        await client.send({"type": "hello", "protocol": 1})
    assert await _closed(client) == 1008  # a connection that keeps flooding is closed
    codes = [m["code"] for m in client.messages]
    assert codes == ["binary_required", "binary_required", "frame_too_large", "frame_too_large",
                     "bad_msgpack", "bad_msgpack", "rate_limited"]
    notice = client.messages[-1]
    assert notice["id"] is None and notice["retry_after"] > 0 and "dropped" in notice["message"]
    assert not [m for m in client.messages if m.get("id") == hello]  # the valid frame was dropped too
    # the server goes on for everyone else
    other = await Client.open(server.url)
    assert other.messages[0]["type"] == "welcome"
    await other.close()


async def test_rate_limited_frames_change_nothing_and_others_hear_nothing(start_server, aredis) -> None:
    server = await start_server(rate=SLOW, burst=5)
    code, clients, _ = await seated_room(server.url, humans=2, bots=[2, 3], start=False)
    flooder, other = clients
    before = len(other.messages)
    version, _ = await Store(aredis).load(code)
    sent = [await flooder.send({"type": "add_bot", "seat": 3}) for _ in range(40)]
    assert await _closed(flooder) == 1008
    answered = [m for m in flooder.messages if m["type"] == "error" and m["id"] in sent]
    assert answered and all(m["code"] == "seat_taken" for m in answered)  # the first ones were handled
    assert len(answered) < len(sent)
    notices = [m["code"] for m in flooder.messages if m["type"] == "error" and m["id"] is None]
    assert notices == ["rate_limited"]
    await other.request({"type": "resync"})  # after the flood: the other client heard nothing of it
    assert not [m for m in other.messages[before:] if m["type"] == "error"]
    assert (await Store(aredis).load(code))[0] == version
    await other.close()


async def test_a_flood_costs_a_few_log_lines_not_one_per_frame(start_server, caplog) -> None:
    caplog.set_level(logging.INFO, logger="guandan")
    server = await start_server(rate=SLOW, burst=200)
    client = await Client.open(server.url)
    conn_id = _conn_id(server, client)
    for _ in range(150):  # within the limit: each gets its error, but not each its log line
        await client.send_raw(b"\xc1")
    for _ in range(300):  # past it: dropped
        await client.send({"type": "pass"})
    assert await _closed(client) == 1008
    codes = [m["code"] for m in client.messages if m["type"] == "error"]
    assert codes.count("bad_msgpack") == 150 and codes.count("rate_limited") == 1
    lines = _lines(caplog, conn_id)
    assert len(lines) <= 15, lines
    (closed,) = _lines(caplog, "connection closed", conn_id)
    assert "dropped=" in closed and "log_lines_held=0" not in closed


async def test_logged_client_values_are_clipped(start_server, caplog) -> None:
    caplog.set_level(logging.INFO, logger="guandan")
    server = await start_server()
    client = await Client.open(server.url)
    conn_id = _conn_id(server, client)
    key = "k" * 16_000
    msg_id = await client.send({"type": "create", "nickname": "Ann", "options": {key: 1}})
    reply = await client.reply(msg_id)
    assert reply["code"] == "bad_rules" and len(reply["message"]) <= 500
    huge_id = "i" * 16_000  # not a valid id: the error's log line still names it, clipped
    await client.send_raw(msgpack.packb({"type": "pass", "id": huge_id}))
    await client.wait(lambda: len(client.errors()) == 2)
    assert client.errors()[1]["code"] == "invalid_message" and client.errors()[1]["id"] is None
    nested = {"type": "fly", "id": 1, "x": [[[["a" * 5000] * 3] * 3] * 3]}
    await client.send_raw(msgpack.packb(nested))
    await client.wait(lambda: len(client.errors()) == 3)
    text = "\n".join(_lines(caplog, conn_id))
    assert len(text) < 3000, text[:500]
    await client.close()


async def _ai_room(server, ai_seat: int, **create) -> tuple[Client, str]:
    host = await Client.open(server.url)
    seat = 1 if ai_seat == 0 else 0
    bots = [s for s in range(4) if s not in (seat, ai_seat)]
    res = await host.request({"type": "create", "nickname": "Host", "seat": seat, "ai": [ai_seat],
                              "bots": bots, "bot_delay": 0, **create})
    return host, res["ai"][0]["path"]


async def test_an_ai_flooding_junk_answers_is_logged_briefly_and_closed(start_server, caplog) -> None:
    caplog.set_level(logging.INFO, logger="guandan")
    server = await start_server(rate=SLOW, burst=20)
    host, path = await _ai_room(server, ai_seat=1)
    ai = await connect(f"ws://127.0.0.1:{server.port}{path}", compression=None)
    await host.wait(lambda: host.presence is not None and host.presence[1])
    junk = json.dumps({"actIndex": "x" * 64_000})
    with pytest.raises(ConnectionClosed):
        for _ in range(60):
            await ai.send(junk)
        await asyncio.wait_for(ai.recv(), 10)
    await asyncio.wait_for(ai.wait_closed(), 10)
    assert ai.close_code == 1008
    text = "\n".join(r.getMessage() for r in caplog.records if r.name == "guandan.ai")
    assert 0 < len(text) < 4000
    await host.close()


async def test_a_deeply_nested_ai_answer_is_an_invalid_answer(start_server, aredis, caplog) -> None:
    server = await start_server()
    host, path = await _ai_room(server, ai_seat=0)  # seat 0 leads the first deal: the AI is asked
    ai = await connect(f"ws://127.0.0.1:{server.port}{path}", compression=None)
    await host.wait(lambda: host.presence is not None and host.presence[0])
    await host.request({"type": "start"})
    while json.loads(await asyncio.wait_for(ai.recv(), 10)).get("type") != "act":
        pass
    await ai.send("[" * 100_000)  # json's parser recurses: RecursionError
    await host.wait(lambda: host.view and host.view.get("trick"))  # our bot played the AI's turn
    log = [r for r in await Store(aredis).log(host.room["code"]) if r["kind"] == "game"]
    assert log[0]["seat"] == 0 and log[0]["by"] == "ai_fallback"
    assert ai.close_code is None  # the AI is still seated
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    await ai.close()
    await host.close()


async def test_a_competition_bot_sending_junk_is_logged_briefly(caplog) -> None:
    """The standalone platform's seats (server/competition.py) clip and budget their warnings too."""
    caplog.set_level(logging.INFO, logger="guandan")
    result: list[int | None] = []

    async def table(ws) -> None:
        seat = SocketSeat(ws, "bot", act_timeout=10, seat=0)
        reader = asyncio.create_task(seat.read_answers())  # the platform reads a bot for its whole connection
        result.append(await seat.act({"indexRange": 3}))
        await reader

    async with serve(table, "127.0.0.1", 0) as platform:
        port = next(iter(platform.sockets)).getsockname()[1]
        async with connect(f"ws://127.0.0.1:{port}") as bot:
            await bot.recv()  # the act
            for _ in range(40):  # the first is the act's (invalid) answer, the others come unasked
                await bot.send(json.dumps({"actIndex": "y" * 50_000}))
            await bot.send(json.dumps({"actIndex": 2}))
        await asyncio.wait_for(_until(lambda: len(result) == 1), 10)
    assert result == [None]  # an invalid answer: our bot plays that turn at once
    text = "\n".join(r.getMessage() for r in caplog.records if r.name == "guandan.competition")
    assert 0 < len(text) < 3000


async def _until(predicate) -> None:
    while not predicate():
        await asyncio.sleep(0.01)


def test_clip_keeps_any_client_value_short_on_one_line_and_cheap() -> None:
    deep: object = "x"
    for _ in range(100_000):
        deep = [deep]
    values = ["a" * 1_000_000, b"\x00" * 1_000_000, deep, {"k" * 16_000: "v" * 16_000}, 2**100_000,
              "Ann\nINFO forged\r\x1b[2J\u202e", list(range(100_000)), {i: {i: {i: [i]}} for i in range(50)},
              float("nan"), None, True, object()]
    for value in values:
        text = clip(value)
        assert len(text) <= 80 and "\n" not in text and "\r" not in text and "\u202e" not in text, text
    assert clip("Ann") == "'Ann'" and clip(7) == "7" and clip([1, "a"]) == "[1, 'a']"
