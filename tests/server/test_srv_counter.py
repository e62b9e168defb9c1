"""Issue 13, Must show 6: the card counter (记牌器), a room option. Each seat's numbers equal a count
recomputed from that seat's own view after every action of a seeded deal; a spectator never gets one,
and a room without the option sends none."""

from __future__ import annotations

import random

from srv_client import Client, play_until, seated_room

from server.store import Store


def recount(view: dict) -> dict[str, int]:
    """The counter recomputed from a view alone: two of every card code, less the hand and the played."""
    level = view["level"]
    left = {code: 2 for code in range(54)}
    for code in (*view["hand"], *view["played"]):
        left[code] -= 1
    out: dict[str, int] = {}
    for code, n in left.items():
        rank = code // 4 + 2
        if code == 52:
            key = "small_joker"
        elif code == 53:
            key = "big_joker"
        elif rank == level:
            key = "wild" if code % 4 == 1 else "level"
        else:
            key = str(rank)
        out[key] = out.get(key, 0) + n
    return out


async def test_each_seat_counts_what_it_has_not_seen_after_every_action(server, aredis) -> None:
    store = Store(aredis)
    code, clients, _ = await seated_room(server.url, humans=4, seed=31, counter=True)
    watcher = await Client.open(server.url)
    await watcher.request({"type": "join", "code": code, "nickname": "eve", "spectator": True})
    assert clients[0].room["settings"]["counter"] is True
    version, _room, game = await play_until(store, code, dict(enumerate(clients)), random.Random(7),
                                            lambda g: g.phase in ("deal_over", "match_over"))
    assert len(game.played) > 27
    for seat, c in enumerate(clients):
        await c.wait_version(version)
        views = [v for _ver, v in c.history if v.get("phase")]
        assert len(views) > 40  # one per action: the deal's every step was checked
        for view in views:
            counts = view["counter"]
            assert counts == recount(view), (seat, view["played"])
            assert sum(counts.values()) == 108 - len(view["hand"]) - len(view["played"])
        assert str(views[0]["level"]) not in views[0]["counter"]  # the level rank is counted apart
    await watcher.wait_version(version)
    assert watcher.history and all("counter" not in v for _ver, v in watcher.history)
    for c in [*clients, watcher]:
        await c.close()


async def test_no_counter_unless_the_room_asks_for_it(server) -> None:
    _code, clients, _ = await seated_room(server.url, humans=1, bots=[1, 2, 3], seed=32)
    await clients[0].wait(lambda: clients[0].view and clients[0].view["deal"] == 1)
    assert "counter" not in clients[0].view and clients[0].room["settings"]["counter"] is False
    await clients[0].close()
