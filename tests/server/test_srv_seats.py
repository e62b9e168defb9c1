"""Must show 2: seats, tokens and resuming; the lobby's host and bot controls."""

from __future__ import annotations

import asyncio
import random
import re

import pytest
from srv_client import Client, ServerError, seated_room

from engine import Game
from engine.bots import other_play, suggest_explained
from engine.bots.hints import other_plays
from server.rooms import hash_token, load_game
from server.store import Store
from server.views import view_for


async def _play_some(store: Store, code: str, clients: list[Client], n: int, rng: random.Random) -> None:
    for _ in range(n):
        _v, room = await store.load(code)
        game = load_game(room)
        seat = game.pending_seats()[0]
        await clients[seat].request(rng.choice(game.legal_actions(seat)))


async def test_resume_mid_deal_gives_the_same_seat_and_hand(server, aredis) -> None:
    store = Store(aredis)
    code, clients, tokens = await seated_room(server.url, seed=9)
    await _play_some(store, code, clients, 12, random.Random(1))
    version, room = await store.load(code)
    for c in clients:
        await c.wait_version(version)
    hand_before = clients[2].view["hand"]
    await clients[2].close()
    # only the hash of a token is stored
    assert room["seats"][2]["token"] == hash_token(tokens[2]) and tokens[2] not in str(room)
    again = await Client.open(server.url)
    res = await again.request({"type": "resume", "code": code, "token": tokens[2]})
    assert res == {"code": code, "seat": 2}
    await again.wait(lambda: again.version is not None)
    snap = next(m for m in again.messages if m["type"] == "snapshot")
    assert snap["seat"] == 2 and snap["view"]["hand"] == hand_before and snap["version"] >= version
    latest, _room = await store.load(code)  # the drop and the return were changes of the room too
    await again.wait_version(latest)
    await clients[0].wait_version(latest)
    assert again.view == clients[0].view | {"seat": 2, "hand": hand_before, "autoplay": None,
                                            "return_choices": again.view["return_choices"]}
    assert again.view["auto"] == [None] * 4
    # and play goes on from the resumed connection
    clients[2] = again
    await _play_some(store, code, clients, 8, random.Random(2))
    for c in clients:
        await c.close()


async def test_a_resume_sent_again_on_the_seat_s_own_connection_changes_nothing(server, aredis) -> None:
    """A client retrying a resume whose ack it had not seen: each one left the seat and took it again, so
    the table was told "gone" then "back" (presence and log) and the room's version moved by two."""
    store = Store(aredis)
    code, clients, tokens = await seated_room(server.url, seed=9)
    version, _room = await store.load(code)
    for c in clients:
        await c.wait_version(version)
    seen = len(clients[1].messages)
    for _ in range(5):
        snaps = sum(m["type"] == "snapshot" for m in clients[0].messages)
        again = await clients[0].request({"type": "resume", "code": code, "token": tokens[0]})
        assert again == {"code": code, "seat": 0}
        await clients[0].wait(lambda n=snaps: sum(m["type"] == "snapshot" for m in clients[0].messages) > n)
    assert (await store.load(code))[0] == version
    await _play_some(store, code, clients, 4, random.Random(3))  # the seat plays on
    latest, _room = await store.load(code)
    await clients[1].wait_version(latest)  # (presence goes out on the room's channel, before these moves)
    assert [m for m in clients[1].messages[seen:] if m["type"] == "presence" and not m["connected"][0]] == []
    assert not any(r.get("type") in ("gone", "back") for r in await store.log(code))
    for c in clients:
        await c.close()


async def test_wrong_token_taken_seat_full_room_unknown_code(server) -> None:
    code, clients, tokens = await seated_room(server.url, humans=2, start=False)
    stranger = await Client.open(server.url)
    cases = [
        ({"type": "resume", "code": code, "token": "not-a-token"}, "bad_token"),
        ({"type": "resume", "code": code, "token": tokens[0] + "x"}, "bad_token"),
        ({"type": "join", "code": code, "nickname": "Zed", "seat": 1}, "seat_taken"),
        ({"type": "join", "code": "ZZZZZZ", "nickname": "Zed"}, "room_not_found"),
        ({"type": "resume", "code": "ZZZZZZ", "token": tokens[0]}, "room_not_found"),
        ({"type": "join", "code": "AB0OIL", "nickname": "Zed"}, "room_not_found"),
    ]
    for msg, expected in cases:
        with pytest.raises(ServerError) as exc:
            await stranger.request(msg)
        assert exc.value.code == expected and exc.value.message
    await clients[0].request({"type": "add_bot", "seat": 2})
    await clients[0].request({"type": "add_ai", "seat": 3})
    await clients[0].request({"type": "lock", "on": True})  # bots keep their seats (test_srv_takeover.py)
    for seat, why in ((2, "the host locked the table"), (3, "taken by AI 4")):
        with pytest.raises(ServerError) as exc:
            await stranger.request({"type": "join", "code": code, "nickname": "Zed", "seat": seat})
        assert exc.value.code == "seat_taken" and why in exc.value.message
    with pytest.raises(ServerError) as exc:
        await stranger.request({"type": "join", "code": code, "nickname": "Zed"})
    assert exc.value.code == "room_full"
    assert "spectator" in exc.value.message and "locked" in exc.value.message
    # the stranger can still watch
    assert (await stranger.request({"type": "join", "code": code, "nickname": "Zed", "spectator": True}))[
        "seat"] is None
    for c in [*clients, stranger]:
        await c.close()


async def test_second_connection_with_the_token_replaces_the_first(server) -> None:
    code, clients, tokens = await seated_room(server.url)
    second = await Client.open(server.url)
    await second.request({"type": "resume", "code": code, "token": tokens[1]})
    first = clients[1]
    await asyncio.wait_for(first.reader, 10)
    told = [m for m in first.messages if m["type"] == "error" and m["code"] == "replaced"]
    assert told and "another connection" in told[0]["message"]
    assert first.ws.close_code == 4001
    await second.wait(lambda: second.view and second.view["seat"] == 1)
    await clients[0].wait(lambda: clients[0].presence == [True, True, True, True])
    for c in [clients[0], clients[2], clients[3], second]:
        await c.close()


async def test_presence_shows_who_is_connected(server) -> None:
    _code, clients, _tokens = await seated_room(server.url, humans=2, bots=[2, 3], start=False)
    await clients[1].close()
    await clients[0].wait(lambda: clients[0].presence == [True, False, False, False])
    await clients[0].close()


async def test_people_choose_their_partners_by_moving_to_another_lobby_seat(server) -> None:
    """Seats went in the order people joined, so friends could not choose who partners whom."""
    code, clients, tokens = await seated_room(server.url, humans=2, start=False)
    host, bo = clients
    assert (await bo.request({"type": "sit", "seat": 2}))["seat"] == 2  # across from the host: partners
    await bo.wait(lambda: bo.seat == 2)
    await host.wait(lambda: [s["kind"] for s in host.room["seats"]] == ["human", "empty", "human", "empty"])
    await host.wait(lambda: host.presence == [True, False, True, False])
    await host.request({"type": "add_bot", "seat": 3})
    await host.request({"type": "sit", "seat": 3})  # a bot's seat: the bot takes the one left
    await bo.wait(lambda: [s["kind"] for s in bo.room["seats"]] == ["bot", "empty", "human", "human"])
    assert bo.room["host"] == 3 and host.seat == 3
    with pytest.raises(ServerError) as exc:
        await host.request({"type": "sit", "seat": 2})
    assert exc.value.code == "seat_taken" and exc.value.fields == {"seat": 2}
    watcher = await Client.open(server.url)
    await watcher.request({"type": "join", "code": code, "nickname": "W", "spectator": True})
    with pytest.raises(ServerError) as exc:
        await watcher.request({"type": "sit", "seat": 1})
    assert exc.value.code == "not_seated"
    await host.request({"type": "add_bot", "seat": 1})  # the host's role moved with them
    again = await Client.open(server.url)  # Bo's token finds Bo's new seat
    assert (await again.request({"type": "resume", "code": code, "token": tokens[1]}))["seat"] == 2
    await host.request({"type": "start"})
    await again.wait(lambda: again.view and len(again.view["hand"]) == 27 and again.view["seat"] == 2)
    with pytest.raises(ServerError) as exc:
        await host.request({"type": "sit", "seat": 0})
    assert exc.value.code == "already_started" and exc.value.fields == {"action": "sit"}
    for c in (host, bo, watcher, again):
        await c.close()


async def test_a_full_table_chooses_partners_by_the_host_swapping_seats(server) -> None:
    """With four people seated nobody could move: sit needs an empty or a bot's seat."""
    code, clients, tokens = await seated_room(server.url, humans=4, start=False)
    host, p1, p2, _p3 = clients
    with pytest.raises(ServerError) as exc:
        await p1.request({"type": "swap", "seats": [1, 2]})
    assert exc.value.code == "not_host" and exc.value.fields == {"action": "swap"}
    await host.request({"type": "swap", "seats": [1, 2]})  # P1 across from the host: partners
    await p1.wait(lambda: p1.seat == 2)
    await p2.wait(lambda: p2.seat == 1)
    assert [s["nickname"] for s in p1.room["seats"]] == ["P0", "P2", "P1", "P3"]
    await host.wait(lambda: host.presence == [True] * 4)  # both movers' seats are held by them
    assert len(set((await server.app.store.seat_conns(code)).values())) == 4
    await host.request({"type": "swap", "seats": [0, 3]})  # the host moves too, and stays host
    await host.wait(lambda: host.seat == 3 and host.room["host"] == 3)
    back = await Client.open(server.url)
    assert (await back.request({"type": "resume", "code": code, "token": tokens[1]}))["seat"] == 2
    await host.request({"type": "start"})
    await back.wait(lambda: back.view and back.view["seat"] == 2 and len(back.view["hand"]) == 27)
    with pytest.raises(ServerError) as exc:
        await host.request({"type": "swap", "seats": [1, 2]})
    assert exc.value.code == "already_started"
    for c in (*clients, back):
        await c.close()


async def test_a_swap_leaves_an_external_ai_s_seat_where_its_url_points(server) -> None:
    code, (host,), _tokens = await seated_room(server.url, humans=1, start=False)
    await host.request({"type": "add_ai", "seat": 1})
    with pytest.raises(ServerError) as exc:
        await host.request({"type": "swap", "seats": [1, 2]})
    assert exc.value.code == "seat_taken" and exc.value.fields == {"seat": 1}
    await host.request({"type": "add_bot", "seat": 2})
    await host.request({"type": "swap", "seats": [2, 3]})  # a bot is the bot of its new seat
    await host.wait(lambda: [s["nickname"] for s in host.room["seats"]][2:] == [None, "Bot 4"])
    await host.close()


async def test_a_start_right_after_a_move_deals_the_mover_in_where_they_sat(server) -> None:
    """The host pressed Start as a friend moved: the move read as the seat lost (seat_lost, and the
    browser threw the seat's token away), or the mover as dropped (a takeover countdown at a connected
    player's seat), because the connection had not followed its person yet."""
    for _ in range(3):
        await _start_as_one_moves(server)


async def _start_as_one_moves(server) -> None:
    code, (host, bo), _tokens = await seated_room(server.url, humans=2, start=False, fill_bots=True)
    moved, started = await asyncio.gather(bo.request({"type": "sit", "seat": 2}),
                                          host.request({"type": "start"}), return_exceptions=True)
    assert not isinstance(started, BaseException), started
    if isinstance(moved, ServerError):  # the Start was committed first: Bo is dealt in where he was
        assert moved.code == "already_started", moved
    seat = 1 if isinstance(moved, ServerError) else 2
    await bo.wait(lambda: bo.view and bo.view.get("seat") == seat and len(bo.view["hand"]) == 27)
    assert not [e for e in bo.errors() if e["code"] == "seat_lost"] and bo.ws.close_code is None
    await host.wait(lambda: host.view and host.view["takeover"] == [None] * 4
                    and host.presence == [True, seat == 1, seat == 2, False])
    _v, room = await server.app.store.load(code)
    assert room["live"]["gone"] == [None] * 4
    for c in (host, bo):
        await c.close()


async def test_moves_that_change_nothing_are_refused_or_acked_without_a_commit(server) -> None:
    code, (host, bo), _tokens = await seated_room(server.url, humans=2, start=False)
    with pytest.raises(ServerError) as exc:
        await host.request({"type": "swap", "seats": [1, 1]})
    assert exc.value.code == "invalid_message"
    version = (await bo.request({"type": "sit", "seat": 1}))["version"]
    assert version is not None and version == (await server.app.store.load(code))[0]
    await host.request({"type": "add_bot", "seat": 2})
    await host.request({"type": "add_bot", "seat": 3})
    await host.request({"type": "start"})
    with pytest.raises(ServerError) as exc:
        await bo.request({"type": "sit", "seat": 1})
    assert exc.value.code == "already_started"
    for c in (host, bo):
        await c.close()


async def test_the_host_removes_a_person_from_a_lobby_seat_who_may_join_again(server) -> None:
    """A stranger with the code, or a friend who never answers, kept a seat the host could not free."""
    code, clients, tokens = await seated_room(server.url, humans=3, start=False)
    host, guest, other = clients
    for by, seat, why in ((guest, 2, "not_host"), (host, 0, "not_a_player"), (host, 3, "not_a_player")):
        with pytest.raises(ServerError) as exc:
            await by.request({"type": "remove_player", "seat": seat})
        assert exc.value.code == why, (seat, exc.value.code)
    await host.request({"type": "add_bot", "seat": 3})
    with pytest.raises(ServerError) as exc:
        await host.request({"type": "remove_player", "seat": 3})
    assert exc.value.code == "not_a_player" and exc.value.fields == {"seat": 3}
    errors = len(other.errors())
    version = (await host.request({"type": "remove_player", "seat": 2}))["version"]
    await other.wait(lambda: len(other.errors()) > errors)
    assert other.errors()[-1]["code"] == "seat_lost" and other.errors()[-1]["fields"] == {"by": "host"}
    await asyncio.wait_for(other.reader, 10)
    assert other.ws.close_code == 4003 and other.version < version
    await guest.wait(lambda: guest.version >= version and guest.room["seats"][2]["kind"] == "empty")
    assert guest.room["seats"][2]["removed"] == "P2"  # the others are told why the seat emptied
    back = await Client.open(server.url)
    with pytest.raises(ServerError) as exc:  # the old token opens nothing
        await back.request({"type": "resume", "code": code, "token": tokens[2]})
    assert exc.value.code == "bad_token"
    joined = await back.request({"type": "join", "code": code, "nickname": "P2"})  # the code lets them in
    assert joined["seat"] == 2
    await guest.wait(lambda: guest.room["seats"][2]["kind"] == "human")
    assert guest.room["seats"][2]["removed"] is None
    await host.request({"type": "start"})
    with pytest.raises(ServerError) as exc:
        await host.request({"type": "remove_player", "seat": 1})
    assert exc.value.code == "already_started"
    for c in (host, guest, back):
        await c.close()


async def test_lobby_host_controls_bots_and_start(server) -> None:
    code, clients, _ = await seated_room(server.url, humans=2, start=False)
    host, guest = clients
    with pytest.raises(ServerError) as exc:
        await host.request({"type": "start"})
    assert exc.value.code == "seats_empty"
    with pytest.raises(ServerError) as exc:
        await guest.request({"type": "add_bot", "seat": 2})
    assert exc.value.code == "not_host"
    await host.request({"type": "add_bot", "seat": 2})
    await host.request({"type": "add_bot", "seat": 3})
    await guest.wait(lambda: guest.room and [s["kind"] for s in guest.room["seats"]] == [
        "human", "human", "bot", "bot"])
    await host.request({"type": "remove_bot", "seat": 3})
    with pytest.raises(ServerError) as exc:
        await host.request({"type": "remove_bot", "seat": 3})
    assert exc.value.code == "not_a_bot"
    # the host leaves: the seat frees up and the guest becomes host
    await host.request({"type": "leave"})
    await guest.wait(lambda: guest.room["host"] == 1 and guest.room["seats"][0]["kind"] == "empty")
    await guest.request({"type": "add_bot", "seat": 0})
    await guest.request({"type": "add_bot", "seat": 3})
    await guest.request({"type": "start"})
    await guest.wait(lambda: guest.view and guest.view["phase"] == "play")
    assert guest.room["status"] == "playing"
    for c in clients:
        await c.close()


async def test_suggest_returns_a_legal_action(server, aredis) -> None:
    code, clients, _ = await seated_room(server.url, seed=3)
    _v, room = await Store(aredis).load(code)
    game = load_game(room)
    seat = game.turn
    res = await clients[seat].request({"type": "suggest"})
    assert res["reason"] and res["reason_zh"]
    game.apply(seat, res["action"])  # a legal action for that seat (the engine would refuse otherwise)
    assert (await Store(aredis).load(code))[0] == _v  # suggesting applied nothing
    with pytest.raises(ServerError) as exc:
        await clients[(seat + 1) % 4].request({"type": "suggest"})
    assert exc.value.code == "not_your_turn"
    for c in clients:
        await c.close()


async def test_suggest_says_why_in_chinese_too(server, aredis) -> None:
    """The client's default language is Chinese: each suggestion says why in both languages, as the
    engine's bot does for that seat's view, and the English reply is unchanged."""
    store = Store(aredis)
    code, clients, _ = await seated_room(server.url, seed=5)
    for _ in range(12):
        _v, room = await store.load(code)
        game = load_game(room)
        seat = game.pending_seats()[0]
        res = await clients[seat].request({"type": "suggest"})
        assert set(res) == {"action", "reason", "reason_zh"}
        zh = res["reason_zh"]
        assert re.search("[\u4e00-\u9fff]", zh) and not re.search("[a-z]", zh), res
        assert (res["action"], res["reason"], zh) == suggest_explained(view_for(room, game, seat))
        await clients[seat].request(res["action"])
    for c in clients:
        await c.close()


async def test_suggest_pressed_again_offers_the_other_plays_that_beat_the_table(server, aredis) -> None:
    """``skip`` n: the n-th other play that beats the table, as the engine orders them; on a lead the
    n-th other play of the hand's plan; with nothing else, the advice again. Nothing is applied."""
    store = Store(aredis)
    code, clients, _ = await seated_room(server.url, seed=3)
    version, room = await store.load(code)
    game = load_game(room)
    leader = game.turn
    advice = await clients[leader].request({"type": "suggest"})
    lead_view = view_for(room, game, leader)
    leads = other_plays(lead_view, advice["action"])
    assert len(leads) >= 3, leads  # a whole hand of 27 is built of more than four plays
    again = await clients[leader].request({"type": "suggest", "skip": 3})
    third = other_play(lead_view, advice["action"], 3)
    assert (again["action"], again["reason"], again["reason_zh"]) == third
    assert again["action"] != advice["action"] and again["reason"].startswith("another lead")
    await clients[leader].request(advice["action"])
    for _ in range(8):  # the next seats that follow, until one has other plays to offer
        version, room = await store.load(code)
        game = load_game(room)
        seat = game.turn
        view = view_for(room, game, seat)
        first = await clients[seat].request({"type": "suggest"})
        hint = other_play(view, first["action"], 1)
        if hint is None:
            await clients[seat].request(first["action"])
            continue
        seen = []
        for skip in (1, 2, 3):
            res = await clients[seat].request({"type": "suggest", "skip": skip})
            assert (res["action"], res["reason"], res["reason_zh"]) == other_play(view, first["action"], skip)
            assert res["action"] != first["action"] and "of" in res["reason"]
            game.legal_actions(seat).index(res["action"])  # legal for that seat
            seen.append(res["action"])
        distinct = {tuple(a["cards"]) + (a["kind"], a["value"]) for a in seen}
        assert len(distinct) == min(3, len(other_plays(view, first["action"])))  # a new play each press
        assert (await store.load(code))[0] == version  # asking applied nothing
        break
    else:
        pytest.fail("no seat had another play to offer")
    with pytest.raises(ServerError) as exc:
        await clients[seat].request({"type": "suggest", "skip": -1})
    assert exc.value.code == "invalid_message"
    for c in clients:
        await c.close()


def ambiguous_selection(game, seat: int) -> list[int]:
    """Cards of ``seat`` that can be played now in more than one way (a wild card in a straight)."""
    readings: dict[tuple[int, ...], set[tuple[str, int]]] = {}
    for a in game.legal_actions(seat):
        if a["type"] == "play":
            readings.setdefault(tuple(sorted(a["cards"])), set()).add((a["kind"], a["value"]))
    return list(next((cards for cards, ways in readings.items() if len(ways) > 1), ()))


async def test_readings_offer_every_way_to_play_a_selection_and_change_nothing(server, aredis) -> None:
    """RULES.md §3: the client offers the choice; the chosen reading is what gets played."""
    store = Store(aredis)
    seed = next(s for s in range(200) if ambiguous_selection(Game.new(s), 0))
    code, clients, _ = await seated_room(server.url, seed=seed)
    version, room = await store.load(code)
    game = load_game(room)
    assert game.turn == 0
    cards = ambiguous_selection(game, 0)
    res = await clients[0].request({"type": "readings", "cards": cards})
    expected = [(p.kind, p.value) for p in game.readings(0, cards)]
    assert [(r["kind"], r["value"]) for r in res["readings"]] == expected and len(expected) > 1
    assert all(r["name"] and re.fullmatch(r"[0-9JQKA \u4e00-\u9fff]+", r["name_zh"]) for r in res["readings"])
    for other, msg, code_ in [(1, {"cards": cards}, "not_your_turn"),
                              (0, {"cards": [c for c in range(54) if c not in game.hands[0]][:1]},
                               "not_your_cards"),
                              (0, {"cards": "S3"}, "invalid_message")]:
        with pytest.raises(ServerError) as exc:
            await clients[other].request({"type": "readings", **msg})
        assert exc.value.code == code_, (msg, exc.value)
    assert (await store.load(code))[0] == version  # asking applies nothing
    # playing the last reading (not the default) plays exactly that one
    kind, value = expected[-1]
    await clients[0].request({"type": "play", "cards": cards, "kind": kind, "value": value})
    _v, room = await store.load(code)
    top = load_game(room).top
    assert (top["kind"], top["value"]) == (kind, value)
    for c in clients:
        await c.close()


async def test_bad_rules_are_refused(server) -> None:
    c = await Client.open(server.url)
    for msg, needle in [({"preset": "nope"}, "preset"), ({"options": {"wild": True}}, "wild"),
                        ({"options": {"a_attempts": "3"}}, "a_attempts")]:
        with pytest.raises(ServerError) as exc:
            await c.request({"type": "create", "nickname": "x", **msg})
        assert exc.value.code == "bad_rules" and needle in exc.value.message
    res = await c.request({"type": "create", "nickname": "x", "preset": "nanjing",
                           "options": {"joker_pair_in_full_house": True}})
    await c.wait(lambda: c.room is not None)
    assert c.room["code"] == res["code"] and c.room["settings"]["rules"]["a_attempts"] == 2
    assert c.room["settings"]["rules"]["joker_pair_in_full_house"] is True
    await c.close()


async def test_leave_during_play_keeps_the_seat_for_its_token(server, aredis) -> None:
    code, clients, tokens = await seated_room(server.url, seed=4)
    await clients[1].request({"type": "leave"})
    _v, room = await Store(aredis).load(code)
    assert room["seats"][1]["kind"] == "human"
    await clients[0].wait(lambda: clients[0].presence == [True, False, True, True])
    with pytest.raises(ServerError) as exc:
        await clients[1].request({"type": "pass"})
    assert exc.value.code == "not_in_room"
    assert (await clients[1].request({"type": "resume", "code": code, "token": tokens[1]}))["seat"] == 1
    for c in clients:
        await c.close()


async def test_one_log_line_per_event(server, caplog) -> None:
    caplog.set_level("INFO", logger="guandan")
    code, clients, tokens = await seated_room(server.url, humans=2, bots=[2, 3], start=False)
    again = await Client.open(server.url)
    await again.request({"type": "resume", "code": code, "token": tokens[1]})
    lost = await Client.open(server.url)
    with pytest.raises(ServerError):
        await lost.request({"type": "join", "code": "ZZZZZZ", "nickname": "x"})
    lines = [r.getMessage() for r in caplog.records if r.name.startswith("guandan")]
    for needle in (f"room created code={code}", f"joined code={code} seat=1", f"resumed code={code} seat=1",
                   "connection replaced", "code=room_not_found", "connection opened"):
        assert any(needle in line for line in lines), needle
    assert all("\n" not in line for line in lines)
    for c in [*clients, again, lost]:
        await c.close()


async def test_a_client_that_sees_a_gap_resyncs(server, aredis) -> None:
    store = Store(aredis)
    code, clients, _ = await seated_room(server.url, seed=8)
    watcher = clients[3]
    watcher.version -= 1  # pretend a diff was lost
    await _play_some(store, code, clients, 1, random.Random(3))
    await watcher.wait(lambda: watcher.gaps == 1)
    snapshots = sum(m["type"] == "snapshot" for m in watcher.messages)
    await watcher.request({"type": "resync"})
    await watcher.wait(lambda: sum(m["type"] == "snapshot" for m in watcher.messages) == snapshots + 1)
    version, room = await store.load(code)
    assert watcher.version == version
    assert watcher.view == view_for(room, load_game(room), 3)
    for c in clients:
        await c.close()


async def test_the_players_are_told_who_watches(server) -> None:
    """Anyone with the code may watch (a locked table too), and nothing told the players: their presence
    now counts the spectators and names them, as they come and go."""
    code, clients, _ = await seated_room(server.url, humans=2, start=False)
    host = clients[0]

    def watching(c: Client) -> tuple[int, list[str]] | None:
        last = [m for m in c.messages if m["type"] == "presence"]
        return (last[-1]["spectators"], last[-1]["spectator_names"]) if last else None

    assert watching(host) == (0, [])
    dee, abe = await Client.open(server.url), await Client.open(server.url)
    await dee.request({"type": "join", "code": code, "nickname": "Dee", "spectator": True})
    await host.wait(lambda: watching(host) == (1, ["Dee"]))
    await abe.request({"type": "join", "code": code, "nickname": "abe", "spectator": True})
    await host.wait(lambda: watching(host) == (2, ["abe", "Dee"]))  # in alphabetical order
    await dee.wait(lambda: watching(dee) == (2, ["abe", "Dee"]))  # the spectators see it too
    await dee.close()
    await host.wait(lambda: watching(host) == (1, ["abe"]))
    await clients[1].wait(lambda: watching(clients[1]) == (1, ["abe"]))
    for c in (*clients, abe):
        await c.close()
