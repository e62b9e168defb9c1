"""A server outage costs nobody a move: the server is stopped (SIGTERM) or killed (SIGKILL) while a
player's turn timer runs, stays down longer than both the timer and the grace period, and comes back.
Nothing is played for anyone before they reconnect; the player whose turn it was gets the rest of their
timer; the player not back yet gets a whole grace period from the moment the first one is back."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time

import pytest
from srv_client import Client, free_port, game_at, play_until, seated_room
from srv_procs import start_server_process, stop_process

from server.store import Store

pytestmark = pytest.mark.slow

TIMER = 4.0
GRACE = 3.0
DOWN = 6.0  # longer than the turn timer and the grace period


async def moves(store: Store, code: str) -> int:
    return sum(1 for r in await store.log(code) if r["kind"] == "game")


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["killed", "stopped"])
@pytest.mark.parametrize("turn", [0, 3], ids=["first-seat-to-act", "last-seat-to-act"])
async def test_an_outage_costs_nobody_a_move(redis_url, aredis, tmp_path, how, turn) -> None:
    """``turn``: the seat whose timer runs; seat 3 is the last its server's seats are marked gone for
    (a restart marked them one commit at a time, and the timer played for the last before the room
    counted as left)."""
    others = [s for s in range(4) if s != turn]
    store = Store(aredis)
    port = free_port()
    args = ["--redis-url", redis_url, "--data-dir", str(tmp_path / "data"), "--client-dir", ""]
    first = start_server_process(args, tmp_path / "server1.log", port)
    url = f"ws://127.0.0.1:{port}/ws"
    second = None
    try:
        code, clients, tokens = await seated_room(url, humans=4, seed=11, turn_timer=TIMER, grace=GRACE)
        await play_until(store, code, dict(enumerate(clients)), random.Random(3),
                         lambda g: g.phase == "play" and g.turn == turn and len(g.played) >= 4)
        _v, room, _g = await game_at(store, code)
        made = await moves(store, code)
        owed = room["live"]["deadlines"][turn]
        assert owed is not None

        went = time.time()
        os.kill(first.proc.pid, how)
        first.proc.wait(20)
        left = owed - went  # what was left of the seat's turn timer when the server went
        await asyncio.sleep(DOWN)

        second = start_server_process(args, tmp_path / "server2.log", port)
        await asyncio.sleep(1.0)  # the new server is up, nobody is back yet
        _v, down, game = await game_at(store, code)
        assert await moves(store, code) == made, "a move was made before anyone was back"
        assert game.turn == turn and down["live"].get("halt") is not None
        assert down["live"]["away"] == [False] * 4

        back = await Client.open(url)
        res = await back.request({"type": "resume", "code": code, "token": tokens[turn]})
        assert res["seat"] == turn
        returned = time.time()
        await back.wait(lambda: back.view is not None and back.view.get("deadline") is not None)
        _v, room_back, _g = await game_at(store, code)
        live = room_back["live"]
        assert live.get("halt") is None and await moves(store, code) == made
        # the rest of the timer, not a timer that ran out during the outage
        rest = live["deadlines"][turn] - returned
        assert left - 0.5 <= rest <= left + 1.5, (rest, left)
        # the others are not back: a whole grace period from now, and no bot in their seats yet
        for other in others:
            assert live["away"][other] is False and live["gone"][other] is not None
            assert GRACE - 0.5 <= back.view["takeover"][other] - returned <= GRACE + 1.0
            assert back.view["auto"][other] is None
        assert live["timeouts"] == [0] * 4

        # the turn is still theirs to play
        _v, _room, game = await game_at(store, code)
        await back.request(random.Random(4).choice(game.legal_actions(turn)))
        # and the grace periods still end: our bot plays for the others once they have run out
        await back.wait(lambda: [back.view["auto"][s] for s in others] == ["dropout"] * 3, timeout=GRACE + 5)
        await back.close()
    finally:
        stop_process(first.proc)
        if second is not None:
            stop_process(second.proc)
