"""The protocol arena and the platform as researchers run them: real processes on loopback ports, and
what each says when a client, a port or a --summary path is not as expected."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from websockets.asyncio.server import ServerConnection, serve

from engine.protocol_arena import client_command

REPO = Path(__file__).resolve().parents[2]

# A bot that, once the platform's connection ends, saves its results and says so (after a pause), as
# real bots do after gameResult; with "linger" it then keeps running (a bot that never exits).
SAVER = """\
import sys, time
from server.competition_client import main
out, extra, mode = sys.argv[1:4]
code = main(sys.argv[4:])
time.sleep(0.5)
open(out, "w").write(f"exit {code}, extra {extra}")
print(f"saver: results saved to {out}", file=sys.stderr, flush=True)
if mode == "linger":
    time.sleep(60)
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def arena(*argv: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine.arena", "--protocol", *argv], cwd=REPO,
                          capture_output=True, text=True, timeout=timeout)


def saver(tmp_path: Path, seat: int, mode: str = "exit") -> str:
    """A --client command running SAVER; its extra argument holds braces that are no placeholder."""
    script = tmp_path / "saver.py"
    script.write_text(SAVER)
    out = tmp_path / f"saved{seat}.txt"
    return (f"{sys.executable} {script} {out} '{{\"depth\": {seat}}}' {mode} {{url}} --bot random "
            f"--name {{name}}")


def test_clients_get_a_grace_period_to_save_their_results_and_are_stopped_after_it(tmp_path: Path):
    t0 = time.monotonic()
    done = arena("--client", "random", "--client", saver(tmp_path, 1), "--client", "random",
                 "--client", saver(tmp_path, 3, "linger"), "--exit-grace", "4", "--seed", "12", "--quiet")
    assert done.returncode == 0, done.stdout + done.stderr
    assert time.monotonic() - t0 < 40  # the lingering client was stopped, not waited out
    for seat in (1, 3):  # both saved their results, the braces of their argument as written
        assert (tmp_path / f"saved{seat}.txt").read_text() == f'exit 0, extra {{"depth": {seat}}}'
        assert f"saver: results saved to {tmp_path / f'saved{seat}.txt'}" in done.stderr
    assert "arena: client 3 (" in done.stderr
    assert "still running 4 s after the platform finished: stopped (--exit-grace" in done.stderr
    assert "client 1 (" not in done.stderr
    assert "protocol arena: 1 matches" in done.stdout


def test_placeholders_are_replaced_and_other_braces_pass_through() -> None:
    spec = """my-bot --opts '{"depth": 2, "name": "x"}' --env ${HOME} {url}/game/{name} --seat={seat} {x}"""
    assert client_command(spec, "ws://127.0.0.1:9", 1) == [
        "my-bot", "--opts", '{"depth": 2, "name": "x"}', "--env", "${HOME}", "ws://127.0.0.1:9/game/bot1",
        "--seat=1", "{x}"]


def test_a_client_that_never_connects_is_named_with_what_it_should_have_done() -> None:
    asleep = f"{sys.executable} -c 'import time; print(\"waiting for a key\", flush=True); time.sleep(30)'"
    t0 = time.monotonic()
    done = arena("--client", "random", "--client", asleep, "--client", "random", "--client", "random",
                 "--connect-timeout", "1", "--quiet")
    assert done.returncode == 1, done.stdout + done.stderr
    assert time.monotonic() - t0 < 25
    failure = next(line for line in done.stderr.splitlines() if line.startswith("arena: "))
    assert failure.startswith("arena: client 1 (") and "time.sleep(30)" in failure
    assert "did not connect in 1 s: a client must connect to ws://127.0.0.1:" in failure
    assert "/game/<name> (--connect-timeout to wait longer)" in failure
    assert "  | waiting for a key" in done.stderr and "platform did not" not in done.stderr


def test_the_arena_runs_bots_with_a_fixed_address_on_its_port() -> None:
    port = free_port()
    fixed = f"{sys.executable} -m server.competition_client ws://127.0.0.1:{port} --bot random --name fixed"
    done = arena("--client", "random", "--client", fixed, "--client", "random", "--client", fixed,
                 "--port", str(port), "--seed", "3", "--quiet")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "protocol arena: 1 matches" in done.stdout


def test_an_arena_port_in_use_is_said_in_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = arena(*["--client", "random"] * 4, "--port", str(port), "--quiet")
        platform = subprocess.run([sys.executable, "-m", "server", "--competition", "--host", "127.0.0.1",
                                   "--port", str(port)], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert f"cannot listen on 127.0.0.1:{port}: Address already in use" in done.stderr.splitlines()[-1]
    assert platform.returncode == 1 and platform.stdout == ""
    assert platform.stderr == f"guandan-server: cannot listen on 127.0.0.1:{port}: Address already in use\n"


def test_an_unwritable_summary_is_refused_before_anything_runs(tmp_path: Path) -> None:
    path = tmp_path / "no-such-dir" / "summary.json"
    done = arena(*["--client", "random"] * 4, "--summary", str(path))
    platform = subprocess.run([sys.executable, "-m", "server", "--competition", "--port", str(free_port()),
                               "--summary", str(path)], cwd=REPO, capture_output=True, text=True, timeout=60)
    for run, prog in ((done, "python -m engine.arena"), (platform, "guandan-server")):
        assert run.returncode == 2 and run.stdout == ""
        assert run.stderr == f"{prog}: error: cannot write --summary {path}: No such file or directory\n"
    from engine.arena import summary_problem

    kept, new = tmp_path / "kept.json", tmp_path / "new.json"  # the check changes nothing it passes
    kept.write_text("old")
    assert summary_problem(str(kept)) is None and summary_problem(str(new)) is None
    assert kept.read_text() == "old" and sorted(os.listdir(tmp_path)) == ["kept.json"]


needs_dev_full = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")


@needs_dev_full
def test_a_summary_that_fails_at_the_end_still_leaves_the_report() -> None:
    """/dev/full opens, then refuses the write: as a disk that fills up during a long run."""
    done = arena(*["--client", "random"] * 4, "--summary", "/dev/full", "--seed", "12", "--quiet")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "protocol arena: 1 matches" in done.stdout and "wall time" in done.stdout
    assert done.stderr.splitlines()[-1] == "arena: cannot write --summary /dev/full: No space left on device"


@needs_dev_full
def test_the_platform_keeps_its_output_when_the_summary_fails_at_the_end() -> None:
    port = free_port()
    platform = subprocess.Popen(
        [sys.executable, "-m", "server", "--competition", "--host", "127.0.0.1", "--port", str(port),
         "--settle", "0", "--summary", "/dev/full"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    clients = []
    try:
        assert platform.stdout is not None and "listening on" in platform.stdout.readline()
        for seat in range(4):
            clients.append(subprocess.Popen(
                [sys.executable, "-m", "server.competition_client", f"ws://127.0.0.1:{port}", "--bot",
                 "random", "--name", f"r{seat}"], cwd=REPO, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL))
            assert f"seat {seat}:" in platform.stdout.readline()
        out, err = platform.communicate(timeout=60)
    finally:
        for proc in (*clients, platform):
            if proc.poll() is None:
                proc.kill()
            proc.wait()
    assert platform.returncode == 1 and "done: 1 matches" in out
    assert err.splitlines()[-1] == "guandan-server: cannot write --summary /dev/full: No space left on device"


def test_the_arena_documents_its_placeholders_and_options() -> None:
    text = " ".join(subprocess.run([sys.executable, "-m", "engine.arena", "--help"], cwd=REPO,
                                   capture_output=True, text=True, timeout=60).stdout.split())
    assert "{url} becomes the platform's address ws://127.0.0.1:PORT (the bot connects to " \
           "{url}/game/<name>), {seat} the seat (0-3) and {name} bot<seat>" in text
    assert "--port PORT the platform's loopback port" in text and "(default: a free port)" in text
    assert "--connect-timeout S seconds each client has to connect once started (default 60)" in text
    assert "--exit-grace S seconds the clients have to exit on their own" in text and "(default 10)" in text
    readme = " ".join((REPO / "README.md").read_text().split())
    assert "`{url}` is the platform's address, `ws://127.0.0.1:PORT`" in readme
    assert "--port 23456" in readme and "--exit-grace" in readme and "--connect-timeout" in readme


@pytest.mark.parametrize("how", ["killed", "closed"])
async def test_the_competition_client_says_in_one_line_when_the_platform_goes_away(how: str) -> None:
    """A platform killed mid-match (no close frame) or one that closes before gameResult: one line
    and exit code 1, not a ConnectionClosedError traceback or a silent success."""

    async def platform(ws: ServerConnection) -> None:
        await ws.send(json.dumps({"type": "notify", "stage": "gameOver", "curTimes": 1, "settingTimes": 2}))
        await asyncio.sleep(0.2)
        if how == "killed":
            ws.transport.abort()
        else:
            await ws.close()

    async with serve(platform, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        client = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "server.competition_client", f"ws://127.0.0.1:{port}", cwd=REPO,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        _out, err = await asyncio.wait_for(client.communicate(), 60)
    assert client.returncode == 1
    text = err.decode()
    assert text.startswith(f"competition_client: ws://127.0.0.1:{port}: the platform closed the "
                           "connection before gameResult")
    assert len(text.splitlines()) == 1 and "Traceback" not in text
