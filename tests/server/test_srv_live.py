"""Live play (issue 6, Must show 1): dropout takeover, turn timers and auto-play, on a real server."""

from __future__ import annotations

import asyncio
import random
import time

import pytest
from srv_client import Client, game_at, play_until, replayed, seated_room

from server.store import Store

pytestmark = pytest.mark.slow


def following(seat: int):
    """It is ``seat``'s turn in the middle of a trick (there is a play to beat)."""
    return lambda game: game.phase == "play" and game.turn == seat and game.top_play() is not None


async def records_by(store: Store, code: str, by: str) -> list[dict]:
    return [r for r in await store.log(code) if r["kind"] == "game" and r.get("by") == by]


async def test_a_dropped_player_is_played_for_after_the_grace_period_and_gets_the_seat_back(server, aredis):
    store = Store(aredis)
    code, clients, tokens = await seated_room(server.url, humans=2, bots=[2, 3], seed=21, grace=0.6)
    rng = random.Random(1)
    await play_until(store, code, {0: clients[0], 1: clients[1]}, rng, following(1))
    dropped_at = time.time()
    await clients[1].close()  # seat 1 drops in the middle of a trick, on its turn
    host = clients[0]
    # everyone sees that seat 1 is on auto once the grace period is over ...
    await host.wait(lambda: host.view["auto"][1] == "dropout", timeout=10)
    assert time.time() - dropped_at >= 0.6
    # ... and our bot plays seat 1's turns meanwhile (it was seat 1's turn when it dropped)
    for _ in range(400):
        away = [r for r in await records_by(store, code, "away") if r["seat"] == 1]
        if away:
            break
        await asyncio.sleep(0.02)
    assert away, "no bot move for the dropped seat"
    assert away[0]["ts"] - dropped_at >= 0.6
    # the player comes back: control returns at once, and everyone sees it
    back = await Client.open(server.url)
    assert (await back.request({"type": "resume", "code": code, "token": tokens[1]}))["seat"] == 1
    await host.wait(lambda: host.view["auto"][1] is None, timeout=10)
    await back.wait(lambda: back.view is not None and back.view["auto"][1] is None)
    moves_while_away = len(await records_by(store, code, "away"))
    # seat 1 waits for its player again: bring the game to seat 1's turn and leave it there
    await play_until(store, code, {0: host}, rng, lambda game: game.phase != "play" or game.turn == 1,
                     timeout=30)
    await asyncio.sleep(1.0)
    version, _room, game = await game_at(store, code)
    if game.phase == "play":
        assert game.turn == 1, "nobody played for the returned player"
    assert len(await records_by(store, code, "away")) == moves_while_away
    for c in (host, back):
        await c.close()


async def test_a_player_who_leaves_mid_match_is_played_for_at_once_and_may_come_back(server, aredis):
    """Leave is not a dropped connection: nobody waits out the grace period for someone who said they
    are going, and the others see that they left (not that they dropped)."""
    store = Store(aredis)
    code, clients, tokens = await seated_room(server.url, humans=2, bots=[2, 3], seed=21, grace=60)
    rng = random.Random(2)
    await play_until(store, code, {0: clients[0], 1: clients[1]}, rng, following(1))
    host = clients[0]
    assert (await clients[1].request({"type": "leave"})) == {"code": code}
    # far sooner than the 60 s grace period: seat 1 is on our bot, marked as left, and played for
    await host.wait(lambda: host.view["auto"][1] == "left", timeout=10)
    for _ in range(400):
        if [r for r in await records_by(store, code, "away") if r["seat"] == 1]:
            break
        await asyncio.sleep(0.02)
    else:
        raise AssertionError("nobody played for the seat whose player left")
    assert [r["type"] for r in await store.log(code) if r["kind"] == "live" and r["seat"] == 1] == ["left"]
    # the seat is still theirs: Resume brings them back and control returns at once
    assert (await clients[1].request({"type": "resume", "code": code, "token": tokens[1]}))["seat"] == 1
    await host.wait(lambda: host.view["auto"][1] is None, timeout=10)
    _v, room = await store.load(code)
    assert room["live"]["left"] == [False] * 4 and room["live"]["away"][1] is False
    for c in clients:
        await c.close()


async def test_a_turn_timer_expiry_makes_the_bot_act(server, aredis):
    store = Store(aredis)
    code, clients, _ = await seated_room(server.url, humans=1, bots=[1, 2, 3], seed=5, turn_timer=0.5)
    host = clients[0]
    await host.wait(lambda: host.view and host.view["turn"] == 0 and host.view["deadline"] is not None)
    deadline, seen = host.view["deadline"], host.version
    # the deadline is the timer's 0.5 s after the change that began seat 0's turn (read from the log,
    # not the clock, so a slow machine cannot fail it)
    began = [r for r in await store.log(code)
             if r["v"] <= seen and (r["kind"] == "game" or r.get("type") == "start")]
    assert host.view["deadlines"][0] == deadline and 0.45 <= deadline - began[-1]["ts"] <= 0.55
    # the host does nothing: when the deadline passes, our bot acts for seat 0
    await host.wait(lambda: host.view["counts"][0] < 27, timeout=10)
    timed = await records_by(store, code, "timer")
    assert timed and timed[0]["seat"] == 0 and timed[0]["ts"] >= deadline - 0.01
    assert all(r["seat"] == 0 for r in timed)  # only people's seats have timers
    await host.close()


async def test_two_timeouts_in_a_row_put_a_player_on_auto_play_until_they_turn_it_off(server, aredis):
    """A player who walked away from an open tab held the table up a full timer at each turn: at the
    second timeout in a row the seat goes on auto-play (超时托管), told in the log and the view."""
    store = Store(aredis)
    code, clients, _ = await seated_room(server.url, humans=1, bots=[1, 2, 3], seed=5, turn_timer=0.3)
    host = clients[0]
    first, second = (await until_records(store, code, "timer", 2))[:2]  # the host never acts
    assert "autoplay" not in first and second["autoplay"] == 1.0
    await host.wait(lambda: host.view["autoplay"] == 1.0 and host.view["auto"][0] == "player")
    await until_records(store, code, "autoplay", 1)
    assert len(await records_by(store, code, "timer")) == 2  # auto-play plays on, not the timer
    # turned off: the count starts again, and one timeout is not two
    await host.request({"type": "auto", "on": False})
    await host.wait(lambda: host.view["autoplay"] is None)
    third = (await until_records(store, code, "timer", 3))[2]
    assert "autoplay" not in third
    await host.close()


async def until_records(store: Store, code: str, by: str, n: int) -> list[dict]:
    for _ in range(500):
        found = await records_by(store, code, by)
        if len(found) >= n:
            return found
        await asyncio.sleep(0.02)
    raise AssertionError(f"fewer than {n} moves by {by}")


async def test_auto_play_keeps_its_interval_and_stops_when_turned_off(server, aredis):
    store = Store(aredis)
    code, clients, _ = await seated_room(server.url, humans=1, bots=[1, 2, 3], seed=8)
    host = clients[0]
    res = await host.request({"type": "auto", "on": True, "interval": 0.3})
    assert res["autoplay"] == 0.3
    await host.wait(lambda: host.view["autoplay"] == 0.3 and host.view["auto"][0] == "player")
    for _ in range(500):
        if len(await records_by(store, code, "autoplay")) >= 4:
            break
        await asyncio.sleep(0.05)
    log = await store.log(code)
    auto = [r for r in log if r.get("by") == "autoplay"]
    assert len(auto) >= 4 and all(r["seat"] == 0 for r in auto)
    # each auto move came the chosen interval after seat 0's turn began (the game change before it)
    moves = [r for r in log if r["kind"] == "game" or r.get("type") == "start"]
    for r in auto:
        turn_began = max(m["ts"] for m in moves if m["v"] < r["v"])
        waited = r["ts"] - turn_began
        assert 0.29 <= waited < 2.0, waited
    await host.request({"type": "auto", "on": False})
    await host.wait(lambda: host.view["autoplay"] is None and host.view["auto"][0] is None)
    stopped = len(await records_by(store, code, "autoplay"))
    # the bots play on until it is seat 0's turn again; then the table waits for the player
    for _ in range(400):
        _v, _room, game = await game_at(store, code)
        if game.phase != "play" or game.turn == 0:
            break
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.8)
    assert len(await records_by(store, code, "autoplay")) == stopped
    _v, _room, game = await game_at(store, code)
    assert game.phase != "play" or game.turn == 0
    # every action in the log is legal in order: the engine replays it
    await replayed(store, code)
    await host.close()


async def test_auto_play_rejects_an_unknown_interval(server):
    code, clients, _ = await seated_room(server.url, humans=1, bots=[1, 2, 3], seed=8)
    msg_id = await clients[0].send({"type": "auto", "on": True, "interval": 0.7})
    reply = await clients[0].reply(msg_id)
    assert reply["type"] == "error" and reply["code"] == "invalid_message" and "0.3" in reply["message"]
    assert clients[0].view["autoplay"] is None
    await clients[0].close()


async def test_auto_play_goes_on_into_the_next_deal(server, aredis):
    """At the result the suggestion is "next deal": with everyone at the table on auto-play, it starts."""
    code, clients, _ = await seated_room(server.url, humans=1, bots=[1, 2, 3], seed=13)
    host = clients[0]
    await host.request({"type": "auto", "on": True, "interval": 0.3})
    await host.wait(lambda: host.view["deal"] == 2, timeout=120)
    log = await Store(aredis).log(code)
    starts = [r["by"] for r in log if r["kind"] == "game" and r["action"]["type"] == "next_deal"]
    assert starts == ["next_deal"]  # started by the autopilot, not by a person
    await host.close()
