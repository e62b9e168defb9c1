"""Plain HTTP on the WebSocket port: health check, the built client, a clear page when not built."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from server.cli import config_from_args, parse_args


def _get(url: str) -> tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type", ""), e.read()


async def get(url: str) -> tuple[int, str, bytes]:
    return await asyncio.to_thread(_get, url)


async def test_healthz(server) -> None:
    status, ctype, body = await get(server.http + "/healthz")
    assert status == 200 and ctype == "application/json"
    assert json.loads(body) == {"status": "ok", "protocol": 1}


async def test_unbuilt_client_gets_a_clear_page(server) -> None:
    status, ctype, body = await get(server.http + "/")
    assert status == 200 and ctype.startswith("text/html")
    assert b"not built" in body and b"npm run build" in body
    assert (await get(server.http + "/app.js"))[0] == 404


@pytest.fixture
def dist(tmp_path: Path) -> Path:
    (tmp_path / "index.html").write_text("<!doctype html><title>Guandan</title>")
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "app.js").write_text("console.log('hi')")
    (tmp_path.parent / "secret.txt").write_text("nope")
    return tmp_path


async def test_built_client_is_served(start_server, dist: Path) -> None:
    server = await start_server(client_dir=dist)
    status, ctype, body = await get(server.http + "/")
    assert status == 200 and ctype.startswith("text/html") and b"<title>Guandan</title>" in body
    status, ctype, body = await get(server.http + "/assets/app.js?v=3")
    assert status == 200 and "javascript" in ctype and body == b"console.log('hi')"
    assert (await get(server.http + "/missing.css"))[0] == 404
    assert (await get(server.http + "/../secret.txt"))[0] == 404
    assert (await get(server.http + "/assets/../../secret.txt"))[0] == 404


async def test_a_relative_client_dir_is_served(start_server, dist: Path, monkeypatch) -> None:
    monkeypatch.chdir(dist.parent)
    config = config_from_args(parse_args(["--client-dir", dist.name]))
    server = await start_server(client_dir=config.client_dir)
    status, _ctype, body = await get(server.http + "/")
    assert status == 200 and b"<title>Guandan</title>" in body
    assert (await get(server.http + "/assets/app.js"))[0] == 200


async def test_ws_path_without_upgrade_is_refused(server) -> None:
    status, _ctype, _body = await get(server.http + "/ws")
    assert status in (400, 426)
