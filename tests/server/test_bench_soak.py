"""Issue 15, Must show 2, bounded: the soak benchmark (bench/soak.py) for half a minute: scripted rooms
play on two server processes while clients are cut, a server and Redis are SIGKILLed and restarted,
and afterwards no acknowledged action is lost or doubled, no room is stuck and no view leaked. The
10-minute run is in bench/RESULTS.md."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_a_short_soak_under_chaos_loses_doubles_and_leaks_nothing(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "bench/soak.py", "--rooms", "3", "--minutes", "0.5",
                           "--chaos-every", "3", "--settle", "60", "--logs", str(tmp_path)],
                          cwd=REPO, capture_output=True, text=True, timeout=400)
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "lost 0, doubled 0, stuck 0, leaks 0" in out, out
    faults = re.search(r"faults injected: drop (\d+) \((\d+) connections cut\), server (\d+) .*redis (\d+) ",
                       out)
    assert faults and all(int(n) >= 1 for n in faults.groups()), out  # every kind of fault happened
    assert int(re.search(r"checked: (\d+) rebuilt views", out).group(1)) > 100, out
    assert int(re.search(r"actions: (\d+) acknowledged", out).group(1)) > 50, out
    assert "tracebacks in the server logs: 0" in out and "replays differing: 0" in out, out
