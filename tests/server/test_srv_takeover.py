"""Issue 12: bots yield their seats to people (in the lobby and mid-match) unless the host locked the
table; "bots in empty seats" fills only what is still empty at the start."""

from __future__ import annotations

import asyncio
import ipaddress
import random
import socket
from urllib.parse import urlsplit

import pytest
from srv_client import Client, ServerError, game_at, play_until

from server import autopilot as ap
from server.store import Store


async def _create(url: str, **create: object) -> tuple[Client, str]:
    host = await Client.open(url)
    res = await host.request({"type": "create", "nickname": "Ann", "seed": 5, "bot_delay": 0, **create})
    return host, res["code"]


def _kinds(client: Client) -> list[str]:
    return [s["kind"] for s in client.room["seats"]] if client.room else []


async def test_friends_find_empty_seats_and_bots_fill_the_rest_at_the_start(server, aredis) -> None:
    host, code = await _create(server.url, fill_bots=True)
    await host.wait(lambda: _kinds(host) == ["human", "empty", "empty", "empty"])
    assert host.room["settings"]["fill_bots"] is True
    friends = [await Client.open(server.url) for _ in range(2)]
    for i, friend in enumerate(friends, start=1):
        assert (await friend.request({"type": "join", "code": code, "nickname": f"F{i}"}))["seat"] == i
    await host.request({"type": "start"})
    await host.wait(lambda: _kinds(host) == ["human", "human", "human", "bot"])
    start = next(r for r in await Store(aredis).log(code) if r.get("type") == "start")
    assert start["bots"] == [3]
    # a room without the option still refuses to start with an empty seat
    other, _ = await _create(server.url)
    with pytest.raises(ServerError) as exc:
        await other.request({"type": "start"})
    assert exc.value.code == "seats_empty"
    for c in [host, *friends, other]:
        await c.close()


async def test_a_person_takes_a_bots_seat_in_the_lobby(server) -> None:
    host, code = await _create(server.url, bots=[1, 2, 3])
    bo, cy = await Client.open(server.url), await Client.open(server.url)
    assert (await bo.request({"type": "join", "code": code, "nickname": "Bo"}))["seat"] == 1
    assert (await cy.request({"type": "join", "code": code, "nickname": "Cy", "seat": 3}))["seat"] == 3
    await host.wait(lambda: _kinds(host) == ["human", "human", "bot", "human"])
    seats = host.room["seats"]
    assert (seats[1]["nickname"], seats[1]["replaced"]) == ("Bo", "Bot 2")
    assert (seats[3]["nickname"], seats[3]["replaced"]) == ("Cy", "Bot 4")
    assert seats[0]["replaced"] is None and seats[2]["replaced"] is None
    for c in (host, bo, cy):
        await c.close()


async def test_mid_match_a_newcomer_takes_a_bots_seat_with_its_hand_and_plays_on(server, aredis) -> None:
    store = Store(aredis)
    # slow bots: the bot seat to be taken over is still to act when the newcomer arrives
    host, code = await _create(server.url, fill_bots=True, bot_delay=10, turn_timer=60)
    await host.request({"type": "start"})
    _v, _room, game = await play_until(store, code, {0: host}, random.Random(3),
                                       lambda g: g.pending_seats()[0] != 0)
    seat = game.pending_seats()[0]  # a bot's turn: the newcomer takes this very seat
    hand, counts, level = game.hands[seat], [len(h) for h in game.hands], game.levels
    bo = await Client.open(server.url)
    res = await bo.request({"type": "join", "code": code, "nickname": "Bo"})
    assert res["seat"] == seat and res["token"]
    await bo.wait(lambda: bo.view is not None and bo.view.get("hand") is not None)
    assert sorted(bo.view["hand"]) == sorted(hand)
    assert bo.view["counts"] == counts and bo.view["levels"] == level and bo.view["turn"] == seat
    assert bo.view["deadlines"][seat] is not None  # the room's turn timer runs for the person now
    # the whole table is told who replaced whom, and the log keeps it
    await host.wait(lambda: host.room["seats"][seat]["kind"] == "human")
    assert (host.room["seats"][seat]["nickname"], host.room["seats"][seat]["replaced"]) == (
        "Bo", f"Bot {seat + 1}")
    join = [r for r in await store.log(code) if r.get("type") == "join"][-1]
    assert (join["seat"], join["nickname"], join["replaced"]) == (seat, "Bo", f"Bot {seat + 1}")
    # the seat waits for its person now (not the bot), and the person's move counts
    _v, room, game = await game_at(store, code)
    assert ap.plan(room, game).why == ap.TIMER and ap.controller(room, seat) is None
    action = random.Random(1).choice(game.legal_actions(seat))
    await bo.request(action)
    by = [r for r in await store.log(code) if r["kind"] == "game"][-1]
    assert (by["seat"], by["by"]) == (seat, "human")
    for c in (host, bo):
        await c.close()


async def test_a_nickname_already_seated_is_told_to_go_back_not_given_another_seat(server, aredis) -> None:
    """Bo, back mid-match on another device (no seat token there), was given a bot's seat, as often as not
    on the other team, with two Bos at the table; he is told where his seat is instead."""
    host, code = await _create(server.url, fill_bots=True, bot_delay=10)
    bo = await Client.open(server.url)
    assert (await bo.request({"type": "join", "code": code, "nickname": "Bo"}))["seat"] == 1
    await host.request({"type": "start"})
    await bo.close()  # his phone died
    store = Store(aredis)
    while (await store.load(code))[1]["live"]["gone"][1] is None:  # the server saw him go
        await asyncio.sleep(0.01)
    before = await store.load(code)
    again = await Client.open(server.url)
    for nickname in ("Bo", " bo ", "ANN"):  # the same name, however it is spelt
        with pytest.raises(ServerError) as exc:
            await again.request({"type": "join", "code": code, "nickname": nickname})
        assert exc.value.code == "nickname_taken", nickname
        assert exc.value.fields == ({"seat": 1, "nickname": "Bo"} if nickname != "ANN" else
                                    {"seat": 0, "nickname": "Ann"})
    assert await store.load(code) == before  # nothing changed: no seat taken, no bot moved
    # another name takes a bot's seat as before, and anyone may watch under any name
    assert (await again.request({"type": "join", "code": code, "nickname": "Bob"}))["seat"] == 2
    watcher = await Client.open(server.url)
    await watcher.request({"type": "join", "code": code, "nickname": "Bo", "spectator": True})
    for c in (host, again, watcher):
        await c.close()


async def test_the_host_locks_the_table_and_newcomers_can_only_watch(server) -> None:
    host, code = await _create(server.url, bots=[1, 2, 3])
    await host.request({"type": "start"})
    guest = await Client.open(server.url)
    with pytest.raises(ServerError) as exc:  # nobody outside the room locks it
        await guest.request({"type": "lock", "on": True})
    assert exc.value.code == "not_in_room"
    assert (await host.request({"type": "lock", "on": True}))["locked"] is True
    await host.wait(lambda: host.room["locked"] is True)
    with pytest.raises(ServerError) as exc:
        await guest.request({"type": "join", "code": code, "nickname": "Bo"})
    assert exc.value.code == "room_full" and "locked" in exc.value.message
    assert (await guest.request({"type": "join", "code": code, "nickname": "Bo", "spectator": True}))[
        "seat"] is None
    with pytest.raises(ServerError) as exc:
        await guest.request({"type": "lock", "on": False})
    assert exc.value.code == "not_host"
    await host.request({"type": "lock", "on": False})
    other = await Client.open(server.url)
    assert (await other.request({"type": "join", "code": code, "nickname": "Cy"}))["seat"] == 1
    for c in (host, guest, other):
        await c.close()


async def test_a_table_of_people_is_full_and_seats_of_people_never_pass(server, aredis) -> None:
    host, code = await _create(server.url, ai=[3])
    friends = [await Client.open(server.url) for _ in range(2)]
    for i, friend in enumerate(friends):
        await friend.request({"type": "join", "code": code, "nickname": f"F{i}"})
    await host.request({"type": "start"})
    await friends[1].close()  # a person who dropped keeps the seat: our bot only plays for them
    late = await Client.open(server.url)
    with pytest.raises(ServerError) as exc:
        await late.request({"type": "join", "code": code, "nickname": "Late"})
    assert exc.value.code == "room_full"
    for seat in (2, 3):
        with pytest.raises(ServerError) as exc:
            await late.request({"type": "join", "code": code, "nickname": "Late", "seat": seat})
        assert exc.value.code == "seat_taken"
    for c in (host, friends[0], late):
        await c.close()


async def test_the_welcome_names_links_friends_can_open(start_server) -> None:
    local = await start_server()
    c = await Client.open(local.url, hello=False)
    await c.send({"type": "hello", "protocol": 1})
    welcome = await c.wait(lambda: next((m for m in c.messages if m["type"] == "welcome"), None))
    assert welcome["invite"] == [f"http://127.0.0.1:{local.port}/"]
    await c.close()
    for config, expected in (({"public_url": "https://gd.example.org/"}, ["https://gd.example.org/"]),
                             ({"host": "0.0.0.0"}, None)):
        running = await start_server(**config)
        c = await Client.open(running.url, hello=False)
        await c.send({"type": "hello", "protocol": 1})
        welcome = await c.wait(lambda c=c: next((m for m in c.messages if m["type"] == "welcome"), None))
        if expected is not None:
            assert welcome["invite"] == expected
        else:  # every interface: this machine's own network addresses, on the port it listens on
            assert welcome["invite"]
            for url in welcome["invite"]:
                parts = urlsplit(url)
                assert parts.port == running.port and not ipaddress.ip_address(parts.hostname).is_loopback
                with socket.socket(socket.AF_INET6 if ":" in parts.hostname else socket.AF_INET) as s:
                    s.bind((parts.hostname, 0))  # only an address of this machine can be bound
        await c.close()
