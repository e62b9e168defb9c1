"""Fixtures: a real redis-server on a free loopback port, and real game servers on loopback."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis
from redis.asyncio import Redis
from srv_procs import RedisProc, start_redis
from websockets.asyncio.server import Server, serve

from server.app import Config, GameServer
from server.lifecycle import stop_process

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def redis_proc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisProc]:
    rp = start_redis(tmp_path_factory.mktemp("redis"))
    yield rp
    stop_process(rp.proc)


@pytest.fixture
def redis_url(redis_proc: RedisProc) -> str:
    client = redis.Redis.from_url(redis_proc.url)
    client.flushall()
    client.close()
    return redis_proc.url


@pytest.fixture
async def aredis(redis_url: str) -> AsyncIterator[Redis]:
    client = Redis.from_url(redis_url)
    yield client
    await client.aclose()


@dataclass
class Running:
    app: GameServer
    ws_server: Server
    port: int

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture
async def start_server(redis_url: str) -> AsyncIterator[object]:
    """Start in-process game servers (real sockets on 127.0.0.1) with optional Config overrides."""
    started: list[tuple[Running, Redis]] = []

    async def start(**overrides: object) -> Running:
        # tests deal known hands: seeds are theirs to choose (a real server refuses them)
        config = Config(host="127.0.0.1", port=0, **{"fixed_seeds": True, **overrides})
        client = Redis.from_url(redis_url)
        app = GameServer(config, client)
        await app.start()
        ws_server = await serve(app.handler, "127.0.0.1", 0, **app.serve_options())
        port = next(iter(ws_server.sockets)).getsockname()[1]
        running = Running(app, ws_server, port)
        started.append((running, client))
        return running

    yield start
    for running, client in started:
        running.ws_server.close()
        await running.ws_server.wait_closed()
        await running.app.close()
        await client.aclose()


@pytest.fixture
async def server(start_server) -> Running:  # type: ignore[no-untyped-def]
    return await start_server()
