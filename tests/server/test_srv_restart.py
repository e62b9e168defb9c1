"""Must show 3: the server is SIGKILLed mid-deal, restarted on the same Redis, and the deal finishes."""

from __future__ import annotations

import asyncio
import os
import random
import signal

import pytest
from srv_client import Client, engine_part, free_port, play_until, replayed, seated_room, stored_state
from srv_procs import start_server_process, stop_process

from engine import Game
from server.codec import decode, encode
from server.rooms import load_game
from server.store import Store
from server.views import view_for

pytestmark = pytest.mark.slow


async def test_sigkill_mid_deal_then_resume_and_finish(redis_url, aredis, tmp_path) -> None:
    store = Store(aredis)
    port = free_port()
    args = ["--redis-url", redis_url, "--data-dir", str(tmp_path / "data"), "--client-dir", ""]
    first = start_server_process(args, tmp_path / "server1.log", port)
    url = f"ws://127.0.0.1:{port}/ws"
    code, clients, tokens = await seated_room(url, humans=2, bots=[2, 3], seed=77)
    rng = random.Random(5)
    await play_until(store, code, dict(enumerate(clients)), rng, lambda g: len(g.played) >= 25,
                     check_views=True)

    os.kill(first.proc.pid, signal.SIGKILL)
    first.proc.wait(10)
    for c in clients:
        await asyncio.wait_for(c.reader, 10)  # every connection dropped with the process
    version, room = await store.load(code)
    game = load_game(room)
    assert game.phase == "play" and len(game.played) >= 25

    second = start_server_process(args, tmp_path / "server2.log", port)
    try:
        resumed: dict[int, Client] = {}
        for seat in (0, 1):
            c = await Client.open(url)
            res = await c.request({"type": "resume", "code": code, "token": tokens[seat]})
            assert res["seat"] == seat
            await c.wait(lambda c=c: c.version is not None)
            snap = next(m for m in c.messages if m["type"] == "snapshot")
            assert snap["version"] >= version and snap["seat"] == seat
            # the same hand: the seat's hand when the server died, or as replayed to the snapshot
            at_snapshot = await replayed(store, code, upto=snap["version"])
            assert engine_part(snap["view"]) == engine_part(view_for(room, at_snapshot, seat))
            if snap["version"] == version:
                assert snap["view"]["hand"] == game.hand(seat)
            resumed[seat] = c
        await play_until(store, code, resumed, rng, lambda g: g.phase in ("deal_over", "match_over"),
                         check_views=True)
        final_version, final_room = await store.load(code)
        final = load_game(final_room)
        assert final.phase in ("deal_over", "match_over")
        for seat, c in resumed.items():
            await c.wait_version(final_version)
            assert c.view_at(final_version) == view_for(final_room, final, seat) and c.gaps == 0
        # the action log holds every action exactly once, in order
        log = await store.log(code)
        assert [r["v"] for r in log] == list(range(1, final_version + 1))
        actions = [[r["seat"], r["action"]] for r in log if r["kind"] == "game"]
        again = Game.replay(final.seed, final.rules, actions)
        assert decode(encode(again.actions)) == actions  # each action once, as the engine logged it
        assert stored_state(again) == stored_state(final)
        assert {r["by"] for r in log if r["kind"] == "game"} == {"human", "bot"}
        for c in resumed.values():
            await c.close()
    finally:
        stop_process(second.proc)
    assert "resumed code=" in (tmp_path / "server2.log").read_text()
