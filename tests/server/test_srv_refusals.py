"""Issue 13, Must show 3 (server side): every refusal carries its code and the plain data a client words
it from (``fields``): cards as codes, plays named in both languages, seats, phases, the action."""

from __future__ import annotations

import itertools
import random

import pytest
from srv_client import Client, ServerError, game_at, play_until, seated_room

from engine import classify
from server.store import Store


async def refused(client: Client, msg: dict) -> ServerError:
    msg_id = await client.send(msg)
    reply = await client.reply(msg_id)
    assert reply["type"] == "error", reply
    assert isinstance(reply["fields"], dict)
    return reply


async def test_the_engines_refusals_carry_cards_plays_and_seats(server, aredis) -> None:
    store = Store(aredis)
    code, clients, _ = await seated_room(server.url, humans=4, seed=5)
    _v, _room, game = await game_at(store, code)
    turn, other = game.turn, (game.turn + 1) % 4
    hand, level = game.hand(turn), game.level
    err = await refused(clients[other], {"type": "pass"})
    assert err["code"] == "not_your_turn" and err["fields"] == {"action": "pass", "turn": turn}
    err = await refused(clients[turn], {"type": "pass"})
    assert err["code"] == "cannot_pass_lead" and err["fields"] == {}
    non_play = next(list(c) for c in itertools.combinations(hand, 2) if not classify(list(c), level))
    err = await refused(clients[turn], {"type": "play", "cards": non_play})
    assert err["code"] == "not_a_play" and err["fields"] == {"cards": non_play}
    foreign = next(c for c in game.hand(other) if c not in hand)
    err = await refused(clients[turn], {"type": "play", "cards": [foreign]})
    assert err["code"] == "not_your_cards" and err["fields"] == {"cards": [foreign], "held": 0}
    err = await refused(clients[turn], {"type": "play", "cards": hand[:1], "kind": "bomb"})
    assert err["code"] == "not_a_play" and err["fields"] == {"cards": hand[:1], "kind": "bomb", "value": None}
    err = await refused(clients[turn], {"type": "return", "card": hand[0]})
    assert err["code"] == "wrong_phase" and err["fields"] == {"action": "return", "phase": "play"}
    # lead a pair; the next seat's lowest single does not beat it: both plays named as read
    pair = next(a for a in game.legal_actions(turn) if a.get("kind") == "pair")
    await clients[turn].request({"type": "play", "cards": pair["cards"]})
    _v, _room, game = await game_at(store, code)
    follower = game.turn
    single = game.hand(follower)[0]
    err = await refused(clients[follower], {"type": "play", "cards": [single]})
    assert err["code"] == "does_not_beat"
    fields = err["fields"]
    assert fields["level"] == level and fields["top"]["seat"] == turn
    assert fields["top"]["kind"] == "pair" and sorted(fields["top"]["cards"]) == sorted(pair["cards"])
    assert fields["play"]["kind"] == "single" and fields["play"]["cards"] == [single]
    for play in (fields["play"], fields["top"]):
        assert play["name"] and play["name_zh"] and not any(ch in play["name_zh"] for ch in "SHCD")
    for c in clients:
        await c.close()


async def test_a_return_that_is_not_allowed_names_the_allowed_cards(server, aredis) -> None:
    store = Store(aredis)
    for seed in range(40, 60):  # a seed whose second deal has a tribute (not refused)
        code, clients, _ = await seated_room(server.url, humans=4, seed=seed)
        await play_until(store, code, dict(enumerate(clients)), random.Random(seed),
                         lambda g: g.phase == "deal_over")
        for c in clients:
            await c.request({"type": "next_deal"})
        _v, _room, game = await game_at(store, code)
        if game.phase == "return":
            break
        for c in clients:
            await c.close()
    else:
        pytest.fail("no seed gave a tribute")
    seat = game.pending_seats()[0]
    choices = game.return_choices(seat)
    wrong = next(c for c in game.hand(seat) if c not in choices)
    err = await refused(clients[seat], {"type": "return", "card": wrong})
    assert err["code"] == "not_eligible" and err["fields"] == {"card": wrong, "choices": choices}
    for c in clients:
        await c.close()


async def test_room_refusals_say_which_seat_code_and_action(server) -> None:
    code, clients, _ = await seated_room(server.url, humans=2, start=False)
    err = await refused(clients[1], {"type": "add_bot", "seat": 2})
    assert err["code"] == "not_host" and err["fields"] == {"action": "add_bot"}
    err = await refused(clients[0], {"type": "start"})
    assert err["code"] == "seats_empty" and err["fields"] == {"seats": [2, 3]}
    err = await refused(clients[0], {"type": "remove_bot", "seat": 2})
    assert err["code"] == "not_a_bot" and err["fields"] == {"seat": 2}
    stranger = await Client.open(server.url)
    err = await refused(stranger, {"type": "join", "code": code, "nickname": "x", "seat": 1})
    assert err["code"] == "seat_taken" and err["fields"] == {"seat": 1}
    err = await refused(stranger, {"type": "join", "code": "ZZZZZZ", "nickname": "x"})
    assert err["code"] == "room_not_found" and err["fields"] == {"code": "ZZZZZZ"}
    err = await refused(stranger, {"type": "create", "nickname": "x", "options": {"nope": 1}})
    assert err["code"] == "bad_rules" and err["fields"] == {"option": "nope"}
    err = await refused(stranger, {"type": "play", "cards": "S9"})
    assert err["code"] == "invalid_message" and err["fields"] == {"where": ["cards"]}
    for c in [*clients, stranger]:
        await c.close()
