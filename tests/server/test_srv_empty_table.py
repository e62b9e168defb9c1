"""Issue 15, defect 3: a timed table whose people all left stops (no more commits, nothing scheduled) and
goes on where it stopped when one of them returns. Real sockets on loopback, a real Redis.

On the server before the fix the table kept playing by itself: our bot played the absent people's
seats and the turn timer started deal after deal for nobody.
"""

from __future__ import annotations

import asyncio

import pytest
from srv_client import Client, game_at, seated_room

from server.store import Store

pytestmark = pytest.mark.slow


async def _until(predicate, timeout: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    async def loop() -> None:
        while not await predicate():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(loop(), timeout)


async def test_a_timed_table_whose_people_left_waits_for_them(server, aredis) -> None:
    store = Store(aredis)
    code, clients, tokens = await seated_room(server.url, humans=2, bots=[2, 3], seed=4, turn_timer=5.0,
                                              grace=0.2)
    started = clients[0].view  # seat 0 leads: its turn, its timer running
    assert started["turn"] == 0 and started["deadline"] is not None
    for c in clients:
        await c.close()

    async def both_away() -> bool:
        return sum(r.get("type") == "away" for r in await store.log(code)) == 2

    await _until(both_away)  # the grace periods run out even at an empty table ...

    async def nothing_scheduled() -> bool:
        return await store.due_at(code) is None

    await _until(nothing_scheduled)  # ... and then nothing is due: no bot, no timer, no next deal
    version, _room, game = await game_at(store, code)
    log = await store.log(code)
    await asyncio.sleep(1.0)  # long enough for a dozen bot moves at bot_delay 0 on the old server
    assert (await game_at(store, code))[0] == version and len(await store.log(code)) == len(log)
    assert game.phase == "play" and game.turn == 0 and not game.played  # not one move without them
    left = max(r["ts"] for r in log if r.get("type") == "gone")

    back = await Client.open(server.url)
    assert (await back.request({"type": "resume", "code": code, "token": tokens[0]}))["seat"] == 0
    await back.wait(lambda: back.view)
    came_back = next(r for r in await store.log(code) if r.get("type") == "back")["ts"]
    # the time the table waited does not count against seat 0's turn: it has what it had left
    assert back.view["deadline"] - came_back == pytest.approx(started["deadline"] - left, abs=0.05)
    # the table goes on: seat 0 plays, then the bots and our bot for seat 1 (still away) by themselves
    await back.request(game.legal_actions(0)[0])

    async def others_played() -> bool:
        return {r.get("by") for r in await store.log(code) if r["kind"] == "game"} >= {"human", "bot", "away"}

    await _until(others_played)
    await back.close()
