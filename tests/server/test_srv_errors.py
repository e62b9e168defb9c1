"""Must show 4: each bad input gets a clear error, to that client only, and changes nothing."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import msgpack
import pytest
from srv_client import Client, ServerError, seated_room

from engine import Game, classify
from server import protocol as P
from server.rooms import load_game
from server.store import Store

QUIET = 0.15  # how long other clients are watched for stray messages


class Table:
    """Four seated clients in a started room, and a way to check that nothing changed."""

    def __init__(self, code: str, clients: list[Client], store: Store) -> None:
        self.code, self.clients, self.store = code, clients, store

    async def game(self) -> tuple[int, Game]:
        version, room = await self.store.load(self.code)
        return version, load_game(room)

    async def expect_error(self, seat: int, payload: bytes | str | dict[str, Any], code: str) -> dict:
        """Send from ``seat``; exactly one error with ``code`` comes back; nothing else changes."""
        version, game = await self.game()
        before = [len(c.messages) for c in self.clients]
        sender = self.clients[seat]
        if isinstance(payload, dict):
            await sender.send(payload)
        else:
            await sender.send_raw(payload)
        err = await sender.wait(lambda: next((m for m in sender.messages[before[seat]:]
                                              if m["type"] == "error"), None))
        await asyncio.sleep(QUIET)
        assert err["code"] == code, err
        assert err["message"]
        assert sender.messages[before[seat]:] == [err], "the sender got more than its error"
        for i, c in enumerate(self.clients):
            if i != seat:
                assert len(c.messages) == before[i], f"seat {i} was told about seat {seat}'s bad input"
        after_version, after_game = await self.game()
        assert after_version == version and after_game == game, "a bad input changed the room"
        return err


@pytest.fixture
async def table(server, aredis) -> Table:
    code, clients, _tokens = await seated_room(server.url, seed=5)
    yield Table(code, clients, Store(aredis))
    for c in clients:
        await c.close()


def _hand_and_turn(game: Game) -> tuple[int, int]:
    turn = game.turn
    return turn, (turn + 1) % 4


async def test_malformed_frames(table: Table) -> None:
    await table.expect_error(0, b"\xc1\x00\x01", "bad_msgpack")
    await table.expect_error(0, msgpack.packb([1, 2, 3]), "bad_msgpack")
    await table.expect_error(0, b"\x81\xa1", "bad_msgpack")  # truncated map
    await table.expect_error(1, "a text frame", "binary_required")


async def test_unknown_type_and_wrong_field_types(table: Table) -> None:
    err = await table.expect_error(0, {"type": "fly", "id": 77}, "unknown_type")
    assert err["id"] == 77 and "play" in err["message"]
    await table.expect_error(0, {"id": 78}, "unknown_type")
    _v, game = await table.game()
    turn = game.turn
    err = await table.expect_error(turn, {"type": "play", "id": 79, "cards": "S9 S9"}, "invalid_message")
    assert "cards" in err["message"]
    await table.expect_error(turn, {"type": "play", "id": 80, "cards": [99]}, "invalid_message")
    await table.expect_error(turn, {"type": "return", "id": 81, "card": "x"}, "invalid_message")
    await table.expect_error(turn, {"type": "pass", "id": 82, "extra": 1}, "invalid_message")
    await table.expect_error(turn, {"type": "play", "id": 83, "cards": [1], "value": "hi"}, "invalid_message")
    await table.expect_error(turn, {"type": "pass", "id": [1]}, "invalid_message")


async def test_oversized_frame_gets_an_error_and_a_huge_one_closes(table: Table) -> None:
    big = msgpack.packb({"type": "pass", "id": 1, "pad": "x" * 20_000})
    await table.expect_error(2, big, "frame_too_large")
    # beyond the hard cap the WebSocket layer closes that connection (1009), the others stay
    victim = table.clients[3]
    await victim.send_raw(b"\x00" * (2 * 1024 * 1024))
    await asyncio.wait_for(victim.reader, 10)
    assert victim.ws.close_code == 1009
    assert not table.clients[2].reader.done()


async def test_illegal_plays_out_of_turn_and_other_seats_cards(table: Table) -> None:
    _v, game = await table.game()
    turn, other = _hand_and_turn(game)
    hand = game.hand(turn)
    level = game.level
    non_play = next(list(c) for c in itertools.combinations(hand, 2) if not classify(list(c), level))
    await table.expect_error(turn, {"type": "play", "cards": non_play}, "not_a_play")
    await table.expect_error(other, {"type": "play", "cards": [game.hand(other)[0]]}, "not_your_turn")
    await table.expect_error(other, {"type": "pass"}, "not_your_turn")
    # cards that are another seat's (and not ours): refused
    foreign = next(c for c in game.hand(other) if c not in hand)
    await table.expect_error(turn, {"type": "play", "cards": [foreign]}, "not_your_cards")
    # acting as another seat is not even expressible
    await table.expect_error(other, {"type": "play", "cards": [hand[0]], "seat": turn}, "invalid_message")
    await table.expect_error(turn, {"type": "pass"}, "cannot_pass_lead")


async def test_actions_in_the_wrong_phase(table: Table) -> None:
    _v, game = await table.game()
    turn = game.turn
    await table.expect_error(turn, {"type": "return", "card": game.hand(turn)[0]}, "wrong_phase")
    await table.expect_error(turn, {"type": "next_deal"}, "wrong_phase")
    await table.expect_error(0, {"type": "start"}, "already_started")
    await table.expect_error(0, {"type": "add_bot", "seat": 1}, "already_started")
    await table.expect_error(1, {"type": "add_bot", "seat": 1}, "not_host")


async def test_repeated_id_is_acknowledged_once_and_applied_once(table: Table) -> None:
    version, game = await table.game()
    turn = game.turn
    action = game.legal_actions(turn)[0]
    sender = table.clients[turn]
    await sender.send({**action, "id": "same"})
    ack = await sender.reply("same")
    assert ack["type"] == "ack" and ack["result"]["version"] == version + 1
    await table.expect_error(turn, {**action, "id": "same"}, "duplicate_id")
    acks = [m for m in sender.messages if m["type"] == "ack" and m["id"] == "same"]
    assert len(acks) == 1
    log = [r for r in await table.store.log(table.code) if r["kind"] == "game"]
    assert len(log) == 1


async def test_hello_first_and_protocol_version(server) -> None:
    raw = await Client.open(server.url, hello=False)
    with pytest.raises(ServerError) as exc:
        await raw.request({"type": "create", "nickname": "x"})
    assert exc.value.code == "hello_required"
    await raw.close()
    old = await Client.open(server.url, hello=False)
    with pytest.raises(ServerError) as exc:
        await old.request({"type": "hello", "protocol": P.PROTOCOL_VERSION + 1})
    assert exc.value.code == "protocol_mismatch"
    await asyncio.wait_for(old.reader, 5)
    assert old.ws.close_code == 4000
    ok = await Client.open(server.url)
    assert any(m["type"] == "welcome" and m["protocol"] == P.PROTOCOL_VERSION for m in ok.messages)
    await ok.close()


async def test_spectators_see_but_cannot_act(table: Table, server) -> None:
    spectator = await Client.open(server.url)
    res = await spectator.request({"type": "join", "code": table.code, "nickname": "eve", "spectator": True})
    assert res["seat"] is None
    await spectator.wait(lambda: spectator.view)
    assert spectator.view["hand"] is None
    with pytest.raises(ServerError) as exc:
        await spectator.request({"type": "pass"})
    assert exc.value.code == "not_seated"
    await spectator.close()
