"""The Redis store on a real redis-server: codes, compare-and-set, the action log, expiry, presence."""

from __future__ import annotations

import asyncio

import pytest

from server.codec import decode
from server.protocol import CODE_ALPHABET
from server.store import RoomNotFound, Store, new_code, valid_code


def test_codes_avoid_look_alikes() -> None:
    assert not set("0O1IL") & set(CODE_ALPHABET)
    for _ in range(500):
        code = new_code()
        assert len(code) == 6 and valid_code(code)
    assert not valid_code("ABC0EF") and not valid_code("ABCDE")


async def test_create_reserves_distinct_codes_and_starts_at_version_1(aredis) -> None:
    store = Store(aredis, room_ttl=60)
    codes = set()
    for i in range(20):
        code, room = await store.create(lambda c, i=i: {"code": c, "n": i}, {"kind": "room"})
        codes.add(code)
        version, loaded = await store.load(code)
        assert version == 1 and loaded == room
        assert 0 < await aredis.pttl(store.room_key(code)) <= 60_000  # expires after inactivity
    assert len(codes) == 20


async def test_create_never_overwrites_a_taken_code(aredis, monkeypatch) -> None:
    store = Store(aredis)
    first, _ = await store.create(lambda c: {"code": c, "who": "first"}, {"kind": "room"})
    sequence = iter([first, first, "ZZZZZZ"])
    monkeypatch.setattr("server.store.new_code", lambda: next(sequence))
    second, _ = await store.create(lambda c: {"code": c, "who": "second"}, {"kind": "room"})
    assert second == "ZZZZZZ"
    assert (await store.load(first))[1]["who"] == "first"


async def test_compare_and_set_lets_exactly_one_writer_win(aredis) -> None:
    store = Store(aredis)
    code, _ = await store.create(lambda c: {"code": c, "n": 0}, {"kind": "room"})
    pubsub = aredis.pubsub()
    await pubsub.subscribe(store.channel(code))
    results = await asyncio.gather(*[
        store.commit(code, 1, {"code": code, "n": i}, {"kind": "game", "i": i}, "test") for i in range(10)
    ])
    winners = [r for r in results if r is not None]
    assert len(winners) == 1 and winners[0][0] == 2
    version, room = await store.load(code)
    log = await store.log(code)
    assert version == 2 and [r["v"] for r in log] == [1, 2]
    assert log[1]["i"] == room["n"]  # the logged action is the one whose state was stored
    assert await store.commit(code, 1, {"code": code}, {"kind": "x"}, "test") is None  # stale: refused
    msg = None
    for _ in range(50):
        msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1)
        if msg:
            break
    assert msg is not None
    notice = decode(msg["data"])
    assert notice["k"] == "state" and notice["v"] == 2 and decode(notice["d"]) == room
    await pubsub.aclose()


async def test_retry_from_fresh_state_applies_every_increment(aredis) -> None:
    """Many writers incrementing through load + CAS + retry never lose an update."""
    store = Store(aredis)
    code, _ = await store.create(lambda c: {"code": c, "n": 0}, {"kind": "room"})

    async def bump(i: int) -> None:
        while True:
            version, room = await store.load(code)
            room["n"] += 1
            if await store.commit(code, version, room, {"kind": "game", "i": i}, "t") is not None:
                return

    await asyncio.gather(*[bump(i) for i in range(40)])
    version, room = await store.load(code)
    assert room["n"] == 40 and version == 41
    assert sorted(r["i"] for r in await store.log(code) if r["kind"] == "game") == list(range(40))


async def test_missing_room_is_an_error(aredis) -> None:
    store = Store(aredis)
    with pytest.raises(RoomNotFound):
        await store.load("ABCDEF")
    with pytest.raises(RoomNotFound):
        await store.commit("ABCDEF", 1, {}, {}, "t")


async def test_presence_follows_claims_and_live_processes(aredis) -> None:
    store = Store(aredis)
    code, _ = await store.create(lambda c: {"code": c}, {"kind": "room"})
    await store.heartbeat("p1", 30)
    assert await store.claim_seat(code, 2, "p1:1") is None
    assert await store.claim_seat(code, 2, "p1:2") == "p1:1"  # the replaced connection
    await store.claim_seat(code, 0, "dead:1")  # a process without heartbeat
    assert await store.presence(code) == [False, False, True, False]
    assert not await store.release_seat(code, 2, "p1:1")  # no longer the holder
    assert await store.release_seat(code, 2, "p1:2")
    assert await store.presence(code) == [False, False, False, False]


async def test_rooms_expire_after_inactivity_and_each_change_renews(aredis) -> None:
    # the renewal is read from the keys' TTLs, so a slow machine cannot make the room expire early
    store = Store(aredis, room_ttl=60)
    code, _ = await store.create(lambda c: {"code": c}, {"kind": "room"})
    keys = (store.room_key(code), store.log_key(code))
    await asyncio.sleep(0.2)
    aged = [await aredis.pttl(k) for k in keys]
    assert all(0 < t < 60_000 - 150 for t in aged), aged
    assert await store.commit(code, 1, {"code": code, "n": 1}, {"kind": "x"}, "t") is not None
    renewed = [await aredis.pttl(k) for k in keys]
    assert all(r > a for r, a in zip(renewed, aged, strict=True)), (aged, renewed)
    # and once the inactivity expiry runs out, the room and its log are gone
    short = Store(aredis, room_ttl=0.3)
    code, _ = await short.create(lambda c: {"code": c}, {"kind": "room"})
    for _ in range(200):
        if not await aredis.exists(short.room_key(code)):
            break
        await asyncio.sleep(0.05)
    with pytest.raises(RoomNotFound):
        await short.load(code)
    assert await aredis.exists(short.log_key(code)) == 0
