"""The load benchmark (bench/load.py) still runs end to end and prints its figures; speed is not asserted
here (bench/RESULTS.md records it), only that the benchmark has not rotted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _run(*args: str) -> str:
    done = subprocess.run([sys.executable, "bench/load.py", *args], cwd=REPO, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_two_rooms_play_and_the_figures_are_printed() -> None:
    out = _run("--rooms", "2", "--seconds", "1.5", "--warmup", "0.5")
    for figure in ("actions per second: ", "latency action -> last seat's diff ms: p50 ",
                   "server CPU per action: ", "server 1 (pid ", "resident ", "bytes per diff: median ",
                   "bytes per snapshot: median ", "connections held: 8 of 8 answered a ping"):
        assert figure in out, out
    actions = float(out.split("actions per second: ", 1)[1].split()[0])
    assert actions > 0, out  # the clients really played (how fast is for bench/RESULTS.md)


def test_idle_connections_are_held() -> None:
    out = _run("--idle", "8", "--seconds", "0.5", "--warmup", "0")
    assert "idle connections held: 8 of 8 answered a ping" in out, out
    assert "server resident memory per connection: " in out, out
