"""Issue 15: a seat that changes hands is closed to its previous occupant; nobody chooses the shuffle.

Real sockets on loopback, a real Redis. Each test fails on the server before the fix: the released AI
kept receiving its old seat's cards, and a client-given seed decided the deal.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from srv_client import Client, ServerError, seated_room
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from engine import Game
from server import changes as C
from server import rooms
from server.changes import Change, NothingToDo
from server.store import Store


async def _collect(ws, into: list[str]) -> None:
    """Everything an AI socket receives, until it is closed."""
    try:
        async for frame in ws:
            into.append(frame)
    except ConnectionClosed:
        pass


async def test_a_released_ai_seat_is_closed_and_never_sees_or_plays_the_seat_again(server, aredis) -> None:
    host = await Client.open(server.url)
    res = await host.request({"type": "create", "nickname": "Host", "seat": 0, "ai": [1], "bots": [2, 3],
                              "bot_delay": 0})
    code, path = res["code"], res["ai"][0]["path"]
    ai_ws = await connect(f"ws://127.0.0.1:{server.port}{path}", compression=None)
    received: list[str] = []
    reader = asyncio.create_task(_collect(ai_ws, received))
    await host.wait(lambda: host.presence is not None and host.presence[1])  # the AI holds seat 1

    await host.request({"type": "remove_bot", "seat": 1})
    await asyncio.wait_for(reader, 10)  # the server closed the released AI's socket
    assert ai_ws.close_code == 1008
    await host.request({"type": "add_bot", "seat": 1})
    await host.request({"type": "start"})
    await host.wait(lambda: host.view and host.view.get("phase") == "play")
    assert received == []  # not one frame about seat 1 after it was released (no hand, no act)

    # the old secret opens nothing any more
    again = await connect(f"ws://127.0.0.1:{server.port}{path}", compression=None)
    with pytest.raises(ConnectionClosed):
        await asyncio.wait_for(again.recv(), 10)
    assert again.close_code == 1008
    assert await Store(aredis).ai_room(rooms.hash_token(path[len("/game/"):])) is None
    # and no action of the room was ever committed as the AI's
    assert not [r for r in await Store(aredis).log(code) if r.get("by") in ("ai", "ai_fallback")]
    await host.close()


def test_an_answer_from_an_ai_that_no_longer_holds_the_seat_changes_nothing() -> None:
    room = rooms.new_room("ABCDEF", rooms.make_settings("standard", {}, None, 0.0, 7))
    room["seats"] = [rooms.ai_seat(0, rooms.hash_token("new")), rooms.bot_seat(1), rooms.bot_seat(2),
                     rooms.bot_seat(3)]
    room["host"] = None
    game = Game.new(7)
    rooms.save_game(room, game)
    room["status"] = "playing"
    seat = game.turn
    room["seats"][seat] = rooms.ai_seat(seat, rooms.hash_token("new"))
    key = C.turn_key(game, seat)
    action = game.legal_actions(seat)[0]
    with pytest.raises(NothingToDo):
        C.answer(room, seat, rooms.hash_token("old"), key, action, "ai")
    assert C.answer(room, seat, rooms.hash_token("new"), key, action, "ai").record["seat"] == seat


async def test_a_person_whose_seat_changes_hands_is_closed_and_cannot_act_for_it(server) -> None:
    code, clients, _tokens = await seated_room(server.url, humans=4)
    old = clients[1]
    errors_before = len(old.errors())

    def give_away(room: dict) -> Change:  # any change of occupant, as a takeover of the seat makes it
        room["seats"][1] = {"kind": "human", "nickname": "Newcomer", "token": rooms.hash_token("someone")}
        return Change({"kind": "room", "type": "test_give_away", "seat": 1}, {}, None)

    version, _ = await server.app.mutate(code, give_away)
    await old.wait(lambda: len(old.errors()) > errors_before)
    assert old.errors()[-1]["code"] == "seat_lost"
    await asyncio.wait_for(old.reader, 10)
    assert old.ws.close_code == 4003
    assert old.version is not None and old.version < version  # the change itself never reached it
    # the others go on as before
    await clients[0].wait_version(version)
    assert all(c.ws.close_code is None for c in (clients[0], clients[2], clients[3]))
    for c in clients:
        await c.close()


async def test_a_stale_holder_is_refused_at_commit(server) -> None:
    """The holder is checked on the state the compare-and-set commits against: an action racing the
    change of occupant is refused with seat_lost, not committed for the new occupant."""
    code, clients, _ = await seated_room(server.url, humans=4)
    conn = next(c for c in server.app.conns.values() if c.seat == 0)
    checked = server.app._as_holder(conn, lambda room: C.set_autoplay(room, 0, 1.0))

    def give_away(room: dict) -> Change:
        room["seats"][0] = {"kind": "human", "nickname": "Newcomer", "token": rooms.hash_token("someone")}
        return Change({"kind": "room", "type": "test_give_away", "seat": 0}, {}, None)

    await server.app.mutate(code, give_away)
    with pytest.raises(rooms.RoomError) as exc:
        await server.app.mutate(code, checked)
    assert exc.value.code == "seat_lost"
    for c in clients:
        await c.close()


async def test_a_client_cannot_choose_the_shuffle(start_server, aredis) -> None:
    server = await start_server(fixed_seeds=False)  # what guandan-server runs by default
    client = await Client.open(server.url)
    assert client.messages[0]["type"] == "welcome" and client.messages[0]["fixed_seeds"] is False
    with pytest.raises(ServerError) as exc:
        await client.request({"type": "create", "nickname": "Host", "seed": 42, "bots": [1, 2, 3]})
    assert exc.value.code == "seed_not_allowed"
    assert not await aredis.keys("gd:room:*")  # nothing was created

    seeds, hands = [], []
    for _ in range(2):
        host = await Client.open(server.url)
        res = await host.request({"type": "create", "nickname": "Host", "bots": [1, 2, 3], "bot_delay": 5})
        await host.request({"type": "start"})
        await host.wait(lambda h=host: h.view and h.view.get("hand"))
        assert host.room["settings"]["fixed_seed"] is False and "seed" not in host.room["settings"]
        _v, room = await Store(aredis).load(res["code"])
        seeds.append(room["settings"]["seed"])
        hands.append(host.view["hand"])
        await host.close()
    assert seeds[0] != seeds[1] and 42 not in seeds  # the server's own, different every time
    assert hands[0] != hands[1]
    await client.close()


async def test_fixed_seeds_are_a_server_option_and_such_rooms_are_marked(start_server, aredis) -> None:
    server = await start_server(fixed_seeds=True)
    host = await Client.open(server.url)
    assert host.messages[0]["fixed_seeds"] is True
    res = await host.request({"type": "create", "nickname": "Host", "seed": 42, "bots": [1, 2, 3],
                              "bot_delay": 5})
    await host.request({"type": "start"})
    await host.wait(lambda: host.view and host.view.get("hand"))
    assert host.room["settings"]["fixed_seed"] is True
    assert sorted(host.view["hand"]) == sorted(Game.new(42).hand(0))
    _v, room = await Store(aredis).load(res["code"])
    assert json.dumps(room["settings"]["seed"]) == "42"
    await host.close()
