"""The arena's protocol mode: any four competition-protocol clients against the standalone platform.

    python -m engine.arena --protocol --client heuristic --client random \\
        --client "python3 my_bot.py {url}" --client random --matches 10

Researchers' bots speak the 2020 competition protocol; this runs them the way the old platform did:
``python -m server --competition`` on a free loopback port, then each client command in seat order
(the platform seats connections in the order they arrive: 1st and 3rd are one team), waiting for each
to connect before starting the next. A client is a shell-style command with ``{url}`` (the platform's
address), ``{seat}`` and ``{name}`` filled in, or the name of one of our bots, which then plays
through the protocol with ``python -m server.competition_client``.

Only processes and their output are used here: the engine imports nothing of the server.
"""

from __future__ import annotations

import json
import shlex
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from .bots import BOTS

CONNECT_TIMEOUT = 60.0


def client_command(spec: str, url: str, seat: int) -> list[str]:
    """The argv of one client: our bot by name, or the given command with its placeholders filled."""
    name = f"{spec}{seat}" if spec in BOTS else f"bot{seat}"
    if spec in BOTS:
        return [sys.executable, "-m", "server.competition_client", url, "--bot", spec, "--name", name,
                "--seed", str(seat)]
    return shlex.split(spec.format(url=url, seat=seat, name=name))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _stop(proc: subprocess.Popen[Any]) -> None:
    """Stop one process we started, by its pid: terminate, then kill if it lingers."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def run_protocol(clients: list[str], matches: int, seed: int, act_timeout: float | None = None,
                 timeout: float = 3600.0, echo: Any = None) -> dict[str, Any]:
    """Play ``matches`` on the standalone platform with these four clients; returns its summary."""
    if len(clients) != 4:
        raise ValueError(f"the platform seats exactly four clients, not {len(clients)}")
    port = _free_port()
    url = f"ws://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        summary_path = Path(tmp) / "summary.json"
        cmd = [sys.executable, "-m", "server", "--competition", "--host", "127.0.0.1", "--port", str(port),
               "--matches", str(matches), "--seed", str(seed), "--summary", str(summary_path)]
        if act_timeout is not None:
            cmd += ["--act-timeout", str(act_timeout)]
        platform = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        started: list[subprocess.Popen[Any]] = []
        try:
            _wait_for_line(platform, "listening on", echo)
            for seat, spec in enumerate(clients):
                started.append(subprocess.Popen(client_command(spec, url, seat), stdout=subprocess.DEVNULL))
                _wait_for_line(platform, f"seat {seat}:", echo)
            deadline = time.monotonic() + timeout
            for line in platform.stdout:  # progress until the platform is done
                if echo is not None:
                    echo(line.rstrip())
                if time.monotonic() > deadline:
                    raise TimeoutError(f"the platform did not finish {matches} matches in {timeout:.0f} s")
            platform.wait(30)
            if platform.returncode != 0 or not summary_path.exists():
                raise RuntimeError(f"the platform failed (exit {platform.returncode})")
            return json.loads(summary_path.read_text())
        finally:
            for proc in (*started, platform):
                _stop(proc)


def _wait_for_line(proc: subprocess.Popen[str], marker: str, echo: Any) -> None:
    deadline = time.monotonic() + CONNECT_TIMEOUT
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the platform exited before printing {marker!r}")
        if echo is not None:
            echo(line.rstrip())
        if marker in line:
            return
    raise TimeoutError(f"the platform did not print {marker!r} in {CONNECT_TIMEOUT:.0f} s")


def report(summary: dict[str, Any], clients: list[str]) -> list[str]:
    """Human lines: wins per team and per seat, draws, deals, turns our bot played for a client."""
    wins = summary["victories"]
    matches = summary["matches"]
    teams = [f"{clients[0]} + {clients[2]}", f"{clients[1]} + {clients[3]}"]
    lines = [f"protocol arena: {matches} matches, {summary['deals']} deals in {summary['seconds']:.1f} s "
             "(competition2020 rules)"]
    for team in (0, 1):
        lines.append(f"team {team + 1} (seats {team + 1} and {team + 3}: {teams[team]}): "
                     f"{wins[team]} of {matches} matches won")
    draws = summary["draws"][0]
    if draws:
        lines.append(f"draws (50 falls from A): {draws}")
    fallback = summary["fallback_turns"]
    if any(fallback):
        lines.append(f"turns our bot played for a slow, invalid or disconnected client, per seat: {fallback}")
    gone = summary["disconnects"]
    if any(gone):
        lines.append("clients that disconnected (our bot played on): "
                     + ", ".join(f"seat {s + 1} ({clients[s]})" for s, n in enumerate(gone) if n))
    return lines
