"""Rooms in Redis, the only truth: one hash per room, one Stream as its action log.

Keys (``prefix`` defaults to ``gd:``):
- ``room:{code}`` hash: ``v`` (version, +1 per change) and ``data`` (the room as msgpack: settings,
  seats with hashed tokens, host, status and the engine state ``Game.to_dict()``).
- ``log:{code}`` Stream: one entry per change, ``v`` and ``rec`` (msgpack: who did what). A new match
  at the same table trims the finished one's entries: the log keeps what a replay needs, from the
  last match's ``start`` record (which holds its seed) on.
- ``conn:{code}`` hash: seat -> id of the connection holding it (presence, one per seat).
- ``proc:{id}`` key with a TTL: this server process is alive (so presence of a killed process fades);
  ``procs`` set: every process that ever said so (the sweeper finds the dead ones there);
  ``beats`` hash: process -> its last heartbeat (unix ms), so a burial knows when the process died;
  ``proc-rooms:{id}`` set: the rooms where that process held a seat's connection.
  Every key of a room or a process expires (after ``room_ttl`` of inactivity, a process's ``proc``
  after its heartbeat's TTL); only ``due``, ``procs`` and ``beats`` are global.
- ``due`` sorted set: room code -> when (unix ms) the server must next act for the room by itself
  (bots, auto-play, timers, dropouts: autopilot.py). Taking a due room pushes its score out by a lease,
  so exactly one process works on it; a process that dies mid-work loses the lease when it runs out.
- ``ai:{sha256 of secret}``: the room of an external AI seat's secret URL; every commit of the room
  refreshes it with the room's keys, so an AI can come back as long as its room lives.
- channel ``ch:{code}``: msgpack notices of new versions (with the data and the change's record),
  presence and replacements.

Every change goes through one Lua script that compares the version, writes the new data, appends the
action to the Stream, sets when the room is next due, refreshes the inactivity expiry and publishes,
all atomically; a caller that lost the race gets ``None`` and retries from fresh state, so nothing is
ever overwritten.
"""

from __future__ import annotations

import secrets
import time
from typing import Any, NamedTuple

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
local id = redis.call('XADD', KEYS[2], '*', 'v', nv, 'rec', ARGV[3])
if ARGV[9] == '1' then
  redis.call('XTRIM', KEYS[2], 'MINID', id)
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
redis.call('PEXPIRE', KEYS[3], ARGV[4])
for i = 5, #KEYS do
  redis.call('PEXPIRE', KEYS[i], ARGV[4])
end
if tonumber(ARGV[7]) < 0 then
  redis.call('ZREM', KEYS[4], ARGV[8])
else
  redis.call('ZADD', KEYS[4], ARGV[7], ARGV[8])
end
redis.call('PUBLISH', ARGV[5], ARGV[6])
return nv
"""

# Set when a room is next due, unless it changed since the caller looked (its commit set it then).
_RESCHEDULE = """
local cur = redis.call('HGET', KEYS[1], 'v')
if not cur or tonumber(cur) ~= tonumber(ARGV[1]) then return 0 end
if tonumber(ARGV[2]) < 0 then
  redis.call('ZREM', KEYS[2], ARGV[3])
else
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
end
return 1
"""

# Take a due room: only if it is due now, and push it out by the lease so nobody else takes it.
_TAKE_DUE = """
local due = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not due or tonumber(due) > tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
return 1
"""

# Take a seat's connection slot; returns the previous holder (to be told it was replaced).
_CLAIM = """
local old = redis.call('HGET', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('SADD', KEYS[2], ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
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


class Burial(NamedTuple):
    """A dead process's rooms, and when it last beat (unix seconds; None if it never said)."""

    codes: list[str]
    died: float | None


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
        self._reschedule = redis.register_script(_RESCHEDULE)
        self._take_due = redis.register_script(_TAKE_DUE)
        self.due_key = f"{prefix}due"
        self.procs_key = f"{prefix}procs"
        self.beats_key = f"{prefix}beats"  # each process's last heartbeat (unix ms): when a dead one died

    def room_key(self, code: str) -> str:
        return f"{self.prefix}room:{code}"

    def log_key(self, code: str) -> str:
        return f"{self.prefix}log:{code}"

    def conn_key(self, code: str) -> str:
        return f"{self.prefix}conn:{code}"

    def watch_key(self, code: str) -> str:
        return f"{self.prefix}watch:{code}"

    def channel(self, code: str) -> str:
        return f"{self.prefix}ch:{code}"

    def proc_key(self, proc_id: str) -> str:
        return f"{self.prefix}proc:{proc_id}"

    def proc_rooms_key(self, proc_id: str) -> str:
        return f"{self.prefix}proc-rooms:{proc_id}"

    def ai_key(self, secret_hash: str) -> str:
        return f"{self.prefix}ai:{secret_hash}"

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
        self, code: str, expected: int, room: dict[str, Any], record: dict[str, Any], origin: str,
        due: float | None = None,
    ) -> tuple[int, bytes] | None:
        """Write ``room`` as version ``expected + 1`` if the stored version is still ``expected``, and
        note when the room is next due (unix time; None: not until something else changes). The
        record that starts a new match trims the log of the one before.

        Returns (new version, data) or None when another writer got there first.
        """
        data = encode(room)
        nv = expected + 1
        rec = encode(record)
        notice = encode({"k": "state", "v": nv, "d": data, "o": origin, "r": rec})
        keys = [self.room_key(code), self.log_key(code), self.conn_key(code), self.due_key]
        keys += [self.ai_key(s["token"]) for s in room.get("seats") or ()
                 if s.get("kind") == "ai" and s.get("token")]
        trim = int(record.get("type") == "start" and record.get("by") == "new_match")
        args = [expected, data, rec, self.ttl_ms, self.channel(code), notice, _due_ms(due), code, trim]
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

    async def records(self, code: str, after: int, upto: int) -> list[dict[str, Any]]:
        """The log records of versions ``after + 1 .. upto`` (the newest entries, read backwards)."""
        count = max(0, upto - after)
        if not count:
            return []
        entries = await self.redis.xrevrange(self.log_key(code), count=count + 8)
        out = [{"v": int(f[b"v"]), **decode(f[b"rec"])} for _, f in reversed(entries)]
        return [r for r in out if after < r["v"] <= upto]

    # ---- when rooms are due -------------------------------------------------------------------

    async def reschedule(self, code: str, version: int, due: float | None) -> bool:
        """Set when ``code`` is next due, if it is still at ``version``."""
        keys = [self.room_key(code), self.due_key]
        return bool(await self._reschedule(keys=keys, args=[version, _due_ms(due), code]))

    async def take_due(self, code: str, now: float, lease: float) -> bool:
        """Take a room that is due at ``now`` for ``lease`` seconds (False: not due, or taken)."""
        args = [code, int(now * 1000), int((now + lease) * 1000)]
        return bool(await self._take_due(keys=[self.due_key], args=args))

    async def due_rooms(self, now: float, limit: int = 200) -> list[str]:
        raw = await self.redis.zrangebyscore(self.due_key, "-inf", int(now * 1000), start=0, num=limit)
        return [c.decode() for c in raw]

    async def due_at(self, code: str) -> float | None:
        score = await self.redis.zscore(self.due_key, code)
        return None if score is None else score / 1000

    async def forget_due(self, code: str) -> None:
        await self.redis.zrem(self.due_key, code)

    # ---- seats' connections and server processes --------------------------------------------------

    async def claim_seat(self, code: str, seat: int, conn_id: str) -> str | None:
        proc = conn_id.split(":", 1)[0]
        old = await self._claim(keys=[self.conn_key(code), self.proc_rooms_key(proc)],
                                args=[seat, conn_id, self.ttl_ms, code])
        return old.decode() if old else None

    async def release_seat(self, code: str, seat: int, conn_id: str) -> bool:
        return bool(await self._release(keys=[self.conn_key(code)], args=[seat, conn_id]))

    async def seat_conns(self, code: str) -> dict[int, str]:
        raw = await self.redis.hgetall(self.conn_key(code))
        return {int(k): v.decode() for k, v in raw.items()}

    async def watch(self, code: str, conn_id: str, nickname: str) -> None:
        """A spectator's connection watches the room (the players are told who watches)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hset(self.watch_key(code), conn_id, nickname)
        pipe.pexpire(self.watch_key(code), self.ttl_ms)
        await pipe.execute()

    async def unwatch(self, code: str, conn_id: str) -> None:
        await self.redis.hdel(self.watch_key(code), conn_id)

    async def watchers(self, code: str) -> list[str]:
        """The nicknames of the room's spectators on live server processes (a dead process's are
        forgotten here), in a stable order."""
        raw = {k.decode(): v.decode() for k, v in (await self.redis.hgetall(self.watch_key(code))).items()}
        alive = await self.alive_procs({c.split(":", 1)[0] for c in raw})
        dead = [c for c in raw if c.split(":", 1)[0] not in alive]
        if dead:
            await self.redis.hdel(self.watch_key(code), *dead)
        return sorted((name for c, name in raw.items() if c not in dead), key=str.casefold)

    async def heartbeat(self, proc_id: str, ttl: float) -> None:
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(self.proc_key(proc_id), b"1", px=int(ttl * 1000))
        pipe.sadd(self.procs_key, proc_id)
        pipe.hset(self.beats_key, proc_id, int(time.time() * 1000))
        pipe.pexpire(self.proc_rooms_key(proc_id), self.ttl_ms)  # outlives the process, for its burial
        await pipe.execute()

    async def forget_proc(self, proc_id: str) -> None:
        await self.redis.delete(self.proc_key(proc_id))

    async def dead_procs(self) -> list[str]:
        """Processes that registered but whose heartbeat ran out."""
        procs = await self.registered_procs()
        alive = await self.alive_procs(procs)
        return sorted(procs - alive)

    async def last_beats(self, proc_ids: set[str]) -> dict[str, float | None]:
        """When each process last beat (unix seconds; None: never, or buried)."""
        if not proc_ids:
            return {}
        ids = sorted(proc_ids)
        raw = await self.redis.hmget(self.beats_key, ids)
        return {p: None if r is None else int(r) / 1000 for p, r in zip(ids, raw, strict=True)}

    async def registered_procs(self) -> set[str]:
        return {p.decode() for p in await self.redis.smembers(self.procs_key)}

    async def bury(self, proc_id: str) -> Burial | None:
        """Take the clean-up of a dead process: exactly one caller gets its rooms and when it last beat,
        others get None."""
        if not await self.redis.srem(self.procs_key, proc_id):
            return None
        codes = await self.proc_rooms(proc_id)
        died = (await self.last_beats({proc_id}))[proc_id]
        pipe = self.redis.pipeline(transaction=False)
        pipe.delete(self.proc_rooms_key(proc_id))
        pipe.hdel(self.beats_key, proc_id)
        await pipe.execute()
        return Burial(codes, died)

    async def proc_rooms(self, proc_id: str) -> list[str]:
        """The rooms where a process holds (or held) a seat's connection."""
        return sorted(c.decode() for c in await self.redis.smembers(self.proc_rooms_key(proc_id)))

    async def keep_proc_rooms(self, proc_id: str, codes: list[str]) -> None:
        """Note again the rooms of a process that ``bury`` took although it was alive."""
        if codes:
            key = self.proc_rooms_key(proc_id)
            pipe = self.redis.pipeline(transaction=False)
            pipe.sadd(key, *codes)
            pipe.pexpire(key, self.ttl_ms)
            await pipe.execute()

    async def link_ai(self, secret_hash: str, code: str) -> None:
        await self.redis.set(self.ai_key(secret_hash), code, px=self.ttl_ms)

    async def unlink_ai(self, secret_hash: str) -> None:
        await self.redis.delete(self.ai_key(secret_hash))

    async def ai_room(self, secret_hash: str) -> str | None:
        code = await self.redis.get(self.ai_key(secret_hash))
        return code.decode() if code else None

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


def _due_ms(due: float | None) -> int:
    return -1 if due is None else int(due * 1000)
