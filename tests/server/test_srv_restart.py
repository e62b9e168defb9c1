"""Must show 3: the server is SIGKILLed mid-deal, restarted on the same Redis, and the deal finishes."""

from __future__ import annotations

import asyncio
import os
import random
import signal

import pytest
from srv_client import Client, engine_part, free_port, game_log, replayed, seated_room, stored_state
from srv_procs import start_server_process, stop_process

from engine import Game
from server.codec import decode, encode
from server.rooms import load_game
from server.store import Store
from server.views import view_for

pytestmark = pytest.mark.slow


async def _drive(store: Store, code: str, clients: dict[int, Client], rng: random.Random,
                 until_actions: int | None = None) -> Game:
    """Humans act from the engine's legal actions whenever it is their turn; bots act by themselves."""
    for _ in range(5000):
        version, room = await store.load(code)
        game = load_game(room)
        if game.phase in ("deal_over", "match_over"):
            return game
        if until_actions is not None and len(await game_log(store, code)) >= until_actions:
            return game
        mine = [s for s in game.pending_seats() if s in clients]
        if mine:
            seat = mine[0]
            await clients[seat].wait_version(version)
            assert clients[seat].view == view_for(room, game, seat)
            await clients[seat].request(rng.choice(game.legal_actions(seat)))
        else:
            await asyncio.sleep(0.01)
    raise AssertionError("the deal did not progress")


async def test_sigkill_mid_deal_then_resume_and_finish(redis_url, aredis, tmp_path) -> None:
    store = Store(aredis)
    port = free_port()
    args = ["--redis-url", redis_url, "--data-dir", str(tmp_path / "data"), "--client-dir", ""]
    first = start_server_process(args, tmp_path / "server1.log", port)
    url = f"ws://127.0.0.1:{port}/ws"
    code, clients, tokens = await seated_room(url, humans=2, bots=[2, 3], seed=77)
    rng = random.Random(5)
    await _drive(store, code, dict(enumerate(clients)), rng, until_actions=25)

    os.kill(first.proc.pid, signal.SIGKILL)
    first.proc.wait(10)
    for c in clients:
        await asyncio.wait_for(c.reader, 10)  # every connection dropped with the process
    version, room = await store.load(code)
    game = load_game(room)
    assert game.phase == "play" and len(await game_log(store, code)) >= 25

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
        final = await _drive(store, code, resumed, rng)
        assert final.phase in ("deal_over", "match_over")
        final_version, final_room = await store.load(code)
        for seat, c in resumed.items():
            await c.wait_version(final_version)
            assert c.view == view_for(final_room, final, seat) and c.gaps == 0
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
