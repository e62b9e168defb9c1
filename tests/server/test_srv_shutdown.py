"""Shutdown always ends, even when a background task swallows its cancellation; start-up is awaited
and a server that fails to start says why.

redis-py can turn the cancellation of a waiting ``get_message(timeout=...)`` into an ordinary timeout
(it returns None), and the pub/sub loop used to go round for ever: a server that never stopped and a
test suite that hung in teardown (seen in CI). These tests make that happen on purpose.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time

import pytest
from redis.asyncio import Redis
from srv_client import free_port

from server.app import Config, GameServer
from server.lifecycle import stop_process, stop_tasks, wait_healthy


async def test_close_ends_when_the_pubsub_read_swallows_its_cancellation(redis_url: str) -> None:
    client = Redis.from_url(redis_url)
    app = GameServer(Config(host="127.0.0.1", port=0, poll=0.05, heartbeat=0.05), client)
    real_get_message = app.pubsub.get_message
    swallowed = 0

    async def get_message_that_swallows(**kwargs):  # type: ignore[no-untyped-def]
        nonlocal swallowed
        try:
            return await real_get_message(**kwargs)
        except asyncio.CancelledError:
            swallowed += 1
            return None  # what a read timeout racing the cancellation looks like to the caller

    app.pubsub.get_message = get_message_that_swallows  # type: ignore[method-assign]
    await app.start()
    await asyncio.sleep(0.2)
    started = time.monotonic()
    await asyncio.wait_for(app.close(), 10)
    took = time.monotonic() - started
    await client.aclose()
    assert swallowed >= 1, "the test did not exercise a swallowed cancellation"
    assert all(t.done() for t in app._tasks) and all(t.done() for t in app.scheduler._tasks)
    assert took < 4.5, f"close took {took:.1f} s"  # under stop_tasks' 5 s bound: nothing hung


async def test_stop_tasks_names_a_task_that_will_not_stop_and_returns(caplog) -> None:  # type: ignore[no-untyped-def]
    release = asyncio.Event()

    async def stubborn() -> None:
        while not release.is_set():
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                pass

    async def polite() -> None:
        await asyncio.sleep(10)

    tasks = [asyncio.create_task(stubborn(), name="stubborn"), asyncio.create_task(polite(), name="polite")]
    await asyncio.sleep(0)
    started = time.monotonic()
    await stop_tasks(tasks, timeout=0.3)
    assert 0.25 < time.monotonic() - started < 2
    assert tasks[1].cancelled() and not tasks[0].done()
    assert "stubborn did not stop" in caplog.text and "polite" not in caplog.text
    release.set()
    tasks[0].cancel()
    await asyncio.wait(tasks[:1], timeout=1)
    assert tasks[0].done()


def test_wait_healthy_reports_a_server_that_exits_with_its_log(tmp_path) -> None:  # type: ignore[no-untyped-def]
    log_file = tmp_path / "server.log"
    with log_file.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-c", "print('bad config'); raise SystemExit(3)"],
                                stdout=out, stderr=subprocess.STDOUT)
        with pytest.raises(RuntimeError, match=r"exited with 3:\n(.|\n)*bad config"):
            wait_healthy(free_port(), proc, log_file, timeout=30)


def test_wait_healthy_gives_up_on_a_server_that_never_answers(tmp_path) -> None:  # type: ignore[no-untyped-def]
    log_file = tmp_path / "server.log"
    log_file.write_text("still starting\n")
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        with pytest.raises(RuntimeError, match="did not come up in 1 s:\nstill starting"):
            wait_healthy(free_port(), proc, log_file, timeout=1)
    finally:
        stop_process(proc)
