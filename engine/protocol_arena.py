"""The arena's protocol mode: any four competition-protocol clients against the standalone platform.

    python -m engine.arena --protocol --client heuristic --client random \\
        --client "python3 my_bot.py {url}" --client random --matches 10

Researchers' bots speak the 2020 competition protocol; this runs them the way the old platform did:
``python -m server --competition`` on a free loopback port, then each client command in seat order
(the platform seats connections in the order they arrive, from seat 0: seats 0 and 2 are one team),
waiting for each to connect before starting the next. A client is a shell-style command with
``{url}`` (the platform's address), ``{seat}`` and ``{name}`` filled in, or the name of one of our
bots, optionally with its settings as the arena's teams take them (``strong:margin=0.6``), which then
plays through the protocol with ``python -m server.competition_client``. A client that cannot start,
or exits before it connects, ends the run at once with its command, exit code and last output.

Only processes and their output are used here: the engine imports nothing of the server.
"""

from __future__ import annotations

import json
import queue
import shlex
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from pathlib import Path
from typing import IO, Any

from .bots import BOTS

CONNECT_TIMEOUT = 60.0
#: how long a client that exited is given for the platform to print that it connected all the same
EXIT_GRACE = 1.0


class ArenaError(RuntimeError):
    """The run could not go on: a client or the platform failed; the message says which and why."""


def is_our_bot(spec: str) -> bool:
    """Whether a client is one of our bots (``name`` or ``name:key=value,...``) rather than a command."""
    return spec.partition(":")[0] in BOTS and not any(c.isspace() for c in spec)


def client_command(spec: str, url: str, seat: int) -> list[str]:
    """The argv of one client: our bot by name (with its settings, if any), or the given command with
    its placeholders filled."""
    if is_our_bot(spec):
        name = f"{spec.partition(':')[0]}{seat}"
        return [sys.executable, "-m", "server.competition_client", url, "--bot", spec, "--name", name,
                "--seed", str(seat)]
    return shlex.split(spec.format(url=url, seat=seat, name=f"bot{seat}"))


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
    """Play ``matches`` on the standalone platform with these four clients; returns its summary.

    Raises ArenaError, after stopping every process it started, when a client cannot start or exits
    before it connects (naming its command, exit code and last output), or the platform fails."""
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
        lines = _Lines(platform.stdout)
        started: list[_Client] = []
        try:
            _wait_for_line(lines, "listening on", echo, CONNECT_TIMEOUT)
            for seat, spec in enumerate(clients):
                client = _Client(seat, spec, client_command(spec, url, seat))
                started.append(client)
                _wait_for_line(lines, f"seat {seat}:", echo, CONNECT_TIMEOUT, client)
            _wait_for_line(lines, None, echo, timeout)  # progress until the platform is done
            platform.wait(30)
            if platform.returncode != 0 or not summary_path.exists():
                raise ArenaError(f"the platform failed (exit {platform.returncode})")
            return json.loads(summary_path.read_text())
        finally:
            for proc in (*(c.proc for c in started if c.proc is not None), platform):
                _stop(proc)


class _Lines:
    """A process's output lines, read by a thread so that waiting for one can time out."""

    def __init__(self, stream: IO[str] | None) -> None:
        self.queue: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: IO[str] | None) -> None:
        for line in stream or ():
            self.queue.put(line)
        self.queue.put(None)

    def get(self, timeout: float) -> str | None:
        """The next line, None at the end of the output; queue.Empty after ``timeout`` seconds."""
        return self.queue.get(timeout=max(0.0, timeout))


class _Client:
    """One client process; the last lines of its output are kept (its stderr is passed on too)."""

    def __init__(self, seat: int, spec: str, argv: list[str]) -> None:
        self.seat, self.spec, self.argv = seat, spec, argv
        self.tail: deque[str] = deque(maxlen=20)
        try:
            self.proc: subprocess.Popen[str] | None = subprocess.Popen(
                argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace")
        except OSError as exc:
            self.proc = None
            raise ArenaError(f"client {seat} ({spec!r}) could not start: {exc}") from None
        for stream, out in ((self.proc.stdout, None), (self.proc.stderr, sys.stderr)):
            threading.Thread(target=self._read, args=(stream, out), daemon=True).start()

    def _read(self, stream: IO[str] | None, out: IO[str] | None) -> None:
        for line in stream or ():
            self.tail.append(line.rstrip("\n"))
            if out is not None:
                out.write(line)
                out.flush()

    def failure(self) -> str:
        assert self.proc is not None
        time.sleep(0.2)  # let the reading threads take in its last output
        tail = "\n".join(f"  | {line}" for line in self.tail) or "  (no output)"
        return (f"client {self.seat} ({self.spec!r}, command {shlex.join(self.argv)!r}) exited with code "
                f"{self.proc.returncode} before it connected; its last output:\n{tail}")


def _wait_for_line(lines: _Lines, marker: str | None, echo: Any, timeout: float,
                   client: _Client | None = None) -> None:
    """Echo the platform's lines until one holds ``marker`` (None: until its output ends), failing
    after ``timeout`` seconds, when the platform exits first, or when ``client`` exits first."""
    deadline = time.monotonic() + timeout
    exited_at: float | None = None
    while True:
        now = time.monotonic()
        if now > deadline:
            what = f"print {marker!r}" if marker else "finish"
            raise ArenaError(f"the platform did not {what} in {timeout:.0f} s")
        if client is not None and client.proc is not None and client.proc.poll() is not None:
            exited_at = exited_at or now
            if now - exited_at > EXIT_GRACE:
                raise ArenaError(client.failure())
        try:
            line = lines.get(min(0.2, deadline - now))
        except queue.Empty:
            continue
        if line is None:
            if marker is None:
                return
            raise ArenaError(f"the platform exited before printing {marker!r}")
        if echo is not None:
            echo(line.rstrip())
        if marker is not None and marker in line:
            return


def report(summary: dict[str, Any], clients: list[str]) -> list[str]:
    """Human lines: wins per team, draws, deals, and per seat the turns our bot played for a client,
    its invalid, late and unasked answers and whether it disconnected."""
    wins = summary["victories"]
    matches = summary["matches"]
    teams = [f"{clients[0]} + {clients[2]}", f"{clients[1]} + {clients[3]}"]
    lines = [f"protocol arena: {matches} matches, {summary['deals']} deals in {summary['seconds']:.1f} s "
             "(competition2020 rules)"]
    for team in (0, 1):  # numbered from 0, as the platform's seats (myPos) and teams are
        lines.append(f"team {team} (seats {team} and {team + 2}: {teams[team]}): "
                     f"{wins[team]} of {matches} matches won")
    draws = summary["draws"][0]
    if draws:
        lines.append(f"draws (50 falls from A): {draws}")
    for seat in range(4):  # what went wrong with each client, as the platform's summary counts it
        counts = [(summary.get(key) or [0] * 4)[seat] for key in
                  ("fallback_turns", "invalid_answers", "late_answers", "unasked_answers")]
        gone = (summary.get("disconnects") or [0] * 4)[seat]
        if any(counts) or gone:
            played, invalid, late, unasked = counts
            lines.append(f"seat {seat} ({clients[seat]}): our bot played {played} of its turns; answers "
                         f"invalid {invalid}, late {late}, unasked {unasked}"
                         + ("; disconnected (our bot played on)" if gone else ""))
    return lines
