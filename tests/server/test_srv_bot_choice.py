"""The room's ``bot`` setting: which of our bots plays the bot seats (issue 14), over real sockets."""

from __future__ import annotations

import random

import pytest
from srv_client import Client, play_until

from engine import Game
from engine.bots import make_bot
from server.store import Store


def _key(action: dict) -> tuple:
    if action["type"] != "play":
        return (action["type"],)
    return ("play", tuple(sorted(action["cards"])), action["kind"], action["value"])


@pytest.mark.slow
async def test_a_room_with_the_strong_bot_has_its_bot_seats_played_by_it(server, aredis) -> None:
    store = Store(aredis)
    host = await Client.open(server.url)
    res = await host.request({"type": "create", "nickname": "Ann", "bots": [1, 2, 3], "bot_delay": 0,
                              "seed": 14, "bot": "strong"})
    code = res["code"]
    await host.wait(lambda: host.room is not None)
    assert host.room["settings"]["bot"] == "strong"
    await host.request({"type": "start"})
    await play_until(store, code, {0: host}, random.Random(14),
                     lambda g: g.phase in ("deal_over", "match_over"), timeout=120)
    # Every bot action in the log is the strong bot's choice on that seat's view, with the seed the
    # server gives it; on some of them the heuristic would have played something else.
    _v, room = await store.load(code)
    game = Game.new(room["settings"]["seed"], room["settings"]["rules"])
    by_bot = differs = 0
    for record in await store.log(code):
        if record["kind"] != "game":
            continue
        seat, action = record["seat"], record["action"]
        if record["by"] == "bot":
            seed = f"{code}:{game.deal}:{len(game.played)}:{game.phase}:{seat}"
            view = game.view(seat)
            assert _key(make_bot("strong", seed).choose(view)) == _key(action)
            differs += _key(make_bot("heuristic", seed).choose(view)) != _key(action)
            by_bot += 1
        game.apply(seat, action)
    assert by_bot > 20 and differs > 0
    await host.close()


async def test_the_bot_setting_defaults_to_heuristic_and_refuses_unknown_bots(server) -> None:
    host = await Client.open(server.url)
    await host.request({"type": "create", "nickname": "Ann", "bots": [1]})
    await host.wait(lambda: host.room is not None)
    assert host.room["settings"]["bot"] == "heuristic"
    await host.request({"type": "leave"})
    other = await Client.open(server.url)
    reply = await other.send({"type": "create", "nickname": "Bob", "bots": [1], "bot": "alphago"})
    error = await other.reply(reply)
    assert error["type"] == "error" and error["code"] == "bad_bot"
    assert "heuristic" in error["message"] and "strong" in error["message"]
    await host.close()
    await other.close()
