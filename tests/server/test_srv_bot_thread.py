"""A thinking bot never holds up the server: our bot decides in a worker thread (changes.decide) and the
event loop goes on serving everyone else meanwhile. Timing-free: the bot waits until another client has
been answered, which a blocked event loop could never do."""

from __future__ import annotations

import threading

from srv_client import Client, game_at, seated_room

from server import changes as C
from server.store import Store


async def test_the_server_answers_others_while_a_bot_thinks(server, aredis, monkeypatch) -> None:
    answered = threading.Event()
    thought: list[bool] = []
    real = C.choose_action

    def slow_bot(room, game, seat, seed):  # the bot seat's turn: think until the test says so
        thought.append(answered.wait(timeout=10))
        return real(room, game, seat, seed)

    monkeypatch.setattr(C, "choose_action", slow_bot)
    code, clients, _ = await seated_room(server.url, humans=1, bots=[1, 2, 3], seed=3, start=False)
    host = clients[0]
    await host.request({"type": "start"})
    await host.wait(lambda: host.view and host.view.get("phase") == "play")
    if host.view["turn"] == 0:  # the bots' turn comes after ours: lead something
        game = (await game_at(Store(aredis), code))[2]
        await host.request(next(a for a in game.legal_actions(0) if a["type"] == "play"))
    other = await Client.open(server.url)  # while a bot thinks, a newcomer is welcomed
    assert other.messages[0]["type"] == "welcome"
    answered.set()
    version = (await game_at(Store(aredis), code))[0]
    await host.wait(lambda: host.version is not None and host.version > version)  # the bot's move landed
    assert thought and thought[0] is True  # it was let go by the answer, not by its own timeout
    for c in (host, other):
        await c.close()
