"""Issue 13, Must show 4 (server side): the ready check between deals and the rematch, on real Redis and
real sockets. One player's "next deal" no longer moves the others on; the deal starts when every person
still at the table is ready; a rematch after a won match keeps the room, its code and its seats."""

from __future__ import annotations

import asyncio
import random
from unittest.mock import ANY

import pytest
from srv_client import Client, ServerError, game_at, play_until, replayed, seated_room, stored_state

from server.store import Store
from server.views import view_for


def over(game) -> bool:  # noqa: ANN001
    return game.phase in ("deal_over", "match_over")


def starters(log: list[dict]) -> list[str]:
    """Who started each next deal in the action log."""
    return [r["by"] for r in log if r["kind"] == "game" and r["action"]["type"] == "next_deal"]


async def test_the_next_deal_waits_until_every_person_is_ready(server, aredis) -> None:
    store = Store(aredis)
    code, clients, _ = await seated_room(server.url, humans=3, bots=[3], seed=21)
    _v, _room, game = await play_until(store, code, dict(enumerate(clients)), random.Random(4), over)
    assert game.phase == "deal_over"
    await clients[0].request({"type": "next_deal"})
    version, room, game = await game_at(store, code)
    assert game.phase == "deal_over" and game.deal == 1  # nobody else was moved on
    for seat, c in enumerate(clients):
        await c.wait_version(version)
        assert c.view["ready"] == [True, False, False, True]  # the bot never holds the table up
        assert c.view == view_for(room, game, seat)
    with pytest.raises(ServerError) as exc:  # a second press changes nothing and says why
        await clients[0].request({"type": "next_deal"})
    assert exc.value.code == "already_ready"
    await clients[2].request({"type": "next_deal"})
    assert (await game_at(store, code))[2].deal == 1
    await clients[1].request({"type": "next_deal"})  # the last person: the deal starts now
    _v, _room, game = await game_at(store, code)
    assert game.deal == 2 and game.phase in ("return", "play")
    for c in clients:
        await c.wait(lambda c=c: c.view["deal"] == 2)
        assert c.view["ready"] is None
    log = await store.log(code)
    presses = [(r["seat"], r["for"]) for r in log if r.get("type") == "ready"]
    assert presses == [(0, "next_deal"), (2, "next_deal")]
    starts = [r for r in log if r["kind"] == "game" and r["action"]["type"] == "next_deal"]
    assert [(r["seat"], r["by"]) for r in starts] == [(1, "human")]
    for c in clients:
        await c.close()


async def test_a_player_who_left_does_not_hold_up_the_next_deal(server, aredis) -> None:
    store = Store(aredis)
    code, clients, _ = await seated_room(server.url, humans=2, bots=[2, 3], seed=22, grace=0.2)
    await play_until(store, code, dict(enumerate(clients)), random.Random(5), over)
    await clients[1].close()  # seat 1 leaves at the result screen
    await clients[0].request({"type": "next_deal"})
    # once seat 1's grace period is over it counts as ready (away) and the deal starts by itself
    await clients[0].wait(lambda: clients[0].view["deal"] == 2)
    log = await store.log(code)
    assert starters(log) == ["next_deal"]
    assert any(r.get("type") == "away" and r["seat"] == 1 for r in log)
    await clients[0].close()


async def test_a_timed_table_with_auto_next_deals_on_by_itself(server, aredis) -> None:
    store = Store(aredis)
    code, clients, _ = await seated_room(server.url, humans=2, bots=[2, 3], seed=23, turn_timer=0.3,
                                         auto_next=True)
    assert clients[0].room["settings"]["auto_next"] is True
    await play_until(store, code, dict(enumerate(clients)), random.Random(6), over)
    for c in clients:  # nobody presses
        await c.wait(lambda c=c: c.view["deal"] == 2, timeout=20)
    log = await store.log(code)
    assert starters(log) == ["next_deal"]
    assert not any(r.get("type") == "ready" for r in log)
    for c in clients:
        await c.close()


async def test_a_rematch_keeps_the_room_its_code_and_seats(server, aredis) -> None:
    store = Store(aredis)
    code, clients, _ = await seated_room(server.url, humans=2, bots=[2, 3], seed=4)
    for c in clients:
        with pytest.raises(ServerError) as exc:
            await c.request({"type": "new_match"})
        assert exc.value.code == "match_not_over"
    # fast-forward: the stored match is won by team 1 at A (as a long match would end)
    version, room = await store.load(code)
    room["game"].update(phase="match_over", match_winner=1, levels=[5, 14], turn=None)
    assert await store.commit(code, version, room, {"kind": "test"}, "test") is not None
    seats_before = room["seats"]
    for c in clients:
        await c.wait(lambda c=c: c.view["phase"] == "match_over")
        assert c.view["ready"] == [False, False, True, True]
    await clients[1].request({"type": "new_match"})  # any person asks: not only the host
    await clients[0].wait(lambda: clients[0].view["ready"] == [False, True, True, True])
    assert (await game_at(store, code))[2].phase == "match_over"
    await clients[0].request({"type": "new_match"})
    for c in clients:
        await c.wait(lambda c=c: c.view["phase"] == "play" and c.view["levels"] == [2, 2])
        assert c.view["deal"] == 1 and len(c.view["hand"]) == 27 and c.view["match_winner"] is None
        assert c.room["code"] == code
    final, room = await store.load(code)
    assert room["code"] == code and room["seats"] == seats_before and room["host"] == 0
    # the finished match's log is trimmed: the log starts at the new match's start record, which is
    # all a replay needs, and goes on from its version
    log = [r for r in await store.log(code) if r["v"] <= final]
    assert log[0]["type"] == "start" and log[0]["by"] == "new_match"
    assert log[0]["seed"] == room["settings"]["seed"]
    assert log[0]["v"] > version and [r["v"] for r in log] == list(range(log[0]["v"], final + 1))
    assert stored_state(await replayed(store, code, upto=final)) == room["game"]
    for c in clients:
        await c.close()


async def test_a_player_who_leaves_a_won_match_gives_the_seat_up(server, aredis) -> None:
    """The page forgets the seat on leaving a won match: the room gives it to a bot, which a newcomer (the
    leaver too, under the same name) takes for the rematch; kept, it stood there as a ghost "away"."""
    store = Store(aredis)
    code, clients, _ = await seated_room(server.url, humans=3, bots=[3], seed=5)
    version, room = await store.load(code)
    room["game"].update(phase="match_over", match_winner=0, levels=[14, 5], turn=None)
    assert await store.commit(code, version, room, {"kind": "test"}, "test") is not None
    for c in clients:
        await c.wait(lambda c=c: c.view["phase"] == "match_over")
    await clients[1].request({"type": "new_match"})
    await clients[0].request({"type": "leave"})  # the host leaves: P1 asked for a rematch already
    await clients[1].wait(lambda: clients[1].room["seats"][0]["kind"] == "bot")
    _v, room = await store.load(code)
    # the result still names who played the seat, and the others read that they left
    assert room["host"] == 1 and room["seats"][0] == {"kind": "bot", "nickname": "Bot 1", "token": None,
                                                      "left": "P0"}
    assert clients[1].room["seats"][0]["left"] == "P0"
    assert room["live"]["gone"][0] is None and not room["live"]["away"][0]
    # P1's rematch was asked with P0 at the table: withdrawn (a bot is always ready)
    assert clients[1].view["ready"] == [True, False, False, True]
    assert clients[1].view["auto"][0] is None  # not "left": nobody is away
    back = await Client.open(server.url)  # the same person, a new page: the name is free again
    joined = await back.request({"type": "join", "code": code, "nickname": "P0"})
    assert joined["seat"] == 0
    # back in the seat given up: neither "left" nor a stand-in who "replaced Bot 1"
    assert (await store.load(code))[1]["seats"][0] == {"kind": "human", "nickname": "P0", "token": ANY}
    await clients[1].request({"type": "new_match"})
    await clients[2].request({"type": "new_match"})
    await back.request({"type": "new_match"})
    for c in (back, clients[1], clients[2]):
        await c.wait(lambda c=c: c.view["phase"] == "play" and c.view["deal"] == 1)
    _v, room = await store.load(code)
    assert [s["kind"] for s in room["seats"]] == ["human", "human", "human", "bot"] and room["host"] == 1
    assert all("left" not in s for s in room["seats"]) and clients[1].room["seats"][0]["left"] is None
    # mid-match, leaving keeps the seat (its player may resume it): only a won match gives it up
    await clients[2].request({"type": "leave"})
    await clients[1].wait(lambda: clients[1].view["auto"][2] == "left")
    assert (await store.load(code))[1]["seats"][2]["kind"] == "human"
    for c in (back, clients[1]):
        await c.close()


async def test_a_rematch_asked_for_is_not_dealt_when_the_friend_then_leaves(server, aredis) -> None:
    """P0 asked for a rematch, then P1 left the won match: P0 was dealt a new match at once, a bot in
    P1's seat and nothing said. The request is withdrawn; P0 reads that P1 left and asks again."""
    store = Store(aredis)
    code, clients, _ = await seated_room(server.url, humans=2, bots=[2, 3], seed=5)
    version, room = await store.load(code)
    room["game"].update(phase="match_over", match_winner=0, levels=[14, 5], turn=None)
    assert await store.commit(code, version, room, {"kind": "test"}, "test") is not None
    for c in clients:
        await c.wait(lambda c=c: c.view["phase"] == "match_over")
    ann, bo = clients
    await ann.request({"type": "new_match"})
    await bo.request({"type": "leave"})
    await ann.wait(lambda: ann.room["seats"][1]["kind"] == "bot")
    await asyncio.sleep(0.5)  # time enough for a rematch to start by itself
    assert ann.view["phase"] == "match_over" and ann.view["ready"] == [False, True, True, True]
    assert ann.room["seats"][1]["left"] == "P1"
    await ann.request({"type": "new_match"})  # she wants it, with the bot
    await ann.wait(lambda: ann.view["phase"] == "play" and ann.view["deal"] == 1)
    await ann.close()
