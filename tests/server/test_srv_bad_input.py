"""Issue 15, defect 6: bad input gets a clear error, changes nothing and leaves no traceback.

A deeply nested id, refused rule values, nicknames that would forge or hide text, an HTTP path the
file system cannot look up, other methods than GET/HEAD, and security headers on every HTTP response.
Real sockets, a real Redis; each test fails on the server before the fix.
"""

from __future__ import annotations

import asyncio
import http.client
import logging
from pathlib import Path

import msgpack
import pytest
from srv_client import Client, ServerError

from server.web import CSP


def _nested(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


def _no_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    bad = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not bad, [r.getMessage()[:200] for r in bad]


async def test_a_deeply_nested_id_is_refused_and_the_connection_goes_on(server, caplog) -> None:
    client = await Client.open(server.url)
    for n, depth in enumerate((5, 100, 1000, 1020), 1):
        await client.send_raw(msgpack.packb({"type": "pass", "id": _nested(depth)}))
        await client.wait(lambda n=n: len(client.errors()) == n)
        err = client.errors()[-1]
        assert err["code"] == "invalid_message" and err["id"] is None and "levels" in err["message"]
    await client.send({"type": "create", "id": 9, "nickname": "A", "options": {"a": _nested(900)}})
    assert (await client.reply(9))["code"] == "invalid_message"  # a readable id is echoed
    assert (await client.request({"type": "hello", "protocol": 1}))["protocol"] == 1  # still usable
    assert client.ws.close_code is None
    _no_tracebacks(caplog)
    await client.close()


@pytest.mark.parametrize("options", [
    {"a_attempts": True},  # a bool is an int in Python, not here
    {"a_attempts": False},
    {"a_attempts": 0},
    {"a_attempts": -3},
    {"a_attempts": 1.5},
    {"a_attempts": "3"},
    {"return_limit": "whatever"},
    {"return_limit": None},
    {"first_leader": "last"},
    {"first_leader": 0},
    {"joker_pair_in_full_house": 1},
    {"club_return": "yes"},
    {"name": "club"},
    {"no_such_rule": True},
])
async def test_refused_rule_values_are_bad_rules_and_create_nothing(server, aredis, caplog, options) -> None:
    client = await Client.open(server.url)
    with pytest.raises(ServerError) as exc:
        await client.request({"type": "create", "nickname": "Ann", "bots": [1, 2, 3], "options": options})
    assert exc.value.code == "bad_rules", exc.value.message
    assert not await aredis.keys("gd:room:*")
    _no_tracebacks(caplog)
    await client.close()


async def test_accepted_rule_values_still_are(server) -> None:
    client = await Client.open(server.url)
    await client.request({"type": "create", "nickname": "Ann", "bots": [1, 2, 3], "options": {
        "a_attempts": 2, "return_limit": "any", "first_leader": "random", "joker_pair_in_full_house": True}})
    await client.wait(lambda: client.room)
    assert client.room["settings"]["rules"]["a_attempts"] == 2
    await client.close()


REFUSED_NICKNAMES = [
    "Ann\nINFO forged",  # a newline forges log lines
    "Bo\rb", "tab\there", "nul\x00", "bell\x07", "del\x7f", "c1\x85",
    "\u202eevil",  # RIGHT-TO-LEFT OVERRIDE
    "iso\u2067late\u2069", "A\u200bnn",  # zero-width space
    "zw\u200dj", "zw\u200cnj", "\ufeffbom", "lrm\u200e", "soft\u00adhyphen",
    "line\u2028sep", "para\u2029sep", "priv\ue000ate",
    "   ",  # nothing to show
]


@pytest.mark.parametrize("nickname", REFUSED_NICKNAMES)
async def test_nicknames_that_forge_or_hide_text_are_refused(server, aredis, nickname) -> None:
    client = await Client.open(server.url)
    with pytest.raises(ServerError) as exc:
        await client.request({"type": "create", "nickname": nickname, "bots": [1, 2, 3]})
    assert exc.value.code == "invalid_message" and "nickname" in exc.value.message
    assert not await aredis.keys("gd:room:*")
    await client.close()


async def test_nicknames_are_refused_on_join_too_and_ordinary_ones_pass(server) -> None:
    host = await Client.open(server.url)
    code = (await host.request({"type": "create", "nickname": "小明 🃏"}))["code"]
    guest = await Client.open(server.url)
    for bad in ("Eve\n", "\u202eEve"):
        for spectator in (False, True):
            with pytest.raises(ServerError) as exc:
                await guest.request({"type": "join", "code": code, "nickname": bad, "spectator": spectator})
            assert exc.value.code == "invalid_message"
    for fine in ("Zoë", "José María", "الأمير", "Ann　Lee", "👩🏽‍💻"[:2], "e\u0301"):
        watcher = await Client.open(server.url)
        await watcher.request({"type": "join", "code": code, "nickname": fine, "spectator": True})
        await watcher.close()
    await guest.request({"type": "join", "code": code, "nickname": "Bo"})
    await guest.wait(lambda: guest.room and guest.room["seats"][1]["nickname"] == "Bo")
    assert guest.room["seats"][0]["nickname"] == "小明 🃏"
    for c in (host, guest):
        await c.close()


def _request(port: int, method: str, path: str, headers: dict | None = None) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request(method, path, headers=headers or {})
    resp = conn.getresponse()
    resp.body = resp.read()  # type: ignore[attr-defined]
    conn.close()
    return resp


async def request(port: int, method: str, path: str, headers: dict | None = None) -> http.client.HTTPResponse:
    return await asyncio.to_thread(_request, port, method, path, headers)


@pytest.fixture
def dist(tmp_path: Path) -> Path:
    (tmp_path / "index.html").write_text("<!doctype html><title>Guandan</title>")
    (tmp_path / "app.js").write_text("console.log('hi')")
    return tmp_path


async def test_a_path_too_long_for_the_file_system_is_a_clean_404(start_server, dist, caplog) -> None:
    server = await start_server(client_dir=dist)
    for path in ("/" + "a" * 256, "/" + "b" * 300 + "/app.js", "/x/" + "c" * 1000, "/" + "%00" * 90):
        resp = await request(server.port, "GET", path)
        assert resp.status == 404, path
        if path.endswith(".js"):  # a missing asset: a short text
            assert resp.body == b"not found\n" and resp.getheader("Content-Type") == "text/plain"
        else:  # a page (a mistyped or cut link): a page that leads back to the start
            assert resp.getheader("Content-Type") == "text/html; charset=utf-8"
            assert b"Page not found" in resp.body and b'<a href="/">' in resp.body
    assert (await request(server.port, "GET", "/app.js")).status == 200
    _no_tracebacks(caplog)


async def test_only_get_and_head_are_answered(start_server, dist) -> None:
    server = await start_server(client_dir=dist)
    for path in ("/healthz", "/", "/app.js", "/missing"):
        for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"):
            resp = await request(server.port, method, path)
            assert resp.status == 405 and resp.getheader("Allow") == "GET, HEAD", (method, path)
    head = await request(server.port, "HEAD", "/healthz")
    get = await request(server.port, "GET", "/healthz")
    assert head.status == get.status == 200 and head.body == b""
    assert head.getheader("Content-Length") == get.getheader("Content-Length") == str(len(get.body))
    head = await request(server.port, "HEAD", "/app.js")
    assert head.status == 200 and head.body == b"" and head.getheader("Content-Length") == "17"


async def test_every_http_response_has_the_security_headers(start_server, dist) -> None:
    server = await start_server(client_dir=dist)
    upgrade = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13"}
    cases = [("GET", "/", None, 200), ("GET", "/app.js", None, 200), ("GET", "/healthz", None, 200),
             ("HEAD", "/", None, 200), ("GET", "/nope", None, 404), ("POST", "/healthz", None, 405),
             ("GET", "/ws", None, 426), ("GET", "/ws", upgrade, 400)]  # handshakes websockets refuses
    for method, path, headers, status in cases:
        resp = await request(server.port, method, path, headers)
        assert resp.status == status, (method, path, resp.status)
        assert resp.getheader("Content-Security-Policy") == CSP, (method, path)
        assert resp.getheader("X-Content-Type-Options") == "nosniff"
        assert resp.getheader("X-Frame-Options") == "DENY"
        assert resp.getheader("Referrer-Policy") == "no-referrer"
    assert "frame-ancestors 'none'" in CSP and "script-src 'self'" in CSP and "'unsafe-inline'" not in CSP
    # a WebSocket still opens (its 101 carries them too, harmlessly)
    client = await Client.open(server.url)
    assert client.ws.response.headers["X-Content-Type-Options"] == "nosniff"
    await client.close()
