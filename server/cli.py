"""``guandan-server``: parse options, find or start Redis, serve until SIGINT/SIGTERM."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
from pathlib import Path

from redis.asyncio import Redis
from redis.exceptions import RedisError
from websockets.asyncio.server import serve

from .app import Config, GameServer
from .embedded_redis import EmbeddedRedis, RedisUnavailable

log = logging.getLogger("guandan.cli")
REPO_ROOT = Path(__file__).resolve().parent.parent


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="guandan-server", description="Guandan Online game server")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8765, help="port for WebSocket /ws and HTTP (default 8765)")
    p.add_argument("--redis-url", default=os.environ.get("REDIS_URL") or None,
                   help="Redis URL (default $REDIS_URL; without one a private redis-server is started)")
    p.add_argument("--data-dir", default=os.environ.get("GUANDAN_DATA_DIR", ".data"),
                   help="where the embedded Redis keeps its append-only file (default .data)")
    p.add_argument("--client-dir", default=str(REPO_ROOT / "client-js" / "dist"),
                   help="built browser client to serve over HTTP (default client-js/dist)")
    p.add_argument("--room-ttl", type=float, default=24 * 3600,
                   help="seconds of inactivity after which a room expires (default 86400)")
    p.add_argument("--rate", type=float, default=30.0, help="messages per second per connection")
    p.add_argument("--burst", type=float, default=60.0, help="message burst per connection")
    p.add_argument("--max-frame", type=int, default=16 * 1024, help="largest accepted frame in bytes")
    p.add_argument("--log-level", default="INFO")
    return p.parse_args(argv)


async def run(args: argparse.Namespace, redis_url: str) -> None:
    config = Config(
        host=args.host,
        port=args.port,
        client_dir=Path(args.client_dir) if args.client_dir else None,
        room_ttl=args.room_ttl,
        rate=args.rate,
        burst=args.burst,
        max_frame=args.max_frame,
        hard_max_frame=max(args.max_frame * 64, 1024 * 1024),
    )
    redis = Redis.from_url(redis_url)
    try:
        await redis.ping()
    except (RedisError, OSError) as exc:
        await redis.aclose()
        raise RedisUnavailable(f"cannot reach Redis at {redis_url}: {exc}") from None
    server = GameServer(config, redis)
    await server.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        async with serve(
            server.handler,
            config.host,
            config.port,
            process_request=server.process_request,
            max_size=config.hard_max_frame,
            compression=None,
        ) as ws_server:
            port = next(iter(ws_server.sockets)).getsockname()[1]
            log.info("listening on http://%s:%d (WebSocket at /ws)", config.host, port)
            log.info("code in %s; browser client from %s", REPO_ROOT, config.client_dir)
            await stop.wait()
            log.info("shutting down")
    finally:
        await server.close()
        await redis.aclose()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    logging.basicConfig(
        level=args.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s %(message)s",
        stream=sys.stderr,
    )
    embedded = None
    redis_url = args.redis_url
    try:
        if not redis_url:
            embedded = EmbeddedRedis(args.data_dir)
            redis_url = embedded.start()
        asyncio.run(run(args, redis_url))
    except RedisUnavailable as exc:
        log.error("%s", exc)
        return 2
    except KeyboardInterrupt:
        pass
    finally:
        if embedded is not None:
            embedded.stop()
    return 0
