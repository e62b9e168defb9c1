"""``guandan-server``: parse options, find or start Redis, serve until SIGINT/SIGTERM."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import os
import resource
import signal
import sys
from pathlib import Path

from redis.asyncio import BlockingConnectionPool, Redis
from redis.exceptions import RedisError
from websockets.asyncio.server import serve

from engine.arena import summary_problem, write_summary

from .app import Config, GameServer
from .competition import DEFAULT_SETTLE, CannotListen
from .embedded_redis import DEFAULT_MAXMEMORY, EmbeddedRedis, RedisUnavailable
from .limits import Limits
from .links import BadPublicUrl, is_local, public_base

log = logging.getLogger("guandan.cli")
REPO_ROOT = Path(__file__).resolve().parent.parent
REDIS_CONNECTIONS = 64  # enough to keep Redis busy; more only queue inside redis-server anyway
REDIS_WAIT = 20.0  # seconds a command waits for a free connection before it counts as unavailable
GC_YOUNG_THRESHOLD = 10_000  # container allocations (net) before the cyclic collector runs; default 700
GAME_PORT = 8765
COMPETITION_PORT = 23456  # the 2020 platform's port, which its bots have written in


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="guandan-server", description="Guandan Online game server")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=None,
                   help=f"port for WebSocket /ws and HTTP (default {GAME_PORT}); with --competition, the "
                        f"bots' port (default {COMPETITION_PORT}, as on the 2020 platform)")
    p.add_argument("--redis-url", default=os.environ.get("REDIS_URL") or None,
                   help="Redis URL (default $REDIS_URL; without one a private redis-server is started)")
    p.add_argument("--data-dir", default=os.environ.get("GUANDAN_DATA_DIR", ".data"),
                   help="where the embedded Redis keeps its append-only file (default .data)")
    p.add_argument("--redis-maxmemory", default=os.environ.get("GUANDAN_REDIS_MAXMEMORY", DEFAULT_MAXMEMORY),
                   help="memory cap of the embedded Redis, in Redis units (default %(default)s; 0: none). "
                        "Nothing is ever evicted: once full, changes get 'unavailable' (storage full)")
    p.add_argument("--redis-appendfsync", choices=("everysec", "always"), default="everysec",
                   help="when the embedded Redis syncs its append-only file to disk (default everysec: a "
                        "killed redis-server loses nothing acknowledged, a host crash the last second; "
                        "always: not even that, at a disk flush per round of commands)")
    p.add_argument("--client-dir", default=str(REPO_ROOT / "client-js" / "dist"),
                   help="built browser client to serve over HTTP (default client-js/dist)")
    p.add_argument("--room-ttl", type=float, default=24 * 3600,
                   help="seconds of inactivity after which a room expires (default 86400)")
    p.add_argument("--public-url", default=os.environ.get("GUANDAN_PUBLIC_URL") or None,
                   help="the address friends open, e.g. https://guandan.example.org/ behind a reverse proxy "
                        "(default $GUANDAN_PUBLIC_URL; without one, invite links use this machine's network "
                        "addresses when listening on 0.0.0.0, else --host)")
    p.add_argument("--rate", type=float, default=30.0,
                   help="frames per second per connection (default 30; past it frames are dropped, and a "
                        "connection that keeps on is closed)")
    p.add_argument("--burst", type=float, default=60.0, help="frame burst per connection (default 60)")
    p.add_argument("--max-frame", type=int, default=16 * 1024,
                   help="largest accepted frame in bytes (default 16384)")
    p.add_argument("--allow-fixed-seeds", action="store_true",
                   help="let a room's creator fix the shuffle's seed (tests and replays only: whoever knows "
                        "the seed knows every hand; such rooms are marked fixed_seed)")
    p.add_argument("--log-level", default="INFO")
    add_limit_options(p)
    comp = p.add_argument_group(
        "competition platform", "the 2020 Guandan AI platform's behaviour: four bots connect to "
        "ws://HOST:PORT/game/<name> and play N matches under the competition2020 rules (no rooms, no Redis)")
    comp.add_argument("--competition", action="store_true", help="run as the standalone competition platform")
    comp.add_argument("--matches", type=int, default=1, help="matches to play (default 1)")
    comp.add_argument("--seed", type=int, default=0, help="seed of the first match's shuffles (default 0)")
    comp.add_argument("--act-timeout", type=float, default=None,
                      help="seconds a bot has per act before our bot plays that turn; its late answer is "
                           "then dropped, never applied to a later act (default: wait, as the old platform "
                           "did). With or without it, an invalid answer gets our bot's move at once, and "
                           "a bot that disconnects is played by our bot (logged, counted in the summary)")
    comp.add_argument("--settle", type=float, default=DEFAULT_SETTLE, metavar="S",
                      help=f"seconds to wait after the 4th bot's handshake before the first message "
                           f"(default {DEFAULT_SETTLE}): the 2020 bots' websocket library can crash when a "
                           f"frame arrives in the same read as the handshake response")
    comp.add_argument("--summary", default=None, metavar="FILE",
                      help="also write the final summary (wins, draws, deals, turns our bot played, "
                           "disconnects, invalid and late answers per seat, actions) as JSON to FILE")
    args = p.parse_args(argv)
    if args.matches < 1:
        p.error(f"--matches must be at least 1, not {args.matches}")
    for name in ("act_timeout", "settle"):
        if getattr(args, name) is not None and not getattr(args, name) >= 0:  # NaN too
            p.error(f"--{name.replace('_', '-')} must be 0 or more seconds, not {getattr(args, name)}")
    if args.public_url:
        try:
            args.public_url = public_base(args.public_url)
        except BadPublicUrl as exc:
            p.error(str(exc))
    if args.port is None:
        args.port = COMPETITION_PORT if args.competition else GAME_PORT
    if args.competition and args.summary:
        check_summary_path(p, args.summary)
    return args


def check_summary_path(p: argparse.ArgumentParser, path: str) -> None:
    """A --summary that cannot be written is a one-line usage error before the platform starts, not a
    crash that throws the finished run away."""
    problem = summary_problem(path)
    if problem:
        p.exit(2, f"{p.prog}: error: cannot write --summary {path}: {problem}\n")


def add_limit_options(p: argparse.ArgumentParser) -> None:
    d = Limits()
    g = p.add_argument_group(
        "limits per client address", "an address is the connection's peer IP (an IPv6 one by its /64); "
        "behind a reverse proxy on this machine, --trust-proxy takes it from X-Forwarded-For; 0 turns "
        "a cap off")
    g.add_argument("--max-conns-per-address", type=int, default=d.connections, metavar="N",
                   help=f"connections open at once (default {d.connections})")
    g.add_argument("--room-burst", type=int, default=d.room_burst, metavar="N",
                   help=f"rooms created at once (default {d.room_burst}) ...")
    g.add_argument("--rooms-per-minute", type=float, default=d.rooms_per_minute, metavar="R",
                   help=f"... then this many a minute (default {d.rooms_per_minute:g})")
    g.add_argument("--join-burst", type=int, default=d.join_burst, metavar="N",
                   help=f"joins and resumes at once (default {d.join_burst}) ...")
    g.add_argument("--joins-per-minute", type=float, default=d.joins_per_minute, metavar="R",
                   help=f"... then this many a minute (default {d.joins_per_minute:g})")
    g.add_argument("--failed-joins", type=int, default=d.failed_joins, metavar="N",
                   help=f"joins and resumes with a wrong room code or seat token (and AI connections with "
                        f"a wrong secret) that cost nothing; each further failure makes the address wait, "
                        f"{d.backoff:g} s, doubled by each one after it; the count starts afresh after "
                        f"{d.forget / 60:g} minutes without a failure (default {d.failed_joins})")
    g.add_argument("--max-backoff", type=float, default=d.max_backoff, metavar="S",
                   help=f"the longest such wait in seconds (default {d.max_backoff:g})")
    g.add_argument("--trust-proxy", action="store_true",
                   help="the server runs behind a reverse proxy on this machine: for connections from "
                        "loopback, count the client by the last address the proxy added to X-Forwarded-For")
    g.add_argument("--no-address-limits", action="store_true",
                   help="none of these limits (a benchmark whose clients all share one address)")


def limits_of(args: argparse.Namespace) -> Limits:
    if args.no_address_limits:
        return Limits.off()
    return Limits(connections=args.max_conns_per_address, room_burst=args.room_burst,
                  rooms_per_minute=args.rooms_per_minute, join_burst=args.join_burst,
                  joins_per_minute=args.joins_per_minute, failed_joins=args.failed_joins,
                  max_backoff=args.max_backoff, trust_proxy=args.trust_proxy)


def run_competition(args: argparse.Namespace) -> int:
    """Standalone mode: the old platform's table, N matches, progress and a summary on stdout."""
    from .competition import run_standalone

    try:
        summary = asyncio.run(run_standalone(args.host, args.port, args.matches, seed=args.seed,
                                             act_timeout=args.act_timeout, settle=args.settle))
    except CannotListen as exc:
        print(f"guandan-server: {exc}", file=sys.stderr, flush=True)
        return 1
    failed = write_summary(args.summary, summary) if args.summary else None
    if failed:  # the progress lines and the final "done:" line have been printed all the same
        print(f"guandan-server: {failed}", file=sys.stderr, flush=True)
        return 1
    return 0


def open_redis(url: str) -> Redis:
    """A client whose commands wait for a free pooled connection. redis-py's default pool refuses
    ("Too many connections") once 100 commands are in flight, which under load turned busy moments
    into ``unavailable`` errors for players; a bounded, blocking pool queues them instead."""
    pool = BlockingConnectionPool.from_url(url, max_connections=REDIS_CONNECTIONS, timeout=REDIS_WAIT)
    return Redis(connection_pool=pool)


def tune_gc() -> None:
    """Each action allocates thousands of short-lived dicts and lists (the room, the game state, four
    views and their diffs) that reference counting frees at once, yet with CPython's default threshold
    (700) the cyclic collector ran some 90 times a second (7% of the CPU), and each full collection of
    everything start-up had loaded paused the event loop for about 40 ms: the p99 latency. Freeze what
    start-up made (it lives as long as the process) and let the young generation grow larger first."""
    gc.collect()
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, middle, old)


def raise_open_files_limit() -> int:
    """Lift the soft limit on open files to the hard one: every connection is a file, and a soft
    limit of 1024 (a common default) would refuse players long before memory or CPU run out."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def config_from_args(args: argparse.Namespace) -> Config:
    return Config(
        host=args.host,
        port=args.port,
        # resolved: a relative --client-dir must not make every file fail the path-containment check
        client_dir=Path(args.client_dir).resolve() if args.client_dir else None,
        room_ttl=args.room_ttl,
        rate=args.rate,
        burst=args.burst,
        max_frame=args.max_frame,
        hard_max_frame=max(args.max_frame * 64, 1024 * 1024),
        fixed_seeds=args.allow_fixed_seeds,
        public_url=args.public_url,
        limits=limits_of(args),
    )


async def run(args: argparse.Namespace, redis_url: str, embedded: EmbeddedRedis | None = None) -> None:
    """Serve until SIGINT/SIGTERM; an ``embedded`` redis-server that dies meanwhile is started again."""
    config = config_from_args(args)
    redis = open_redis(redis_url)
    try:
        await redis.ping()
    except (RedisError, OSError) as exc:
        await redis.aclose()
        raise RedisUnavailable(f"cannot reach Redis at {redis_url}: {exc}") from None
    server = GameServer(config, redis, embedded.revive if embedded is not None else None)
    await server.start()
    tune_gc()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        try:
            listening = await serve(server.handler, config.host, config.port, **server.serve_options())
        except OSError as exc:  # a second server on the same port: one line, not asyncio's traceback
            raise CannotListen.of(config.host, config.port, exc) from None
        async with listening as ws_server:
            port = next(iter(ws_server.sockets)).getsockname()[1]
            server.listening(port)
            log.info("listening on http://%s:%d (WebSocket at /ws)", config.host, port)
            log_invite(server.invite)
            log.info("code in %s; browser client from %s", REPO_ROOT, config.client_dir)
            await stop.wait()
            log.info("shutting down")
            server.stopping()  # the connections about to close go with the server, not their players
    finally:
        await server.close()
        await redis.aclose()


def log_invite(bases: list[str]) -> None:
    """Say on the console which address to give friends (the room panel shows it too)."""
    log.info("friends join at %s", " or ".join(bases))
    if all(is_local(b) for b in bases):
        log.warning("only this machine can open %s: for friends on your network start with --host 0.0.0.0; "
                    "over the internet, behind a reverse proxy, with --public-url (README: Hosting)",
                    bases[0])


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    logging.basicConfig(
        level=args.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s %(message)s",
        stream=sys.stderr,
    )
    if args.competition:
        try:
            return run_competition(args)
        except KeyboardInterrupt:
            return 130
    log.info("open files limit %d", raise_open_files_limit())
    embedded = None
    redis_url = args.redis_url
    try:
        if not redis_url:
            embedded = EmbeddedRedis(args.data_dir, maxmemory=args.redis_maxmemory,
                                     appendfsync=args.redis_appendfsync)
            redis_url = embedded.start()
        asyncio.run(run(args, redis_url, embedded))
    except RedisUnavailable as exc:
        log.error("%s", exc)
        return 2
    except CannotListen as exc:
        print(f"guandan-server: {exc}", file=sys.stderr, flush=True)
        return 1
    except KeyboardInterrupt:
        pass
    finally:
        if embedded is not None:
            embedded.stop()
    return 0
