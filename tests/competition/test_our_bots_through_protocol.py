"""Our heuristic bot through the protocol plays exactly as it does in process (issue 8, Must show 3)."""

from __future__ import annotations

import asyncio

import pytest

from engine import Game
from engine.bots import make_bot
from engine.rules import preset
from server.competition import run_standalone
from server.competition_client import play

pytestmark = pytest.mark.slow


def in_process(seed: int, matches: int) -> list[Game]:
    """Whole matches with four heuristic bots reading game views directly."""
    bots = [make_bot("heuristic", seed=s) for s in range(4)]
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
