"""Rooms in Redis, the only truth: one hash per room, one Stream as its action log.

Keys (``prefix`` defaults to ``gd:``):
- ``room:{code}`` hash: ``v`` (version, +1 per change) and ``data`` (the room as msgpack: settings,
  seats with hashed tokens, host, status and the engine state ``Game.to_dict()``).
- ``log:{code}`` Stream: one entry per change, ``v`` and ``rec`` (msgpack: who did what).
- ``conn:{code}`` hash: seat -> id of the connection holding it (presence, one per seat).
- ``proc:{id}`` key with a TTL: this server process is alive (so presence of a killed process fades).
- channel ``ch:{code}``: msgpack notices of new versions (with the data), presence and replacements.

Every change goes through one Lua script that compares the version, writes the new data, appends the
action to the Stream, refreshes the inactivity expiry and publishes, all atomically; a caller that
lost the race gets ``None`` and retries from fresh state, so nothing is ever overwritten.
"""

from __future__ import annotations

import secrets
from typing import Any

from redis.asyncio import Redis

from .codec import decode, encode
from .protocol import CODE_ALPHABET, CODE_LENGTH

_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', 1, 'data', ARGV[1])
redis.call('XADD', KEYS[2], '*', 'v', 1, 'rec', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1
"""

_COMMIT = """
local cur = redis.call('HGET', KEYS[1], 'v')
if not cur then return -1 end
if tonumber(cur) ~= tonumber(ARGV[1]) then return 0 end
local nv = tonumber(cur) + 1
redis.call('HSET', KEYS[1], 'v', nv, 'data', ARGV[2])
redis.call('XADD', KEYS[2], '*', 'v', nv, 'rec', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
redis.call('PEXPIRE', KEYS[3], ARGV[4])
redis.call('PUBLISH', ARGV[5], ARGV[6])
return nv
"""

# Take a seat's connection slot; returns the previous holder (to be told it was replaced).
_CLAIM = """
local old = redis.call('HGET', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return old
"""

# Give a seat's slot back, but only if we still hold it (a replacement may already own it).
_RELEASE = """
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  redis.call('HDEL', KEYS[1], ARGV[1])
  return 1
end
return 0
"""


class RoomNotFound(LookupError):
    """No room with that code (never created, or expired)."""


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def valid_code(code: str) -> bool:
    return len(code) == CODE_LENGTH and all(c in CODE_ALPHABET for c in code)


class Store:
    """Typed access to the keys above; all writes to a room go through ``create``/``commit``."""

    def __init__(self, redis: Redis, prefix: str = "gd:", room_ttl: float = 24 * 3600) -> None:
        self.redis = redis
        self.prefix = prefix
        self.ttl_ms = int(room_ttl * 1000)
        self._create = redis.register_script(_CREATE)
        self._commit = redis.register_script(_COMMIT)
        self._claim = redis.register_script(_CLAIM)
        self._release = redis.register_script(_RELEASE)

    def room_key(self, code: str) -> str:
        return f"{self.prefix}room:{code}"

    def log_key(self, code: str) -> str:
        return f"{self.prefix}log:{code}"

    def conn_key(self, code: str) -> str:
        return f"{self.prefix}conn:{code}"

    def channel(self, code: str) -> str:
        return f"{self.prefix}ch:{code}"

    def proc_key(self, proc_id: str) -> str:
        return f"{self.prefix}proc:{proc_id}"

    async def create(self, make_room: Any, record: dict[str, Any], attempts: int = 50) -> tuple[str, dict]:
        """Reserve a fresh code atomically and store ``make_room(code)`` at version 1."""
        for _ in range(attempts):
            code = new_code()
            room = make_room(code)
            keys = [self.room_key(code), self.log_key(code)]
            if await self._create(keys=keys, args=[encode(room), encode(record), self.ttl_ms]):
                return code, room
        raise RuntimeError("could not reserve a free room code")

    async def load_raw(self, code: str) -> tuple[int, bytes]:
        v, data = await self.redis.hmget(self.room_key(code), ["v", "data"])
        if v is None or data is None:
            raise RoomNotFound(code)
        return int(v), data

    async def load(self, code: str) -> tuple[int, dict[str, Any]]:
        v, data = await self.load_raw(code)
        return v, decode(data)

    async def commit(
        self, code: str, expected: int, room: dict[str, Any], record: dict[str, Any], origin: str
    ) -> tuple[int, bytes] | None:
        """Write ``room`` as version ``expected + 1`` if the stored version is still ``expected``.

        Returns (new version, data) or None when another writer got there first.
        """
        data = encode(room)
        nv = expected + 1
        notice = encode({"k": "state", "v": nv, "d": data, "o": origin})
        keys = [self.room_key(code), self.log_key(code), self.conn_key(code)]
        args = [expected, data, encode(record), self.ttl_ms, self.channel(code), notice]
        result = await self._commit(keys=keys, args=args)
        if result == -1:
            raise RoomNotFound(code)
        if result == 0:
            return None
        return int(result), data

    async def log(self, code: str) -> list[dict[str, Any]]:
        """The room's whole action log, oldest first."""
        entries = await self.redis.xrange(self.log_key(code))
        return [{"v": int(f[b"v"]), **decode(f[b"rec"])} for _, f in entries]

    async def claim_seat(self, code: str, seat: int, conn_id: str) -> str | None:
        old = await self._claim(keys=[self.conn_key(code)], args=[seat, conn_id, self.ttl_ms])
        return old.decode() if old else None

    async def release_seat(self, code: str, seat: int, conn_id: str) -> bool:
        return bool(await self._release(keys=[self.conn_key(code)], args=[seat, conn_id]))

    async def seat_conns(self, code: str) -> dict[int, str]:
        raw = await self.redis.hgetall(self.conn_key(code))
        return {int(k): v.decode() for k, v in raw.items()}

    async def heartbeat(self, proc_id: str, ttl: float) -> None:
        await self.redis.set(self.proc_key(proc_id), b"1", px=int(ttl * 1000))

    async def forget_proc(self, proc_id: str) -> None:
        await self.redis.delete(self.proc_key(proc_id))

    async def alive_procs(self, proc_ids: set[str]) -> set[str]:
        if not proc_ids:
            return set()
        ids = sorted(proc_ids)
        pipe = self.redis.pipeline(transaction=False)
        for p in ids:
            pipe.exists(self.proc_key(p))
        results = await pipe.execute()
        return {p for p, r in zip(ids, results, strict=True) if r}

    async def presence(self, code: str) -> list[bool]:
        """Which seats have a connection held by a live server process."""
        conns = await self.seat_conns(code)
        alive = await self.alive_procs({c.split(":", 1)[0] for c in conns.values()})
        out = [False] * 4
        for seat, conn in conns.items():
            if 0 <= seat < 4 and conn.split(":", 1)[0] in alive:
                out[seat] = True
        return out

    async def publish(self, code: str, notice: dict[str, Any]) -> None:
        await self.redis.publish(self.channel(code), encode(notice))
