"""The standalone competition platform against bots written from COMPETITION_PROTOCOL.md."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from engine import legal_plays, parse_cards
from engine.cards import parse_rank
from engine.competition import action_of, hand_order, play_of_action
from server.competition import run_standalone

from .protocol_client import PASS, ProtocolClient


async def run_table(clients: list[ProtocolClient], matches: int, seed: int = 1, **kw) -> dict:
    ready = asyncio.get_running_loop().create_future()
    server = asyncio.create_task(
        run_standalone("127.0.0.1", 0, matches, seed=seed, on_listening=ready.set_result, **kw)
    )
    port = await asyncio.wait_for(ready, 10)
    tasks = []
    for c in clients:  # connection order makes the seats
        tasks.append(asyncio.create_task(c.run(f"ws://127.0.0.1:{port}")))
        await asyncio.sleep(0.02)
    summary = await asyncio.wait_for(server, 300)
    await asyncio.wait_for(asyncio.gather(*tasks), 30)
    return summary


def expected_actions(msg: dict) -> list[list]:
    level = parse_rank(msg["curRank"])
    hand = parse_cards(msg["handCards"])
    top = None if msg["greaterAction"] is None else play_of_action(msg["greaterAction"], level)
    return [action_of(p, level) for p in legal_plays(hand, level, top)]


@pytest.mark.slow
async def test_random_bots_play_whole_matches_and_every_act_is_right():
    clients = [ProtocolClient(f"rand{i}", seed=i) for i in range(4)]
    summary = await run_table(clients, matches=1, seed=7)
    assert summary["matches"] == 1 and summary["deals"] >= 1
    assert sum(summary["victories"]) == 2 or summary["draws"] == [1, 1, 1, 1]
    for seat, c in enumerate(clients):
        assert c.problems == []
        assert c.my_pos == seat
        kinds = Counter((m["type"], m["stage"]) for m in c.messages)
        assert kinds[("notify", "beginning")] == summary["deals"]
        assert kinds[("notify", "episodeOver")] == summary["deals"]
        assert kinds[("notify", "gameResult")] == 1
        acts = [m for m in c.messages if (m["type"], m["stage"]) == ("act", "play")]
        assert acts
        for msg in acts[:60]:
            got = msg["actionList"][1:] if msg["actionList"][0] == PASS else msg["actionList"]
            want = expected_actions(msg)
            assert sorted(map(repr, got)) == sorted(map(repr, want))
            assert len(got) == len(want)  # no duplicates either
            level = parse_rank(msg["curRank"])
            assert msg["handCards"] == hand_order(parse_cards(msg["handCards"]), level)


async def test_invalid_answers_wait_and_silence_falls_back():
    """An out-of-range index is ignored (the request still waits); a silent bot gets our bot's move."""

    clients = [ProtocolClient("a", seed=1), ProtocolClient("b", seed=2), ProtocolClient("c", seed=3),
               ProtocolClient("d", seed=4)]
    clients[0].choose = lambda msg: msg["indexRange"] + 5  # always invalid
    summary = await run_table(clients, matches=1, seed=3, act_timeout=0.05)
    assert summary["fallback_turns"][0] > 0
    assert summary["fallback_turns"][1:] == [0, 0, 0]
    assert all(c.problems == [] for c in clients)
