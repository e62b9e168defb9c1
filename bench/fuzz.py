"""The protocol fuzzer of the test suite (tests/server/fuzzing.py), run for a million frames.

Run (from the repository root):

    nice -n 10 python bench/fuzz.py --frames 1000000

It starts its own redis-server and two ``python -m server`` processes on free loopback ports in a
temporary folder, and stops them by process id at the end. ``--workers`` processes (generating frames
with hypothesis is most of the client's work) each draw sessions in batches (a fresh random seed each):
lock-step sessions of 20 to 60 frames against the server whose rate limit is out of reach, each frame
answered exactly once, and after every ``--flood-every`` of them a flood session against the
rate-limited server. Every check of the test holds for every session; a session
that breaks one is counted as a problem and printed at the end. The figures: frames, answers, frames
dropped by the rate limit, closes, error codes, problems, server crashes, tracebacks and errors in the
servers' logs, time.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import platform
import signal
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "server"))  # the fuzzer lives with the tests that run it bounded

from fuzzing import Fuzz, Session, Tally, floods, sessions  # noqa: E402

MUTANTS = 4  # cheap byte mutants after each message frame (tests/server/fuzzing.py Session.expanded)


def unshrunk(examples: int) -> settings:
    """Generation only: a session's problems are counted, not raised (nothing to shrink)."""
    return settings(max_examples=examples, database=None, deadline=None, phases=[Phase.generate],
                    suppress_health_check=list(HealthCheck))


def run_batch(fuzz: Fuzz, count: int, flood_every: int) -> None:
    """``count`` lock-step sessions, then ``count // flood_every`` floods (hypothesis draws them all)."""
    @unshrunk(count)
    @given(sessions(fuzz.codes, min_frames=20, max_frames=60, mutants=MUTANTS))
    def lockstep(session: Session) -> None:
        fuzz.run_lockstep(session)

    @unshrunk(max(1, count // flood_every))
    @given(floods(fuzz.codes))
    def flood(session: Session) -> None:
        fuzz.run_flood(session)

    lockstep()
    flood()


def worker(index: int, folder: str, urls: dict[str, str], frames: int, batch: int, flood_every: int,
           results: mp.Queue) -> None:
    """One process's share of the frames, against the servers the main process started."""
    fuzz = Fuzz(Path(folder), urls).prepare()
    started = time.monotonic()
    try:
        while fuzz.tally.frames < frames:
            seen = len(fuzz.tally.problems)
            try:
                run_batch(fuzz, batch, flood_every)
            except Exception as exc:  # the fuzzer's own failure: report it, go on
                fuzz.tally.problems.append(f"worker {index}: {type(exc).__name__}: {str(exc)[:300]}")
            t = fuzz.tally
            print(f"worker {index}: {t.frames} frames, {t.sessions} sessions, {len(t.problems)} problems, "
                  f"{time.monotonic() - started:.0f} s", flush=True)
            for problem in t.problems[seen:seen + 5]:
                print(f"worker {index} problem: {problem}", flush=True)
    finally:
        results.put(fuzz.tally)


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as r:
            return r.status == 200
    except OSError:
        return False


def report(fuzz: Fuzz, t: Tally, seconds: float) -> None:
    print(f"frames sent: {t.frames} in {t.sessions} sessions, {seconds:.0f} s "
          f"({t.frames / seconds:.0f} frames/s)")
    print(f"answered (ack or error): {t.answered}; dropped by the rate limit: {t.dropped} "
          f"(of which answered by a rate_limited notice: {t.notices}); cut off by a close: {t.cut_off}; "
          f"unaccounted: {t.unaccounted()}")
    closes = ", ".join(f"{'open' if code is None else code}: {n}" for code, n in sorted(
        t.closes.items(), key=lambda kv: -1 if kv[0] is None else kv[0]))
    print(f"sessions ended: {closes}")
    print("answers by code: " + ", ".join(f"{code} {n}" for code, n in t.codes.most_common()))
    alive = all(s.proc.poll() is None and healthy(s.port) for s in fuzz.servers.values())
    print(f"server crashes: {t.crashes}; both servers alive and healthy at the end: {alive}")
    print(f"tracebacks and errors in the server logs: {t.bad_log_lines}")
    print(f"problems: {len(t.problems)}")
    for problem in t.problems[:20]:
        print(f"  {problem}")
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, CPython {platform.python_version()}, "
          f"{platform.system()} {platform.release()}; load average at the end {os.getloadavg()[0]:.1f}")


def main(argv: list[str] | None = None) -> int:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the servers on the way out
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--frames", type=int, default=1_000_000, help="frames to send (default 1,000,000)")
    p.add_argument("--batch", type=int, default=100, help="sessions per hypothesis run")
    p.add_argument("--flood-every", type=int, default=50, help="one flood session per this many others")
    p.add_argument("--workers", type=int, default=2, help="fuzzing processes (default 2)")
    args = p.parse_args(argv)
    total = Tally()
    with tempfile.TemporaryDirectory(prefix="fuzz-") as folder:
        fuzz = Fuzz(Path(folder)).start()
        started = time.monotonic()
        try:
            ctx = mp.get_context("spawn")
            results = ctx.Queue()
            procs = [ctx.Process(target=worker, args=(i, folder, fuzz.urls, -(-args.frames // args.workers),
                                                      args.batch, args.flood_every, results))
                     for i in range(args.workers)]
            for proc in procs:
                proc.start()
            for _ in procs:
                total.add(results.get())
            for proc in procs:
                proc.join()
            total.bad_log_lines = 0  # every worker read the whole logs: count their bad lines once, here
            fuzz.tally = total
            total.problems += fuzz.check_servers()  # and the server processes are still alive
            report(fuzz, total, time.monotonic() - started)
        finally:
            fuzz.stop()
    return 1 if total.problems or total.crashes or total.bad_log_lines or total.unaccounted() else 0


if __name__ == "__main__":
    sys.exit(main())
