"""Quick phrases (快捷语, server/chat.py) on a real server: heard by the whole room, refused to spectators,
to a phrase out of the list and within the gap, never stored."""

from __future__ import annotations

import asyncio

import pytest
from srv_client import Client, ServerError, seated_room

from server import chat
from server.store import Store


def said(client: Client) -> list[dict]:
    return [m for m in client.messages if m["type"] == "said"]


async def test_a_phrase_is_heard_by_the_whole_room_and_the_speaker(server, aredis) -> None:
    store = Store(aredis)
    code, (ann, bo), _ = await seated_room(server.url, humans=2, bots=[2, 3])
    watcher = await Client.open(server.url)
    await watcher.request({"type": "join", "code": code, "nickname": "Zed", "spectator": True})
    logged = len(await store.log(code))
    assert await bo.request({"type": "say", "phrase": 3}) == {}
    for c in (ann, bo, watcher):  # the speaker too: its bubble comes from the same message
        await c.wait(lambda c=c: said(c))
        assert said(c) == [{"type": "said", "seat": 1, "phrase": 3}]
    # not game state: no log record, no new version
    assert len(await store.log(code)) == logged
    # a spectator has no seat to speak from
    with pytest.raises(ServerError) as exc:
        await watcher.request({"type": "say", "phrase": 1})
    assert exc.value.code == "not_seated"
    # a phrase not in the list
    with pytest.raises(ServerError) as exc:
        await ann.request({"type": "say", "phrase": chat.PHRASES})
    assert exc.value.code == "invalid_message"
    # one phrase every GAP seconds: the next is refused with when it would go through
    await ann.request({"type": "say", "phrase": 0})
    with pytest.raises(ServerError) as exc:
        await ann.request({"type": "say", "phrase": 0})
    assert exc.value.code == "rate_limited" and 0 < exc.value.reply["retry_after"] <= chat.GAP
    await asyncio.sleep(exc.value.reply["retry_after"])
    await ann.request({"type": "say", "phrase": 9})
    await bo.wait(lambda: len(said(bo)) == 3)
    assert [m["phrase"] for m in said(bo)] == [3, 0, 9]
    for c in (ann, bo, watcher):
        await c.close()


async def test_no_phrase_outside_a_room(server) -> None:
    lone = await Client.open(server.url)
    with pytest.raises(ServerError) as exc:
        await lone.request({"type": "say", "phrase": 0})
    assert exc.value.code == "not_in_room"
    await lone.close()
