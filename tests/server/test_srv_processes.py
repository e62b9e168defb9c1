"""Issue 6, Must show 2: two server processes on one Redis serve one room; one is killed and the room
goes on through the other, with timers and takeovers acting exactly once."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time

import pytest
from srv_client import Client, free_port, game_at, game_log, play_until, replayed, stored_state
from srv_procs import start_server_process, stop_process

from server.app import Config
from server.store import Store
from server.views import view_for

pytestmark = pytest.mark.slow


def check_log(log: list[dict]) -> None:
    """Every version once, in order; every game action legal in order (a double move would not be)."""
    assert [r["v"] for r in log] == list(range(1, len(log) + 1))


async def test_two_processes_then_one_dies_and_the_room_goes_on(redis_url, aredis, tmp_path):
    store = Store(aredis)
    args = ["--redis-url", redis_url, "--data-dir", str(tmp_path / "data"), "--client-dir", ""]
    a = start_server_process(args, tmp_path / "a.log", free_port())
    b = start_server_process(args, tmp_path / "b.log", free_port())
    try:
        urls = [a.url, b.url, a.url, b.url]  # seats 0 and 2 on process A, seats 1 and 3 on B
        clients = [await Client.open(u) for u in urls]
        res = await clients[0].request({"type": "create", "nickname": "P0", "seed": 31, "bot_delay": 0,
                                        "turn_timer": 0.4, "grace": 1.0, "auto_next": True})
        code = res["code"]
        for i in (1, 2, 3):
            await clients[i].request({"type": "join", "code": code, "nickname": f"P{i}"})
        await clients[0].request({"type": "start"})
        for c in clients:
            await c.wait(lambda c=c: c.view)
        rng = random.Random(9)
        seats = dict(enumerate(clients))
        # a whole deal across both processes; seat 3 never acts, so its timer acts for it every turn
        await play_until(store, code, seats, rng, lambda g: g.phase in ("deal_over", "match_over"),
                         idle=frozenset({3}), timeout=120, check_views=True)
        version, room, game = await game_at(store, code)
        for seat, c in seats.items():
            await c.wait_version(version)
            assert c.view_at(version) == view_for(room, game, seat) and c.gaps == 0
        log = await store.log(code)
        check_log(log)
        timed = [r for r in log if r.get("by") == "timer"]
        # seat 3's first two moves came from its timer, which then put it on auto-play (two timeouts in a
        # row), once (a slow test client may let a timer act for another seat)
        idle = [r for r in log if r["kind"] == "game" and r["seat"] == 3]
        assert [r["by"] for r in idle[:2]] == ["timer", "timer"] and idle[1]["autoplay"] == 1.0
        assert {r["by"] for r in idle[2:]} == {"autoplay"}
        assert {r["proc"] for r in log if r["kind"] == "game"} >= {r["proc"] for r in timed}
        if game.phase == "match_over":
            return
        # the next deal starts (seats 0-2 are ready, seat 3 never is: the timed table's auto_next deals on);
        # process B dies with seats 1 and 3 mid-deal
        first = game.deal
        await play_until(store, code, seats, rng,
                         lambda g: g.deal > first and g.phase == "play" and len(g.played) >= 12,
                         idle=frozenset({3}))
        os.kill(b.proc.pid, signal.SIGKILL)
        b.proc.wait(10)
        killed = time.time()
        survivors = {0: clients[0], 2: clients[2]}
        await play_until(store, code, survivors, rng, lambda g: g.phase in ("deal_over", "match_over"),
                         timeout=120, check_views=True)
        version, room, game = await game_at(store, code)
        for seat, c in survivors.items():
            await c.wait_version(version)
            assert c.view_at(version) == view_for(room, game, seat) and c.gaps == 0
        log = await store.log(code)
        check_log(log)
        after = [r for r in log if r["ts"] > killed]
        # the dead process's seats went on auto (its heartbeat ran out, then the grace period) ...
        assert {r["seat"] for r in after if r.get("type") == "away"} == {1, 3}
        # ... and every automatic move since came from the live process, once each
        welcome = next(m for m in clients[0].messages if m["type"] == "welcome")
        a_proc = welcome["server"].split("/", 1)[1]
        auto = [r for r in after if r["kind"] == "game" and r["by"] != "human"]
        assert auto and {r["proc"] for r in auto} == {a_proc}
        # every action up to the state we read legal in order: no double move (the timed table may
        # have started the next deal since)
        full = await replayed(store, code, upto=version)
        assert stored_state(full) == stored_state(game)
        assert len(await game_log(store, code, upto=version)) == len(full.actions)
        for c in survivors.values():
            await c.close()
    finally:
        for proc in (a, b):
            stop_process(proc.proc)


async def test_a_timer_waits_for_the_burial_of_its_player_s_dead_process(redis_url, aredis, tmp_path):
    """On a table served by two processes, the one holding seat 2's connection dies with seat 2 to play:
    its turn timer ran out before the death was noticed (proc_ttl), as if seat 2 had been there and slow:
    counted as its own timeout (a second one puts it on auto-play) and missing from what was played in its
    name. Now the timer waits for the burial, and seat 2 counts as dropped when it plays."""
    store = Store(aredis)
    args = ["--redis-url", redis_url, "--data-dir", str(tmp_path / "data"), "--client-dir", ""]
    a = start_server_process(args, tmp_path / "a.log", free_port())
    b = start_server_process(args, tmp_path / "b.log", free_port())
    try:
        urls = [b.url, b.url, a.url, b.url]  # seat 2 on process A
        clients = [await Client.open(u) for u in urls]
        res = await clients[0].request({"type": "create", "nickname": "P0", "seed": 31, "bot_delay": 0,
                                        "turn_timer": 2.0, "grace": 60.0})
        code = res["code"]
        tokens = [res["token"]]
        for i in (1, 2, 3):
            joined = await clients[i].request({"type": "join", "code": code, "nickname": f"P{i}"})
            tokens.append(joined["token"])
        await clients[0].request({"type": "start"})
        for c in clients:
            await c.wait(lambda c=c: c.view)
        await play_until(store, code, dict(enumerate(clients)), random.Random(5),
                         lambda g: g.phase == "play" and g.turn == 2 and len(g.played) >= 4)
        os.kill(a.proc.pid, signal.SIGKILL)
        a.proc.wait(10)
        killed = time.time()
        await clients[0].wait(lambda: clients[0].view["turn"] != 2, timeout=30)  # someone played for it
        log = [r for r in await store.log(code) if r["ts"] > killed]
        gone = next(r for r in log if r.get("type") == "gone" and 2 in r.get("seats", [r.get("seat")]))
        played = next(r for r in log if r["kind"] == "game" and r["seat"] == 2)
        assert played["v"] > gone["v"], "the timer played for seat 2 before its process was buried"
        _v, room, _g = await game_at(store, code)
        assert room["live"]["timeouts"][2] == 0  # a dropped player's timeout is not theirs
        back = await Client.open(b.url)
        await back.request({"type": "resume", "code": code, "token": tokens[2]})
        await back.wait(lambda: back.view is not None)
        assert back.view["in_your_name"] and back.view["in_your_name"]["moves"][0]["by"] == "timer"
        for c in (*clients, back):
            await c.close()
    finally:
        for proc in (a, b):
            stop_process(proc.proc)


async def test_a_spectator_on_another_process_is_counted_and_forgotten_when_its_process_dies(
        redis_url, aredis, tmp_path):
    """Who watches is kept in Redis: the players on one process are told of a spectator on another, and
    a dead process's spectators are not counted."""
    args = ["--redis-url", redis_url, "--data-dir", str(tmp_path / "data"), "--client-dir", ""]
    a = start_server_process(args, tmp_path / "a.log", free_port())
    b = start_server_process(args, tmp_path / "b.log", free_port())
    try:
        host = await Client.open(a.url)
        code = (await host.request({"type": "create", "nickname": "P0", "bot_delay": 0}))["code"]
        watcher = await Client.open(b.url)
        await watcher.request({"type": "join", "code": code, "nickname": "Dee", "spectator": True})

        def watching() -> tuple[int, list[str]] | None:
            last = [m for m in host.messages if m["type"] == "presence"]
            return (last[-1]["spectators"], last[-1]["spectator_names"]) if last else None

        await host.wait(lambda: watching() == (1, ["Dee"]))
        os.kill(b.proc.pid, signal.SIGKILL)
        b.proc.wait()
        guest = await Client.open(a.url)  # the next presence (someone joins) counts the living only
        await asyncio.sleep(Config().proc_ttl + 1)  # its heartbeat has expired: it is dead
        await guest.request({"type": "join", "code": code, "nickname": "P1"})
        await host.wait(lambda: watching() == (0, []))
        for c in (host, guest):
            await c.close()
    finally:
        for proc in (a, b):
            stop_process(proc.proc)
