"""Our heuristic bot through the protocol plays exactly as it does in process (issue 8, Must show 3)."""

from __future__ import annotations

import asyncio

import pytest

from engine import Game
from engine.arena import make_team_bot
from engine.bots import make_bot
from engine.rules import preset
from server.competition import run_standalone
from server.competition_client import ProtocolView, play

from .protocol_client import ProtocolClient
from .table import run_table

pytestmark = pytest.mark.slow


def in_process(seed: int, matches: int, team: str = "heuristic") -> list[Game]:
    """Whole matches with four bots (``team``: a name, maybe with settings) reading game views directly."""
    bots = [make_team_bot(team, seed=s) for s in range(4)]
    out = []
    for m in range(matches):
        game = Game.new(seed + m, preset("competition2020"))
        while game.phase != "match_over":
            if game.phase == "deal_over":
                game.apply(0, {"type": "next_deal"})
                continue
            seat = game.pending_seats()[0]
            game.apply(seat, bots[seat].choose(game.view(seat)))
        out.append(game)
    return out


async def test_heuristic_through_protocol_matches_in_process_results():
    seed, matches = 11, 2
    ready = asyncio.get_running_loop().create_future()
    server = asyncio.create_task(run_standalone("127.0.0.1", 0, matches, seed=seed,
                                                on_listening=ready.set_result))
    port = await asyncio.wait_for(ready, 10)
    clients = []
    for s in range(4):
        clients.append(asyncio.create_task(play(f"ws://127.0.0.1:{port}", "heuristic", f"h{s}", seed=s)))
        await asyncio.sleep(0.02)
    summary = await asyncio.wait_for(server, 600)
    decisions = await asyncio.gather(*clients)
    assert all(d > 0 for d in decisions)
    assert summary["fallback_turns"] == [0, 0, 0, 0]
    expected = in_process(seed, matches)
    # every action of every match, in order, is the one the bot took in process
    assert summary["actions"] == [g.actions for g in expected]
    winners = [g.match_winner for g in expected]
    assert summary["victories"] == [winners.count(s % 2) for s in range(4)]


async def test_a_bot_with_settings_plays_through_protocol_as_in_process():
    """``--bot heuristic:bomb_when=1,danger=9``: the client's bot carries the settings (the arena's
    teams' syntax), so it plays as the same bot with them in process, not as the default bot."""
    seed, team = 11, "heuristic:bomb_when=1,danger=9"
    ready = asyncio.get_running_loop().create_future()
    server = asyncio.create_task(run_standalone("127.0.0.1", 0, 1, seed=seed, on_listening=ready.set_result))
    port = await asyncio.wait_for(ready, 10)
    clients = []
    for s in range(4):
        clients.append(asyncio.create_task(play(f"ws://127.0.0.1:{port}", team, f"h{s}", seed=s)))
        await asyncio.sleep(0.02)
    summary, *_ = await asyncio.wait_for(asyncio.gather(server, *clients), 300)  # a client's error ends it
    assert summary["fallback_turns"] == [0, 0, 0, 0]
    assert summary["actions"] == [in_process(seed, 1, team)[0].actions]
    assert summary["actions"] != [in_process(seed, 1)[0].actions]


def protocol_views(client: ProtocolClient) -> list[dict]:
    """The views our competition client rebuilds at each act/play, from this client's messages."""
    tracker = ProtocolView(preset("competition2020"))
    views = []
    for msg in client.messages:
        if msg["type"] == "notify":
            tracker.on_notify(msg)
        elif msg["stage"] == "play":
            views.append(tracker.view(msg, "play"))
    return views


@pytest.mark.slow
async def test_the_client_rebuilds_the_tribute_of_the_engines_view():
    """Tribute, returns and refusals reach the view our client gives its bot as the engine's view has
    them, so the strong bot's sampler knows in both what the tribute tells (engine/bots/sampler.py)."""
    seed = 7
    clients = [ProtocolClient(f"rand{i}", seed=i) for i in range(4)]
    summary = await run_table(clients, matches=1, seed=seed)
    assert summary["fallback_turns"] == [0, 0, 0, 0]
    views = [iter(protocol_views(c)) for c in clients]
    game = Game.new(seed, preset("competition2020"))
    checked = []
    for seat, action in summary["actions"][0]:
        if action["type"] in ("play", "pass"):
            engine_view, rebuilt = game.view(seat), next(views[seat])
            assert rebuilt["tribute"] == engine_view["tribute"], (game.deal, seat)
            assert sorted(rebuilt["hand"]) == sorted(engine_view["hand"])
            checked.append((engine_view, rebuilt))
        game.apply(seat, action)
    tributes = [v["tribute"] for v, _ in checked if v["tribute"]]
    assert any(t["returns"] for t in tributes) and any(t["kind"] == "double" for t in tributes)
    assert any(t["refused"] for t in tributes)
    # the strong bot decides alike on both views; without the tribute it would not always
    with_tribute = [(v, r) for v, r in checked if v["tribute"] and len(v["hand"]) > 12][:100]
    differs_without = 0
    for engine_view, rebuilt in with_tribute:
        seat = engine_view["seat"]
        in_process = make_bot("strong", seed=seat).choose(engine_view)
        assert make_bot("strong", seed=seat).choose(rebuilt) == in_process, (engine_view, rebuilt)
        differs_without += make_bot("strong", seed=seat).choose({**rebuilt, "tribute": None}) != in_process
    assert differs_without > 0
