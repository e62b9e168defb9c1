"""The story of the deal in the views (server/story.py): the history equals the action log, plays made
for an away player are summed up for that player only, leftover hands at the deal's end."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from typing import Any

import pytest
from srv_client import Client, game_at, play_until, replayed, seated_room

from engine import Game
from server.store import Store
from server.views import view_for

pytestmark = pytest.mark.slow

OVER = ("deal_over", "match_over")


async def deal_records(store: Store, code: str, upto: int) -> list[dict[str, Any]]:
    """The action log's plays and passes of the deal under way at version ``upto``, in order."""
    records: list[dict[str, Any]] = []
    for r in await store.log(code):
        if r["v"] > upto:
            break
        if r["kind"] == "room" and r.get("type") == "start" or (
                r["kind"] == "game" and r["action"]["type"] == "next_deal"):
            records = []
        elif r["kind"] == "game" and r["action"]["type"] in ("play", "pass"):
            records.append(r)
    return records


Moves = list[dict[str, Any]]


def assert_history_is_the_log(history: Moves, records: Moves, level: int) -> None:
    assert len(history) == len(records)
    wild = (level - 2) * 4 + 1
    for entry, r in zip(history, records, strict=True):
        action = r["action"]
        assert (entry["seat"], entry["type"], entry["by"]) == (r["seat"], action["type"], r["by"])
        if action["type"] == "play":
            assert (entry["kind"], entry["value"]) == (action["kind"], action["value"])
            assert Counter(entry["cards"]) == Counter(action["cards"])
            assert ("as" in entry) == (wild in action["cards"])


def told(view: dict[str, Any]) -> Moves:
    """Every move the view tells of, in order: the finished tricks, then the one under way."""
    return [m for trick in view["history"] for m in trick] + view["trick"]


def assert_tricks_are_the_engines(seed: int, view: dict[str, Any]) -> None:
    """Each of the history's tricks ends where the engine's trick ended (replayed from the first deal)."""
    game = Game.new(seed)
    for trick in [*view["history"], view["trick"]]:
        for i, move in enumerate(trick):
            action = {"type": move["type"]}
            if move["type"] == "play":
                action.update(cards=move["cards"], kind=move["kind"], value=move["value"])
            game.apply(move["seat"], action)
            assert (game.trick == []) == (trick is not view["trick"] and i == len(trick) - 1)
    assert len(game.trick) == len(view["trick"])


async def test_a_deal_with_a_dropout_tells_its_story(server, aredis):
    store = Store(aredis)
    seed = 21
    code, clients, tokens = await seated_room(server.url, humans=2, bots=[2, 3], seed=seed, grace=0.3)
    host, away = clients
    watcher = await Client.open(server.url)
    await watcher.request({"type": "join", "code": code, "nickname": "Eve", "spectator": True})
    rng = random.Random(3)
    # a few plays by hand, then seat 1 drops and our bot plays for it for a while
    await play_until(store, code, {0: host, 1: away}, rng, lambda g: len(g.played) >= 12)
    await away.close()
    await play_until(store, code, {0: host}, rng, lambda g: g.phase in OVER or sum(
        1 for m in told(host.view) if m["seat"] == 1 and m["by"] == "away") >= 2)
    # the history in every view is the log's plays and passes, in order, with who made them
    version, room, game = await game_at(store, code)
    for c in (host, watcher):
        await c.wait_version(version)
    history = told(host.view_at(version))
    assert_history_is_the_log(history, await deal_records(store, code, version), game.level)
    assert told(watcher.view_at(version)) == history
    # what was played in seat 1's name is for seat 1 alone
    assert view_for(room, game, 1)["in_your_name"] is not None
    assert all(view.get("in_your_name") is None for c in (host, watcher) for _v2, view in c.history)
    # seat 1 comes back and finds the summary: the log's away actions for seat 1, in order
    back = await Client.open(server.url)
    await back.request({"type": "resume", "code": code, "token": tokens[1]})
    await back.wait(lambda: back.view is not None and back.view["auto"][1] is None)
    made = [r for r in await store.log(code) if r["kind"] == "game" and r["seat"] == 1 and r["by"] == "away"]
    summary = back.view["in_your_name"]
    assert summary["n"] == len(made) == len(summary["moves"])
    for entry, r in zip(summary["moves"], made, strict=True):
        assert (entry["type"], entry["by"], entry["deal"]) == (r["action"]["type"], "away", 1)
        if entry["type"] == "play":
            assert Counter(entry["cards"]) == Counter(r["action"]["cards"])
    # play the deal out by hand: the summary goes once seat 1 acts itself
    def seat_1_or_over(game: Game) -> bool:
        return 1 in game.pending_seats() or game.phase in OVER

    await play_until(store, code, {0: host, 1: back}, rng, seat_1_or_over)
    _v, _room, game = await game_at(store, code)
    if game.phase == "play":
        await back.request(rng.choice(game.legal_actions(1)))
        await back.wait(lambda: back.view["in_your_name"] is None)
    version, room, game = await play_until(store, code, {0: host, 1: back}, rng, lambda g: g.phase in OVER)
    for c in (host, back, watcher):
        await c.wait_version(version)
    assert_history_is_the_log(told(host.view), await deal_records(store, code, version), game.level)
    assert_tricks_are_the_engines(seed, host.view)
    # at the deal's end every seat's leftover cards are on the table, as the replayed game holds them
    hands = (await replayed(store, code)).hands
    assert [sorted(h) for h in host.view["leftover"]] == [sorted(h) for h in hands]
    assert watcher.view["leftover"] == host.view["leftover"]
    assert sum(1 for h in hands if h) >= 1
    # the next deal (once both people are ready) starts a new story
    await host.request({"type": "next_deal"})
    await back.request({"type": "next_deal"})
    await host.wait(lambda: host.view["deal"] == 2)
    assert host.view["history"] == [] and host.view["trick"] == [] and host.view["leftover"] is None
    for c in (host, back, watcher):
        await c.close()


async def test_each_action_adds_one_move_and_a_finished_trick_moves_to_the_history_once(server, aredis):
    store = Store(aredis)
    code, clients, _ = await seated_room(server.url, humans=1, bots=[1, 2, 3], seed=4)
    host = clients[0]
    rng = random.Random(2)
    await play_until(store, code, {0: host}, rng, lambda g: len(g.played) >= 20)
    began = next(i for i, m in enumerate(host.messages)  # the diff from the lobby's {} to the game
                 if m["type"] == "diff" and ["+", "/history", []] in m["ops"])
    diffs = [m for m in host.messages[began + 1:] if m["type"] == "diff" and m["ops"]]
    ended = 0
    for d in diffs:  # never the whole history again: one move, or one finished trick
        told = [op[:2] for op in d["ops"] if op[1].startswith(("/history", "/trick"))]
        assert told in ([["+", "/trick/-"]], [["=", "/trick"], ["+", "/history/-"]]), d["ops"]
        ended += told[0][0] == "="
    assert len(diffs) >= 8 and ended >= 2
    assert all(m["by"] for trick in host.view["history"] for m in trick)
    await host.close()


async def test_timer_plays_are_summed_up_only_for_a_player_who_was_gone(server, aredis):
    store = Store(aredis)
    code, clients, tokens = await seated_room(server.url, humans=2, bots=[2, 3], seed=5, turn_timer=0.3,
                                              grace=60)
    host, other = clients  # neither ever acts: the timer plays both seats' turns
    # at the table: the timer plays for seat 1, marked in the history, but no summary (the player saw it)
    await host.wait(lambda: any(m.get("by") == "timer" and m["seat"] == 1 for m in told(host.view)),
                    timeout=20)
    assert other.view["in_your_name"] is None
    await other.close()
    # gone (within the grace period; the host is still at the table, so it plays on): the timer's plays
    # are kept for the player's return
    for _ in range(2):
        seen = len(await store.log(code))
        await _until_timer_acts(store, code, seen, seat=1)
    back = await Client.open(server.url)
    await back.request({"type": "resume", "code": code, "token": tokens[1]})
    await back.wait(lambda: back.view is not None and back.view["in_your_name"] is not None)
    summary = back.view["in_your_name"]
    assert summary["n"] >= 2 and {m["by"] for m in summary["moves"]} == {"timer"}
    assert {m["seat"] for m in summary["moves"]} == {1}
    assert host.view["in_your_name"] is None  # the host was there all along
    for c in (host, back):
        await c.close()


async def _until_timer_acts(store: Store, code: str, after: int, seat: int) -> None:
    for _ in range(500):
        log = await store.log(code)
        if any(r.get("by") == "timer" and r.get("seat") == seat for r in log[after:]):
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the turn timer did not act")
