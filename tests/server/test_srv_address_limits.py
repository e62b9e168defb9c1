"""Issue 15, defect 4: caps per client address on connections, rooms created, joins and failed joins.

Clients bind to different loopback addresses (127.0.0.1, 127.0.0.2, ...) to show the limits are per
address. Real sockets, a real Redis; each test fails on the server before the fix.
"""

from __future__ import annotations

import asyncio

import pytest
from srv_client import Client, ServerError
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from server.cli import limits_of, parse_args
from server.limits import Limits, address_key, client_address


async def _open(server, address: str = "127.0.0.1") -> Client:
    return await Client.open(server.url, local_addr=(address, 0))


async def _refused(server, address: str = "127.0.0.1") -> ConnectionClosed:
    ws = await connect(server.url, local_addr=(address, 0), compression=None)
    with pytest.raises(ConnectionClosed) as exc:
        await asyncio.wait_for(ws.recv(), 10)
    return exc.value


async def _until(predicate, timeout: float = 10.0) -> None:
    """Wait for server-side state (no message tells the client about it)."""
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.01)


async def _error(client: Client, msg: dict) -> dict:
    with pytest.raises(ServerError):
        await client.request(msg)
    return client.errors()[-1]


async def test_connections_per_address_are_capped(start_server) -> None:
    server = await start_server(limits=Limits(connections=3))
    first = [await _open(server) for _ in range(3)]
    refused = await _refused(server)
    assert refused.rcvd.code == 1008 and "too many connections" in refused.rcvd.reason
    elsewhere = await _open(server, "127.0.0.2")  # another address has its own allowance
    assert elsewhere.messages[0]["type"] == "welcome"
    await first[0].close()
    entry = server.app.limits.addresses["127.0.0.1"]
    await _until(lambda: entry.conns == 2)  # the server saw it go
    again = await _open(server)
    assert again.messages[0]["type"] == "welcome"
    for c in (*first[1:], elsewhere, again):
        await c.close()


async def test_rooms_created_per_address_are_capped(start_server, aredis) -> None:
    server = await start_server(limits=Limits(room_burst=2, rooms_per_minute=0.001))
    hosts = [await _open(server) for _ in range(3)]
    refused = await _error(hosts[0], {"type": "create", "nickname": "Host", "options": {"x": 1}})
    assert refused["code"] == "bad_rules"  # made no room: does not count
    for host in hosts[:2]:
        await host.request({"type": "create", "nickname": "Host", "bots": [1, 2, 3]})
    err = await _error(hosts[2], {"type": "create", "nickname": "Host", "bots": [1, 2, 3]})
    assert err["code"] == "too_many_rooms" and err["retry_after"] > 0 and "try again in" in err["message"]
    assert len(await aredis.keys("gd:room:*")) == 2  # nothing was created
    other = await _open(server, "127.0.0.2")
    await other.request({"type": "create", "nickname": "Other"})
    assert len(await aredis.keys("gd:room:*")) == 3
    for c in (*hosts, other):
        await c.close()


async def test_joins_per_address_are_capped(start_server) -> None:
    server = await start_server(limits=Limits(join_burst=3, joins_per_minute=0.001))
    host = await _open(server, "127.0.0.2")
    code = (await host.request({"type": "create", "nickname": "Host"}))["code"]
    watcher = await _open(server)
    for _ in range(3):
        await watcher.request({"type": "join", "code": code, "nickname": "Eve", "spectator": True})
    err = await _error(watcher, {"type": "join", "code": code, "nickname": "Eve", "spectator": True})
    assert err["code"] == "too_many_joins" and err["retry_after"] > 0
    elsewhere = await _open(server, "127.0.0.2")  # another address still may
    await elsewhere.request({"type": "join", "code": code, "nickname": "Eve", "spectator": True})
    for c in (host, watcher, elsewhere):
        await c.close()


async def test_failed_joins_back_off_and_say_when_to_try_again(start_server) -> None:
    server = await start_server(limits=Limits(failed_joins=3, backoff=2))
    host = await _open(server, "127.0.0.2")
    code = (await host.request({"type": "create", "nickname": "Host"}))["code"]
    guesser = await _open(server)
    wrong = "ZZZZZ2" if code != "ZZZZZ2" else "ZZZZZ3"
    for msg, failure in (({"type": "join", "code": wrong, "nickname": "G"}, "room_not_found"),
                         ({"type": "resume", "code": code, "token": "not-a-token"}, "bad_token"),
                         ({"type": "join", "code": "!!", "nickname": "G"}, "invalid_message"),  # not counted
                         ({"type": "join", "code": "ab@cd!", "nickname": "G"}, "room_not_found"),
                         ({"type": "join", "code": wrong, "nickname": "G"}, "room_not_found")):  # the 4th
        assert (await _error(guesser, msg))["code"] == failure
    # now even the right code waits, and the error says how long
    locked = await _error(guesser, {"type": "join", "code": code, "nickname": "G", "spectator": True})
    assert locked["code"] == "too_many_attempts" and 0 < locked["retry_after"] <= 2
    # an AI connection with a wrong secret is refused too while the address waits
    refused = await _refused_ai(server)
    assert refused.rcvd.code == 1008 and "try again" in refused.rcvd.reason
    elsewhere = await _open(server, "127.0.0.2")  # another address is not held back
    await elsewhere.request({"type": "join", "code": code, "nickname": "H", "spectator": True})
    await asyncio.sleep(locked["retry_after"])
    await guesser.request({"type": "join", "code": code, "nickname": "G", "spectator": True})
    # the next failure waits twice as long
    assert (await _error(guesser, {"type": "join", "code": wrong, "nickname": "G"}))["code"] \
        == "room_not_found"
    locked = await _error(guesser, {"type": "join", "code": code, "nickname": "G", "spectator": True})
    assert locked["code"] == "too_many_attempts" and 2 < locked["retry_after"] <= 4
    for c in (host, guesser, elsewhere):
        await c.close()


async def _refused_ai(server, address: str = "127.0.0.1") -> ConnectionClosed:
    ws = await connect(f"ws://127.0.0.1:{server.port}/game/wrong-secret", local_addr=(address, 0),
                       compression=None)
    with pytest.raises(ConnectionClosed) as exc:
        await asyncio.wait_for(ws.recv(), 10)
    return exc.value


async def test_ai_connections_with_a_wrong_secret_count_as_failed_joins(start_server) -> None:
    server = await start_server(limits=Limits(failed_joins=2, backoff=60))
    for _ in range(3):  # the third failure makes the address wait
        assert (await _refused_ai(server)).rcvd.reason == "unknown AI seat"
    assert "try again in" in (await _refused_ai(server)).rcvd.reason
    client = await _open(server)
    err = await _error(client, {"type": "join", "code": "ABCDEF", "nickname": "G"})
    assert err["code"] == "too_many_attempts" and err["retry_after"] > 50
    await client.close()


def test_an_address_is_its_ip_and_an_ipv6_one_its_64() -> None:
    assert address_key("203.0.113.7") == "203.0.113.7"
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:bbbb::9") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:198.51.100.4") == "198.51.100.4"
    assert address_key("?") == "?"


def test_the_cli_sets_the_limits() -> None:
    limits = limits_of(parse_args(
        ["--max-conns-per-address", "5", "--room-burst", "4", "--rooms-per-minute", "1", "--join-burst", "9",
         "--joins-per-minute", "30", "--failed-joins", "7", "--max-backoff", "120"]))
    assert limits == Limits(connections=5, room_burst=4, rooms_per_minute=1, join_burst=9,
                            joins_per_minute=30, failed_joins=7, max_backoff=120)
    assert limits_of(parse_args([])) == Limits()
    off = limits_of(parse_args(["--no-address-limits"]))
    assert not (off.connections or off.room_burst or off.join_burst or off.failed_joins)


def test_behind_a_trusted_proxy_the_client_is_the_last_forwarded_address() -> None:
    assert client_address("127.0.0.1", "203.0.113.9", True) == "203.0.113.9"
    # the proxy appends what it saw to what the client claimed: only the last entry is the proxy's word
    assert client_address("127.0.0.1", "10.9.9.9, 198.51.100.4", True) == "198.51.100.4"
    assert client_address("::1", "2001:db8::7", True) == "2001:db8::7"
    # not trusted, not from loopback, or not an address: the peer itself
    assert client_address("127.0.0.1", "203.0.113.9", False) == "127.0.0.1"
    assert client_address("192.0.2.50", "203.0.113.9", True) == "192.0.2.50"
    assert client_address("127.0.0.1", "not-an-ip", True) == "127.0.0.1"
    assert client_address("127.0.0.1", None, True) == "127.0.0.1"
    assert limits_of(parse_args(["--trust-proxy"])).trust_proxy
    assert not limits_of(parse_args([])).trust_proxy


async def test_a_trusted_proxy_s_clients_are_counted_apart(start_server) -> None:
    server = await start_server(limits=Limits(connections=1, trust_proxy=True))

    async def through_proxy(client_ip: str) -> Client:
        return await Client.open(server.url, additional_headers={"X-Forwarded-For": client_ip})

    first = await through_proxy("203.0.113.1")
    second = await through_proxy("203.0.113.2")  # another client behind the same proxy: its own cap
    assert first.messages[0]["type"] == "welcome" and second.messages[0]["type"] == "welcome"
    ws = await connect(server.url, additional_headers={"X-Forwarded-For": "203.0.113.1"}, compression=None)
    with pytest.raises(ConnectionClosed) as exc:
        await asyncio.wait_for(ws.recv(), 10)
    assert exc.value.rcvd.code == 1008  # the first client's second connection is over its cap
    assert set(server.app.limits.addresses) >= {"203.0.113.1", "203.0.113.2"}
    for c in (first, second):
        await c.close()
