"""Issue 15, must show 3: the protocol fuzzer (tests/server/fuzzing.py), bounded for CI.

Hypothesis draws sessions of frames (messages from the client models, mutated bytes, text, oversized
frames) and runs each over a real socket against real server processes on a real Redis: every frame
answered with a valid message or dropped by the rate limit, no traceback or error in the servers'
logs, the servers alive and the connection still answering at the end. bench/fuzz.py runs the same
for 1,000,000 frames (bench/RESULTS.md).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fuzzing import Fuzz, Session, floods, sessions
from hypothesis import HealthCheck, given, settings

pytestmark = pytest.mark.slow

def bounded(examples: int) -> settings:
    return settings(max_examples=examples, database=None, deadline=None,
                    suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def fuzz(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fuzz]:
    running = Fuzz(tmp_path_factory.mktemp("fuzz")).start()
    yield running
    running.stop()


def test_fuzzed_frames_are_answered_or_dropped_by_the_limit_and_nothing_breaks(fuzz: Fuzz) -> None:
    @bounded(150)
    @given(sessions(fuzz.codes, min_frames=5, max_frames=25, mutants=1))
    def lockstep(session: Session) -> None:
        assert fuzz.run_lockstep(session) == []

    @bounded(4)
    @given(floods(fuzz.codes))
    def flood(session: Session) -> None:
        assert fuzz.run_flood(session) == []

    lockstep()
    flood()
    # not a fuzzer that only ever hears bad_msgpack: it got acks and the handlers' own errors
    tally = fuzz.tally
    assert tally.frames > 1_000 and tally.problems == [] and tally.unaccounted() == 0
    assert tally.codes["ack"] > 10
    handled = {"not_in_room", "room_not_found", "already_seated", "not_your_turn", "not_your_cards",
               "bad_rules", "seat_taken", "not_host", "duplicate_id"}
    assert len(handled & set(tally.codes)) >= 3, tally.codes
    assert {"invalid_message", "bad_msgpack", "binary_required", "frame_too_large"} <= set(tally.codes)
    assert tally.dropped > 0 and tally.notices > 0 and tally.closes[1008] > 0
