"""Issue 15, defect 4 (storage): every key of a room or a process expires, and the embedded Redis has a
memory cap that refuses new writes with a clear error but never evicts a live room. (The trimming of
a finished match's log: tests/server/test_srv_seats.py, test_the_host_starts_a_new_match_once_one_is_won.)
Real sockets on loopback, a real Redis.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import redis
from srv_client import Client, ServerError, free_port, seated_room
from srv_procs import start_server_process, stop_process

from server.embedded_redis import EmbeddedRedis
from server.store import Store

GLOBAL_KEYS = {b"gd:due", b"gd:procs", b"gd:beats"}  # one each for the whole server, whatever the rooms


async def test_every_key_of_a_room_and_a_process_expires(server, aredis) -> None:
    code, clients, _tokens = await seated_room(server.url, humans=2, bots=[3], ai=[2], turn_timer=30)
    await clients[0].request({"type": "auto", "on": True, "interval": 0.3})
    await clients[0].wait(lambda: clients[0].view["counts"][0] < 27)  # the room played
    watcher = await Client.open(server.url)
    await watcher.request({"type": "join", "code": code, "nickname": "W", "spectator": True})
    store = Store(aredis)
    keys = set(await aredis.keys("gd:*"))
    for kind in ("room", "log", "conn", "ai", "proc", "proc-rooms"):  # each kind of key is there
        assert any(k.startswith(f"gd:{kind}:".encode()) for k in keys), kind
    assert GLOBAL_KEYS <= keys
    for key in sorted(keys - GLOBAL_KEYS):
        assert await aredis.pttl(key) > 0, f"{key!r} never expires"
    assert await aredis.pttl(store.proc_rooms_key(server.app.proc_id)) > store.ttl_ms - 60_000
    for c in [*clients, watcher]:
        await c.close()


async def test_an_ai_seat_s_secret_lives_as_long_as_its_room(server, aredis) -> None:
    """The room of an AI's secret is refreshed with the room on every change: a room kept alive past
    ``room_ttl`` by its play still lets its AI come back."""
    code, clients, _tokens = await seated_room(server.url, humans=2, bots=[3], ai=[2])
    store = Store(aredis)
    ai_keys = [k for k in await aredis.keys("gd:ai:*") if await aredis.get(k) == code.encode()]
    assert len(ai_keys) == 1
    await aredis.pexpire(ai_keys[0], 5_000)  # as if the room had been played for almost room_ttl
    await clients[0].request({"type": "auto", "on": True, "interval": 0.3})
    await clients[0].wait(lambda: clients[0].view["counts"][0] < 27)  # the room changed since
    assert await aredis.pttl(ai_keys[0]) > store.ttl_ms - 60_000
    for c in clients:
        await c.close()


def test_the_embedded_redis_has_a_memory_cap_and_evicts_nothing(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path, maxmemory="64mb") as er:
        client = redis.Redis.from_url(er.url)
        assert client.config_get("maxmemory")["maxmemory"] == str(64 * 1024 * 1024)
        assert client.config_get("maxmemory-policy")["maxmemory-policy"] == "noeviction"
        client.close()


@pytest.mark.slow
async def test_a_full_redis_refuses_changes_clearly_and_keeps_every_room(tmp_path: Path) -> None:
    port = free_port()
    data = tmp_path / "data"
    proc = start_server_process(["--data-dir", str(data), "--redis-maxmemory", "4mb", "--client-dir", ""],
                                tmp_path / "server.log", port, env={"REDIS_URL": ""})
    direct = redis.Redis(unix_socket_path=str(data / "redis.sock"))
    try:
        url = f"ws://127.0.0.1:{port}/ws"
        code, clients, tokens = await seated_room(url, humans=1, bots=[1, 2, 3], seed=3, bot_delay=5)
        hand = clients[0].view["hand"]
        await clients[0].close()
        # fill Redis up to its cap, as thousands of rooms would (in big, then small pieces: a refused
        # command's own bytes are freed again)
        fillers = [f"filler:{i}" for i in range(20_000)]
        stored = 0
        for size in (65536, 256):
            with pytest.raises(redis.exceptions.OutOfMemoryError):
                while stored < len(fillers):
                    direct.set(fillers[stored], b"x" * size)
                    stored += 1
        assert stored > 10 and direct.config_get("maxmemory")["maxmemory"] == str(4 * 1024 * 1024)
        # and well past it (the memory Redis uses for its clients' buffers comes and goes a little)
        direct.config_set("maxmemory", direct.info("memory")["used_memory"] // 2)
        c = await Client.open(url)
        with pytest.raises(ServerError) as exc:
            await c.request({"type": "create", "nickname": "Late", "bots": [1, 2, 3]})
        assert exc.value.code == "unavailable" and "storage is full" in exc.value.message
        # nothing was evicted: the room is all there; with room made again, its player comes back to it
        assert direct.exists(f"gd:room:{code}") and direct.exists(f"gd:log:{code}")
        direct.delete(*fillers[:stored])
        direct.config_set("maxmemory", "4mb")
        assert (await c.request({"type": "resume", "code": code, "token": tokens[0]}))["seat"] == 0
        await c.wait(lambda: c.view)
        assert c.view["hand"] == hand
        await c.request({"type": "auto", "on": True, "interval": 1.0})  # and changes go through again
        await c.close()
        assert "Traceback" not in (tmp_path / "server.log").read_text()
    finally:
        direct.close()
        stop_process(proc.proc)
