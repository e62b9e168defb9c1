"""The arena's protocol mode: any four competition-protocol clients against the standalone platform.

    python -m engine.arena --protocol --client heuristic --client random \\
        --client "python3 my_bot.py {url}" --client random --matches 10

Researchers' bots speak the 2020 competition protocol; this runs them the way the old platform did:
``python -m server --competition`` on a loopback port (``--port``, else a free one), then each client
command in seat order (the platform seats connections in the order they arrive, from seat 0: seats 0
and 2 are one team), waiting for each to connect before starting the next. A client is a shell-style
command, or the name of one of our bots, optionally with its settings as the arena's teams take them
(``strong:margin=0.6``), which then plays through the protocol with ``python -m
server.competition_client``. In a command, ``{url}`` becomes the platform's address
(``ws://127.0.0.1:PORT``, without a path: the bot connects to ``{url}/game/<name>``), ``{seat}`` the seat
(0-3) and ``{name}`` ``bot<seat>``; any other braces are left as written. A client that cannot start,
exits before it connects, or does not connect in ``connect_timeout`` seconds ends the run at once with
its command, exit code and last output. After a normal end each client gets ``exit_grace`` seconds to
exit on its own (a bot may save its logs after ``gameResult``) before it is stopped.

Only processes and their output are used here: the engine imports nothing of the server.
"""

from __future__ import annotations

import json
import os
import queue
import shlex
import shutil
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

#: seconds a client has to connect (``--connect-timeout``), and the platform to start listening
CONNECT_TIMEOUT = 60.0
#: seconds each client has to exit on its own after a normal end (``--exit-grace``) before it is stopped
EXIT_GRACE = 10.0
#: how long a client that exited is given for the platform to print that it connected all the same
CONNECTED_GRACE = 1.0


class ArenaError(RuntimeError):
    """The run could not go on: a client or the platform failed; the message says which and why."""


def is_our_bot(spec: str) -> bool:
    """Whether a client is one of our bots (``name`` or ``name:key=value,...``) rather than a command."""
    return spec.partition(":")[0] in BOTS and not any(c.isspace() for c in spec)


def fill_placeholders(spec: str, url: str, seat: int) -> str:
    """The command with ``{url}``, ``{seat}`` and ``{name}`` filled in by plain replacement, so that any
    other braces (a JSON argument, a shell ``${VAR}``) reach the client as written."""
    for key, value in (("{url}", url), ("{seat}", str(seat)), ("{name}", f"bot{seat}")):
        spec = spec.replace(key, value)
    return spec


def client_command(spec: str, url: str, seat: int) -> list[str]:
    """The argv of one client: our bot by name (with its settings, if any), or the given command with
    its placeholders filled. ValueError when the command cannot be split as a shell would."""
    if is_our_bot(spec):
        name = f"{spec.partition(':')[0]}{seat}"
        return [sys.executable, "-m", "server.competition_client", url, "--bot", spec, "--name", name,
                "--seed", str(seat)]
    argv = shlex.split(fill_placeholders(spec, url, seat))
    if not argv:
        raise ValueError("the command is empty")
    return argv


def client_problem(spec: str) -> str | None:
    """Why a command client cannot run, found before anything starts (None: try it). A single word
    that is no bot of ours and no program on PATH is most likely a misspelt bot name."""
    if is_our_bot(spec):
        return None
    try:
        argv = client_command(spec, "ws://127.0.0.1:1", 0)
    except ValueError as exc:
        return f"not a command line: {exc}"
    single_word = not any(c.isspace() for c in spec) and os.sep not in spec and "/" not in spec
    if single_word and shutil.which(argv[0]) is None:
        return (f"no bot named {spec.partition(':')[0]!r} (bots: {', '.join(sorted(BOTS))}) "
                "and no such command")
    return None


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
                 timeout: float = 3600.0, echo: Any = None, port: int | None = None,
                 connect_timeout: float = CONNECT_TIMEOUT, exit_grace: float = EXIT_GRACE) -> dict[str, Any]:
    """Play ``matches`` on the standalone platform (on ``port``, else a free one) with these four
    clients; returns its summary. After the platform is done each client has ``exit_grace`` seconds to
    exit on its own (a bot may save its logs after ``gameResult``) before it is stopped.

    Raises ArenaError, after stopping every process it started at once, when a command cannot be
    parsed, a client cannot start, exits before it connects or does not connect in ``connect_timeout``
    seconds (naming its command, exit code and last output), or the platform fails."""
    if len(clients) != 4:
        raise ValueError(f"the platform seats exactly four clients, not {len(clients)}")
    port = _free_port() if port is None else port
    url = f"ws://127.0.0.1:{port}"
    argvs = _client_argvs(clients, url)  # every command checked before anything starts
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
                client = _Client(seat, spec, argvs[seat], url)
                started.append(client)
                _wait_for_line(lines, f"seat {seat}:", echo, connect_timeout, client)
            _wait_for_line(lines, None, echo, timeout)  # progress until the platform is done
            platform.wait(30)
            if platform.returncode != 0 or not summary_path.exists():
                raise ArenaError(f"the platform failed (exit {platform.returncode})")
            summary = json.loads(summary_path.read_text())
            _let_clients_finish(started, exit_grace)
            return summary
        finally:
            for proc in (*(c.proc for c in started if c.proc is not None), platform):
                _stop(proc)
            drained_by = time.monotonic() + 2.0
            for c in started:
                c.drain(drained_by)


def _client_argvs(clients: list[str], url: str) -> list[list[str]]:
    """Each client's argv; ArenaError naming the first whose command cannot be split."""
    argvs = []
    for seat, spec in enumerate(clients):
        try:
            argvs.append(client_command(spec, url, seat))
        except ValueError as exc:
            raise ArenaError(f"client {seat} ({spec!r}) is not a command line: {exc}") from None
    return argvs


def _let_clients_finish(clients: list[_Client], grace: float) -> None:
    """Wait up to ``grace`` seconds in all for the clients to exit by themselves; say which did not
    (the caller then stops them)."""
    deadline = time.monotonic() + grace
    for c in clients:
        if c.proc is None:
            continue
        try:
            c.proc.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            print(f"arena: client {c.seat} ({c.spec!r}) still running {grace:g} s after the platform "
                  "finished: stopped (--exit-grace to wait longer)", file=sys.stderr, flush=True)


class _Lines:
    """A process's output lines, read by a thread so that waiting for one can time out; the last few
    are kept to say why it failed."""

    def __init__(self, stream: IO[str] | None) -> None:
        self.queue: queue.Queue[str | None] = queue.Queue()
        self.tail: deque[str] = deque(maxlen=5)
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: IO[str] | None) -> None:
        for line in stream or ():
            self.tail.append(line.rstrip("\n"))
            self.queue.put(line)
        self.queue.put(None)

    def get(self, timeout: float) -> str | None:
        """The next line, None at the end of the output; queue.Empty after ``timeout`` seconds."""
        return self.queue.get(timeout=max(0.0, timeout))


class _Client:
    """One client process; the last lines of its output are kept (its stderr is passed on too)."""

    def __init__(self, seat: int, spec: str, argv: list[str], url: str) -> None:
        self.seat, self.spec, self.argv, self.url = seat, spec, argv, url
        self.tail: deque[str] = deque(maxlen=20)
        self.readers: list[threading.Thread] = []
        try:
            self.proc: subprocess.Popen[str] | None = subprocess.Popen(
                argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace")
        except OSError as exc:
            self.proc = None
            raise ArenaError(f"client {seat} ({spec!r}) could not start: {exc}") from None
        for stream, out in ((self.proc.stdout, None), (self.proc.stderr, sys.stderr)):
            reader = threading.Thread(target=self._read, args=(stream, out), daemon=True)
            reader.start()
            self.readers.append(reader)

    def _read(self, stream: IO[str] | None, out: IO[str] | None) -> None:
        for line in stream or ():
            self.tail.append(line.rstrip("\n"))
            if out is not None:
                out.write(line)
                out.flush()

    def drain(self, by: float) -> None:
        """Once the process is gone: let the readers pass on the last of its output (until ``by``, a
        time.monotonic(): a child it left behind may hold its pipes open)."""
        for reader in self.readers:
            reader.join(max(0.0, by - time.monotonic()))

    def _described(self) -> str:
        return f"client {self.seat} ({self.spec!r}, command {shlex.join(self.argv)!r})"

    def _tail(self) -> str:
        time.sleep(0.2)  # let the reading threads take in its last output
        return "\n".join(f"  | {line}" for line in self.tail) or "  (no output)"

    def failure(self) -> str:
        assert self.proc is not None
        return (f"{self._described()} exited with code {self.proc.returncode} before it connected; "
                f"its last output:\n{self._tail()}")

    def never_connected(self, timeout: float) -> str:
        return (f"{self._described()} is running but did not connect in {timeout:g} s: a client must "
                f"connect to {self.url}/game/<name> (--connect-timeout to wait longer); its last output:\n"
                f"{self._tail()}")


def _wait_for_line(lines: _Lines, marker: str | None, echo: Any, timeout: float,
                   client: _Client | None = None) -> None:
    """Echo the platform's lines until one holds ``marker`` (None: until its output ends), failing
    after ``timeout`` seconds (naming ``client`` when it is the one awaited), when the platform exits
    first, or when ``client`` exits first."""
    deadline = time.monotonic() + timeout
    exited_at: float | None = None
    while True:
        now = time.monotonic()
        if now > deadline:
            if client is not None:
                raise ArenaError(client.never_connected(timeout))
            what = f"print {marker!r}" if marker else "finish"
            raise ArenaError(f"the platform did not {what} in {timeout:.0f} s")
        if client is not None and client.proc is not None and client.proc.poll() is not None:
            exited_at = exited_at or now
            if now - exited_at > CONNECTED_GRACE:
                raise ArenaError(client.failure())
        try:
            line = lines.get(min(0.2, deadline - now))
        except queue.Empty:
            continue
        if line is None:
            if marker is None:
                return
            last = f": {lines.tail[-1]}" if lines.tail else ""
            raise ArenaError(f"the platform exited before printing {marker!r}{last}")
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
