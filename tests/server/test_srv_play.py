"""Must show 1 and 5: whole deals over real sockets, views rebuilt from snapshot + diffs."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from typing import Any

from srv_client import Client, game_at, replayed, stored_state

from engine import Game
from server.codec import decode, encode
from server.store import Store
from server.views import view_for


def hands_in(obj: Any) -> list[list[int]]:
    """Every list found under a key named hand/hands anywhere in a decoded frame (or op value)."""
    found: list[list[int]] = []
    if isinstance(obj, dict):
        op_path = obj.get("path")
        if "op" in obj and isinstance(op_path, str) and op_path.startswith("/hand"):
            value = obj.get("value")
            found.append(value if isinstance(value, list) else [value])
        for k, v in obj.items():
            if k in ("hand", "hands") and isinstance(v, list):
                found.append(v)
            found.extend(hands_in(v))
    elif isinstance(obj, list):
        for v in obj:
            found.extend(hands_in(v))
    return found


async def test_one_human_three_bots_play_a_full_deal(server, aredis, caplog) -> None:
    caplog.set_level("INFO", logger="guandan")
    store = Store(aredis)
    host = await Client.open(server.url)
    res = await host.request({"type": "create", "nickname": "Ann", "bots": [1, 2, 3], "bot_delay": 0,
                              "seed": 11})
    assert res["seat"] == 0 and len(res["code"]) == 6 and res["token"]
    code = res["code"]
    await host.wait(lambda: host.room is not None and host.version is not None)
    assert [s["kind"] for s in host.room["seats"]] == ["human", "bot", "bot", "bot"]
    await host.request({"type": "start"})
    rng = random.Random(3)
    acted = 0
    for _ in range(2000):
        version, _room, game = await game_at(store, code)
        if game.phase in ("deal_over", "match_over"):
            break
        if 0 in game.pending_seats():
            await host.wait_version(version)
            assert host.view_at(version) == view_for(_room, game, 0)
            await host.request(rng.choice(game.legal_actions(0)))
            acted += 1
        else:
            await asyncio.sleep(0.005)
    version, _room, game = await game_at(store, code)
    assert game.phase in ("deal_over", "match_over"), "the deal did not finish"
    await host.wait_version(version)
    assert host.view_at(version) == view_for(_room, game, 0)
    assert host.view["last_result"] is not None
    assert acted > 0 and host.gaps == 0
    # the action log holds the whole deal: bots' and the human's moves, once each, in order
    log = [r for r in await store.log(code) if r["kind"] == "game"]
    full = await replayed(store, code)
    assert [(r["seat"], r["action"]) for r in log] == [(s, a) for s, a in decode(encode(full.actions))]
    assert full.to_dict()["hands"] == game.to_dict()["hands"] and full.phase == game.phase
    assert {r["by"] for r in log} == {"human", "bot"}
    assert any(r.getMessage().startswith(f"deal over code={code}") for r in caplog.records)
    await host.close()


async def test_four_clients_join_by_code_and_play_a_whole_deal(server, aredis) -> None:
    store = Store(aredis)
    clients = [await Client.open(server.url) for _ in range(4)]
    res = await clients[0].request({"type": "create", "nickname": "P0", "seed": 2024})
    code = res["code"]
    for i in (1, 2, 3):
        got = await clients[i].request({"type": "join", "code": code.lower(), "nickname": f"P{i}"})
        assert got["seat"] == i
    await clients[0].request({"type": "start"})
    rng = random.Random(7)
    steps = 0
    while True:
        version, _room, game = await game_at(store, code)
        for seat, c in enumerate(clients):
            await c.wait_version(version)
            held = c.view_at(version)
            assert held == view_for(_room, game, seat), f"seat {seat} rebuilt another view at v{version}"
        if game.phase in ("deal_over", "match_over"):
            break
        seat = game.pending_seats()[0]
        await clients[seat].request(rng.choice(game.legal_actions(seat)))
        steps += 1
    assert steps > 20
    # every view each seat ever held equals the engine's view at that version
    for seat, c in enumerate(clients):
        assert c.gaps == 0
        assert c.history[-1][1] == view_for(_room, game, seat)
    # no frame to a seat ever holds another seat's unplayed cards
    full = game
    replay = Game.new(full.seed, full.rules)
    hands_by_version: dict[int, list[list[int]]] = {}
    log = await store.log(code)
    start_v = next(r["v"] for r in log if r.get("type") == "start")
    hands_by_version[start_v] = [replay.hand(s) for s in range(4)]
    for r in log:
        if r["kind"] == "game":
            replay.apply(r["seat"], r["action"])
            hands_by_version[r["v"]] = [replay.hand(s) for s in range(4)]
    for seat, c in enumerate(clients):
        for version, view in c.history:
            if view:
                assert sorted(view["hand"]) == sorted(hands_by_version[version][seat])
        for frame in c.frames:
            msg = decode(frame)
            for hand in hands_in(msg):
                # any hand a seat is ever sent is (part of) its own hand at some version
                assert any(_submultiset(hand, h[seat]) for h in hands_by_version.values())
    for c in clients:
        await c.close()


def _submultiset(a: list[int], b: list[int]) -> bool:
    return not (Counter(a) - Counter(b))


async def test_two_processes_share_a_room_through_redis(start_server, aredis) -> None:
    """Clients on two server instances see the same state; bots driven from both never double-move."""
    store = Store(aredis)
    a, b = await start_server(), await start_server()
    host = await Client.open(a.url)
    res = await host.request({"type": "create", "nickname": "A", "bots": [1, 3], "bot_delay": 0, "seed": 99})
    code = res["code"]
    guest = await Client.open(b.url)
    assert (await guest.request({"type": "join", "code": code, "nickname": "B"}))["seat"] == 2
    watcher = await Client.open(b.url)
    await watcher.request({"type": "join", "code": code, "nickname": "W", "spectator": True})
    await host.wait(lambda: host.room and host.room["seats"][2]["kind"] == "human")
    await host.request({"type": "start"})
    clients = {0: host, 2: guest}
    rng = random.Random(4)
    for _ in range(3000):
        version, _room, game = await game_at(store, code)
        if game.phase in ("deal_over", "match_over"):
            break
        mine = [s for s in game.pending_seats() if s in clients]
        if mine:
            seat = mine[0]
            await clients[seat].wait_version(version)
            assert clients[seat].view_at(version) == view_for(_room, game, seat)
            await clients[seat].request(rng.choice(game.legal_actions(seat)))
        else:
            await asyncio.sleep(0.005)
    version, _room, game = await game_at(store, code)
    assert game.phase in ("deal_over", "match_over")
    for seat, c in [(0, host), (2, guest), (None, watcher)]:
        await c.wait_version(version)
        assert c.view_at(version) == view_for(_room, game, seat) and c.gaps == 0
    log = await store.log(code)
    assert [r["v"] for r in log] == list(range(1, version + 1))
    actions = [[r["seat"], r["action"]] for r in log if r["kind"] == "game"]
    again = Game.replay(game.seed, game.rules, actions)
    assert stored_state(again) == stored_state(game)
    procs = {r["proc"] for r in log if r["kind"] == "game" and r["by"] == "bot"}
    assert procs <= {a.app.proc_id, b.app.proc_id}
    for c in (host, guest, watcher):
        await c.close()
