"""The arena's protocol mode: four protocol clients (any commands) against the standalone platform."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.protocol_arena import client_command

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def test_four_clients_by_name_and_by_command_play_whole_matches(tmp_path: Path) -> None:
    external = f"{sys.executable} -m server.competition_client {{url}} --bot random --name ext{{seat}}"
    done = subprocess.run(
        [sys.executable, "-m", "engine.arena", "--protocol", "--client", "heuristic", "--client", external,
         "--client", "heuristic", "--client", external, "--matches", "2", "--seed", "5",
         "--summary", str(tmp_path / "summary.json")],
        cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "protocol arena: 2 matches" in out
    team1 = int(out.split("heuristic + heuristic): ")[1].split(" of")[0])
    team2 = int(out.split("random --name ext{seat}): ")[1].split(" of")[0])
    assert team1 + team2 == 2  # every match has a winner (no 50 falls from A here)
    assert "seat 0: heuristic0 connected" in done.stderr and "seat 1: ext1 connected" in done.stderr
    summary = json.loads((tmp_path / "summary.json").read_text())  # --summary: the platform's own
    assert summary["matches"] == 2 and sum(summary["victories"]) == 4
    assert len(summary["actions"]) == 2 and summary["invalid_answers"] == [0, 0, 0, 0]


def test_client_commands_fill_in_url_seat_and_name() -> None:
    assert client_command("random", "ws://127.0.0.1:9", 2)[-6:] == [
        "ws://127.0.0.1:9", "--bot", "random", "--name", "random2", "--seed", "2"][-6:]
    assert client_command("my-bot --at {url} --pos {seat}", "ws://h:1", 3) == [
        "my-bot", "--at", "ws://h:1", "--pos", "3"]
    with pytest.raises(ValueError):
        from engine.protocol_arena import run_protocol

        run_protocol(["random"] * 3, 1, 0)


def test_the_strong_bot_plays_a_whole_match_through_the_protocol() -> None:
    """``--client strong`` (the competition client with ``--bot strong``): views rebuilt from the
    protocol's messages, tribute and returns included; no act falls back."""
    done = subprocess.run(
        [sys.executable, "-m", "engine.arena", "--protocol", "--client", "strong", "--client", "random",
         "--client", "strong", "--client", "random", "--matches", "1", "--seed", "3"],
        cwd=REPO, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "protocol arena: 1 matches" in out
    assert int(out.split("strong + strong): ")[1].split(" of")[0]) == 1
    assert "seat 0: strong0 connected" in done.stderr
    assert "our bot played" not in out  # no act timed out or was invalid


def test_a_client_that_exits_before_connecting_stops_the_run_at_once() -> None:
    """A client command that exits (here a bot whose module is missing) ends the run within seconds with
    its command, exit code and last output, and every process the arena started is stopped."""
    broken = f"{sys.executable} -c 'import their_missing_bot_module' {{url}}"
    t0 = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "engine.arena", "--protocol", "--client", "random", "--client", broken,
         "--client", "random", "--client", "random", "--matches", "1"],
        cwd=REPO, capture_output=True, text=True, timeout=50)  # under CONNECT_TIMEOUT: no waiting it out
    assert done.returncode == 1, done.stdout + done.stderr
    assert time.monotonic() - t0 < 30
    err = done.stderr.splitlines()
    failure = next(line for line in err if line.startswith("arena: client 1 "))
    assert "import their_missing_bot_module" in failure and "exited with code 1" in failure
    assert "  | ModuleNotFoundError: No module named 'their_missing_bot_module'" in err
    assert "engine/arena.py" not in done.stderr  # a message, not the arena's traceback
    # capture_output waits for the pipes to close: a platform or client left running would hold them


def test_a_client_command_that_cannot_start_is_named() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine.arena", "--protocol", "--client", "no-such-bot-command {url}",
         "--client", "random", "--client", "random", "--client", "random", "--quiet"],
        cwd=REPO, capture_output=True, text=True, timeout=50)
    assert done.returncode == 1
    assert "arena: client 0 ('no-such-bot-command {url}') could not start" in done.stderr
    assert "Traceback" not in done.stderr


def test_our_bots_as_clients_take_settings_as_the_arenas_teams_do() -> None:
    assert client_command("strong:margin=0.6,z=1.5", "ws://127.0.0.1:9", 1)[3:] == [
        "ws://127.0.0.1:9", "--bot", "strong:margin=0.6,z=1.5", "--name", "strong1", "--seed", "1"]
    for argv in (["engine.arena", "--protocol", "--client", "strong:nosuch=1", "--client", "random",
                  "--client", "random", "--client", "random"],
                 ["server.competition_client", "ws://127.0.0.1:9", "--bot", "strong:nosuch=1"],
                 ["server.competition_client", "ws://127.0.0.1:9", "--bot", "nosuch"]):
        done = subprocess.run([sys.executable, "-m", *argv], cwd=REPO, capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 2, done.stderr  # a usage error, before anything starts
        assert "error:" in done.stderr and "Traceback" not in done.stderr
        assert "nosuch" in done.stderr


def test_the_competition_client_says_in_one_line_when_it_cannot_connect() -> None:
    with socket.socket() as sock:  # a loopback port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    done = subprocess.run([sys.executable, "-m", "server.competition_client", f"ws://127.0.0.1:{port}"],
                          cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.startswith(f"competition_client: cannot connect to ws://127.0.0.1:{port}: ")
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr


def test_the_command_lines_name_themselves_and_explain_their_options() -> None:
    def help_of(module: str) -> str:
        return subprocess.run([sys.executable, "-m", module, "--help"], cwd=REPO, capture_output=True,
                              text=True, timeout=60).stdout

    client = help_of("server.competition_client")
    assert client.startswith("usage: python -m server.competition_client ")
    assert "random, heuristic, strong" in client and "strong:margin=0.6" in client
    flat = " ".join(client.split())
    assert "--name NAME the name this client connects with" in flat
    assert "--seed SEED seed of the bot's own random choices" in flat
    assert "a room's AI seat whole, ws://HOST:PORT/game/<secret>" in flat and "--rules" in flat
    assert help_of("engine.simulate").startswith("usage: python -m engine.simulate ")
    assert "seat N's bot of ours gets seed N" in " ".join(help_of("engine.arena").split())
