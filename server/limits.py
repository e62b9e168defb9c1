"""What one client may make the server do: frames per connection, and per client address the
connections open at once, rooms created, joins, and failed joins (a wrong room code or seat token).

Every frame a connection sends takes a token, whatever it holds (text, oversized, undecodable, valid),
so a flood costs the server a counter, not a reply and a log line per frame. The per-address limits
are for the cheap attacks that many connections or reconnects would otherwise allow: creating rooms by
the hundred per second, and guessing room codes (31^6, about 8.9e8 of them: after ``failed_joins``
failures an address waits ``backoff`` seconds, doubled by each further failure up to ``max_backoff``,
and only ``forget`` seconds without a failure start it afresh, so with the defaults one address makes
at most about 2,100 guesses a day, where it made 790 a second; at 1,000 live rooms a first hit takes it
some 400 days on average, which is why codes stay six letters).

An address is the socket's peer IP; an IPv6 one counts by its /64 (one host usually holds a whole
/64), an IPv4-mapped one as the IPv4 address. Behind a reverse proxy every client has the proxy's
address: with ``trust_proxy`` (``--trust-proxy``) a loopback peer's last X-Forwarded-For entry names
the client (``client_address``); X-Forwarded-For is believed from no other peer. The counts live in
each server process, so with several processes behind one name a client gets each process's allowance.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from .changes import ChangeError

JOINS = frozenset({"join", "resume"})
FAILED_JOIN_CODES = frozenset({"room_not_found", "bad_token"})
PRUNE_EVERY = 4096  # operations between sweeps of addresses back at rest


@dataclass
class Limits:
    """Per-address limits (the CLI sets them); a burst, count or connection cap of 0 turns one off."""

    connections: int = 64  # open at once
    rooms_per_minute: float = 2.0
    room_burst: int = 20
    joins_per_minute: float = 60.0  # join and resume requests
    join_burst: int = 60
    failed_joins: int = 10  # failed joins and resumes before the backoff starts
    backoff: float = 1.0  # the first wait after them, doubled by each further failure
    max_backoff: float = 300.0
    forget: float = 600.0  # seconds without a failure after which an address starts afresh
    trust_proxy: bool = False  # a loopback peer is our reverse proxy: its X-Forwarded-For names the client

    @classmethod
    def off(cls) -> Limits:
        """No per-address limits (a benchmark whose clients all share one address)."""
        return cls(connections=0, room_burst=0, join_burst=0, failed_joins=0)


class Limited(ChangeError):
    """A request refused by a limit; ``retry_after``: seconds until it would be let through."""

    def __init__(self, code: str, message: str, retry_after: float) -> None:
        super().__init__(code, message)
        self.retry_after = retry_after


class Bucket:
    """``burst`` tokens, refilled at ``rate`` per second."""

    __slots__ = ("rate", "burst", "tokens", "stamp")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate, self.burst, self.tokens, self.stamp = rate, burst, float(burst), now

    def refill(self, now: float) -> None:
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def full(self, now: float) -> bool:
        self.refill(now)
        return self.tokens >= self.burst

    def take(self, now: float) -> float:
        """0.0 when a token was taken, else the seconds until there is one."""
        self.refill(now)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / self.rate if self.rate > 0 else math.inf


class FrameGate:
    """The rate limit of one connection, over every frame it sends.

    Past the limit a frame is dropped unanswered; the first of a run gets one ``rate_limited`` notice
    (NOTICE), the next ones nothing (DROP). A connection that keeps on (more than ``burst`` frames
    dropped, forgiven at ``rate`` per second) is closed (CLOSE).
    """

    PASS, NOTICE, DROP, CLOSE = "pass", "notice", "drop", "close"

    def __init__(self, rate: float, burst: float) -> None:
        self.bucket = Bucket(rate, burst, time.monotonic())
        self.strikes = 0.0  # dropped frames not yet forgiven
        self.over = False
        self.frames = 0
        self.dropped = 0

    def admit(self) -> str:
        now = time.monotonic()
        self.frames += 1
        self.strikes = max(0.0, self.strikes - (now - self.bucket.stamp) * self.bucket.rate)
        if self.bucket.take(now) == 0.0:
            self.over = False
            return self.PASS
        self.dropped += 1
        self.strikes += 1.0
        if self.strikes > self.bucket.burst:
            return self.CLOSE
        if not self.over:
            self.over = True
            return self.NOTICE
        return self.DROP

    def retry_after(self) -> float:
        return (1.0 - self.bucket.tokens) / self.bucket.rate if self.bucket.rate > 0 else math.inf


def client_address(peer: str, forwarded_for: str | None, trust_proxy: bool) -> str:
    """The client's IP. Behind a reverse proxy on this machine (``trust_proxy``) every peer is the
    proxy, so the address is the last one the proxy appended to X-Forwarded-For; a client's own
    X-Forwarded-For is never believed (the proxy appends to what the client sent, so the last entry is
    the proxy's own observation), nor is the header from a peer that is not on loopback."""
    if not trust_proxy or not forwarded_for or not _is_loopback(peer):
        return peer
    last = forwarded_for.rsplit(",", 1)[-1].strip()
    try:
        return str(ipaddress.ip_address(last))
    except ValueError:
        return peer


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def address_key(host: str) -> str:
    """What a client address is counted as: the IP, an IPv6 one by its /64, an IPv4-mapped one as IPv4."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


@dataclass(slots=True)
class _Address:
    conns: int = 0
    rooms: Bucket | None = None
    joins: Bucket | None = None
    failures: int = 0
    last_failure: float = -math.inf
    locked_until: float = -math.inf


class AddressLimits:
    """The per-address counts of one server process."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self.addresses: dict[str, _Address] = {}
        self._ops = 0

    def _entry(self, address: str) -> _Address:
        self._ops += 1
        if self._ops % PRUNE_EVERY == 0:
            self._prune()
        entry = self.addresses.get(address)
        if entry is None:
            entry = self.addresses[address] = _Address()
        return entry

    def _prune(self) -> None:
        """Forget addresses with nothing to remember (so many one-off clients cost no memory)."""
        now = self.clock()
        for address, e in list(self.addresses.items()):
            full = all(b is None or b.full(now) for b in (e.rooms, e.joins))
            if e.conns == 0 and full and now >= e.locked_until and now - e.last_failure > self.limits.forget:
                del self.addresses[address]

    def connect(self, address: str) -> bool:
        """Count a new connection; False (and not counted) when the address has too many open."""
        entry = self._entry(address)
        if self.limits.connections and entry.conns >= self.limits.connections:
            return False
        entry.conns += 1
        return True

    def disconnect(self, address: str) -> None:
        entry = self.addresses.get(address)
        if entry is not None and entry.conns > 0:
            entry.conns -= 1

    def check(self, address: str, kind: str) -> None:
        """Raise Limited when the address may not make a request of this kind now (and take a token
        when it may): ``create``, ``join``/``resume``, or ``ai`` (an AI opening its seat's URL)."""
        lim = self.limits
        if kind == "create" and lim.room_burst:
            entry = self._entry(address)
            if entry.rooms is None:
                entry.rooms = Bucket(lim.rooms_per_minute / 60, lim.room_burst, self.clock())
            wait = entry.rooms.take(self.clock())
            if wait:
                raise Limited("too_many_rooms", f"more rooms created from your address than allowed "
                              f"({lim.room_burst}, then {lim.rooms_per_minute:g} a minute); "
                              f"try again in {_seconds(wait)}", wait)
        elif kind in JOINS or kind == "ai":
            entry = self._entry(address)
            now = self.clock()
            if now < entry.locked_until:
                wait = entry.locked_until - now
                raise Limited("too_many_attempts", "too many failed joins from your address (wrong room "
                              f"codes or seat tokens); try again in {_seconds(wait)}", wait)
            if kind in JOINS and lim.join_burst:
                if entry.joins is None:
                    entry.joins = Bucket(lim.joins_per_minute / 60, lim.join_burst, now)
                wait = entry.joins.take(now)
                if wait:
                    raise Limited("too_many_joins", f"more joins from your address than allowed "
                                  f"({lim.join_burst}, then {lim.joins_per_minute:g} a minute); "
                                  f"try again in {_seconds(wait)}", wait)

    def refused(self, address: str, kind: str, code: str) -> None:
        """A request was refused with ``code``: a join or resume with a wrong code or token is a failure;
        a create that made no room gives its token back (the cap is on rooms made)."""
        if kind in JOINS and code in FAILED_JOIN_CODES:
            self.failed(address)
        elif kind == "create" and code != "too_many_rooms":
            entry = self.addresses.get(address)
            if entry is not None and entry.rooms is not None:
                entry.rooms.tokens = min(entry.rooms.burst, entry.rooms.tokens + 1.0)

    def failed(self, address: str) -> None:
        """One failed attempt to get into a room; past the free ones, the address waits."""
        lim = self.limits
        if not lim.failed_joins:
            return
        entry = self._entry(address)
        now = self.clock()
        if now - entry.last_failure > lim.forget:
            entry.failures = 0
        entry.failures += 1
        entry.last_failure = now
        over = entry.failures - lim.failed_joins
        if over > 0:
            entry.locked_until = now + min(lim.max_backoff, lim.backoff * 2 ** min(over - 1, 30))


def _seconds(wait: float) -> str:
    return f"{math.ceil(wait)} s" if math.isfinite(wait) else "a while"
