"""Bot arena: measure one bot team against another with duplicate deals, luck cancelled.

    python -m engine.arena --team-a heuristic --team-b random --deals 1000 --seed 1
    python -m engine.arena --team-a heuristic --team-b random --matches 20 --seed 1
    python -m engine.arena --protocol --client heuristic --client "python3 their_bot.py {url}" \
        --client heuristic --client "python3 their_bot.py {url}" --matches 10

Deal mode plays each seeded deal twice: team A in seats 1 & 3 (0 and 2 here), then the same
cards with the teams exchanged, so both teams hold every hand once. It prints deals won by each
team, team A's win rate with a 95% Wilson interval, the average upgrade per deal, how many
duplicate pairs each team won in both seatings (with a sign test: split pairs were decided by
the cards) and decision time percentiles per bot. Match mode plays whole matches (tribute,
levels, passing A) the same way, each match seed once per seating.

Progress goes to stderr: one line rewritten in place on a terminal, else one line about every
tenth of the run (``--progress-every N`` to choose), so logs stay readable.

The protocol mode (engine/protocol_arena.py) runs any four competition-protocol clients against the
standalone platform, as researchers run theirs.

A team is a bot's name, optionally with settings of its own (its public class attributes), so a
variant can be measured without editing code: ``--team-a strong:win_weight=3,margin=0.6``.

Bots only ever get ``game.view(seat)``; every action goes through ``Game.apply``, so an illegal
choice stops the run with a clear error instead of being counted.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

from .bots import BOTS, Bot, make_bot
from .game import Game, IllegalAction
from .protocol_arena import CONNECT_TIMEOUT, EXIT_GRACE
from .rules import PRESETS, Rules, resolve_rules

#: a match that has not ended after this many deals is stopped and counted as undecided
MAX_DEALS_PER_MATCH = 300
#: options of the protocol mode alone (None when not given)
PROTOCOL_ONLY = ("act_timeout", "summary", "port", "connect_timeout", "exit_grace")


class BotError(RuntimeError):
    """A bot raised or chose an illegal action; the message says which bot, seat and view."""


@dataclass
class TeamStats:
    """What one team (one bot kind) did over a run."""

    name: str
    deals_won: int = 0
    upgrades: int = 0
    matches_won: int = 0
    times_ms: list[float] = field(default_factory=list)


@dataclass
class Outcome:
    """One played deal or match, seen from team A."""

    a_won: bool
    a_upgrade: int
    b_upgrade: int


def seating(a_first: bool) -> tuple[int, int]:
    """Which game team (0 = seats 0 & 2, 1 = seats 1 & 3) team A and team B sit as."""
    return (0, 1) if a_first else (1, 0)


def bot_settings(team: str) -> tuple[str, dict[str, int | float | bool]]:
    """``name`` or ``name:key=value,...`` as the bot's name and settings, each checked against the bot's
    own (a number or a flag, typed as the bot's); ValueError names what is wrong."""
    name, _, rest = team.partition(":")
    if name not in BOTS:
        raise ValueError(f"no bot named {name!r} (one of {', '.join(sorted(BOTS))})")
    settings: dict[str, int | float | bool] = {}
    for item in filter(None, rest.split(",")):
        key, eq, text = item.partition("=")
        default = getattr(BOTS[name], key, None) if not key.startswith("_") else None
        if not eq or type(default) not in (int, float, bool):
            raise ValueError(f"{item!r}: not a setting of the {name} bot (key=number or key=true/false)")
        if isinstance(default, bool):
            if text not in ("true", "false"):
                raise ValueError(f"{item!r}: {key} is true or false")
            settings[key] = text == "true"
        else:
            try:
                settings[key] = type(default)(text)
            except ValueError:
                kind = "a whole number" if isinstance(default, int) else "a number"
                raise ValueError(f"{item!r}: {key} is {kind} like {default!r}") from None
    return name, settings


def summary_problem(path: str) -> str | None:
    """Why ``path`` cannot take a summary (None: it can), checked before a run so that a typo in the
    path does not throw away the run's result. Opened for appending, an existing file is left as it is;
    one this check creates is removed again."""
    existed = os.path.lexists(path)
    try:
        with open(path, "a"):
            pass
    except OSError as exc:
        return exc.strerror or str(exc)
    if not existed:
        os.unlink(path)
    return None


def write_summary(path: str, summary: dict) -> str | None:
    """Write the JSON summary; the reason it failed, if it did (the caller still shows its report)."""
    try:
        with open(path, "w") as f:
            json.dump(summary, f)
    except OSError as exc:
        return f"cannot write --summary {path}: {exc.strerror or exc}"
    return None


def team_arg(team: str) -> str:
    """argparse's check of a team (the text is kept: reports show the settings)."""
    try:
        bot_settings(team)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return team


def make_team_bot(team: str, seed: int | str | None) -> Bot:
    """The bot of a team (``name`` or ``name:key=value,...``) with its settings set."""
    name, settings = bot_settings(team)
    bot = make_bot(name, seed=seed)
    for key, value in settings.items():
        setattr(bot, key, value)
    return bot


def _bots(team_a: str, team_b: str, a_first: bool, seed: str) -> list[Bot]:
    a_team, _ = seating(a_first)
    return [make_team_bot(team_a if s % 2 == a_team else team_b, seed=f"{seed}:{s}") for s in range(4)]


def _act(game: Game, seat: int, bot: Bot, times: list[float]) -> None:
    view = game.view(seat)
    t = time.perf_counter()
    try:
        action = bot.choose(view)
    except Exception as exc:
        raise BotError(f"bot {bot.name} at seat {seat} raised {exc!r} on view {view}") from exc
    times.append((time.perf_counter() - t) * 1000)
    try:
        game.apply(seat, action)
    except IllegalAction as exc:
        raise BotError(f"bot {bot.name} at seat {seat} chose illegal {action} ({exc}) "
                       f"on view {view}") from exc
    errors = getattr(bot, "errors", None)
    if errors:
        raise BotError(f"bot {bot.name} at seat {seat} fell back after: {errors[-1]}")


def play_until(game: Game, bots: list[Bot], times: list[list[float]], stop: Callable[[Game], bool]) -> None:
    """Let the bots act (each on its own view) until ``stop(game)``."""
    while not stop(game):
        pending = game.pending_seats()
        if not pending:
            raise BotError(f"nobody may act in phase {game.phase}")
        seat = pending[0]
        _act(game, seat, bots[seat], times[seat])


def play_deal(seed: str, team_a: str, team_b: str, a_first: bool, rules: Rules,
              times: list[list[float]]) -> Outcome:
    """One first deal of a match (level 2, no tribute) from ``seed``, team A seated per ``a_first``."""
    game = Game.new(seed, rules)
    bots = _bots(team_a, team_b, a_first, seed)
    play_until(game, bots, times, lambda g: g.phase in ("deal_over", "match_over"))
    res = game.last_result
    a_team, _ = seating(a_first)
    a_won = res["winner_team"] == a_team
    return Outcome(a_won, res["upgrade"] if a_won else 0, 0 if a_won else res["upgrade"])


def play_match(seed: str, team_a: str, team_b: str, a_first: bool, rules: Rules,
               times: list[list[float]], max_deals: int = MAX_DEALS_PER_MATCH) -> tuple[Game, list[Outcome]]:
    """A whole match; returns the game and every deal's outcome for team A."""
    game = Game.new(seed, rules)
    bots = _bots(team_a, team_b, a_first, seed)
    a_team, _ = seating(a_first)
    outcomes: list[Outcome] = []
    while game.phase != "match_over" and game.deal <= max_deals:
        play_until(game, bots, times, lambda g: g.phase in ("deal_over", "match_over"))
        res = game.last_result
        a_won = res["winner_team"] == a_team
        outcomes.append(Outcome(a_won, res["upgrade"] if a_won else 0, 0 if a_won else res["upgrade"]))
        if game.phase == "deal_over" and game.deal < max_deals:
            _act(game, 0, bots[0], times[0])
        else:
            break
    return game, outcomes


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def sign_test(a: int, b: int) -> float:
    """Two-sided exact sign test: how likely a split at least this uneven is between equal teams."""
    n = a + b
    if n == 0:
        return 1.0
    k = min(a, b)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


@dataclass
class Report:
    """Totals of a run, seen from team A."""

    team_a: TeamStats
    team_b: TeamStats
    games: int = 0
    matches: int = 0
    undecided: int = 0
    #: duplicate pairs (deal mode) won in both seatings by team A, by team B
    pairs: int = 0
    sweeps_a: int = 0
    sweeps_b: int = 0

    def lines(self) -> list[str]:
        a, b = self.team_a, self.team_b
        n = self.games
        lo, hi = wilson(a.deals_won, n)
        out = [
            f"deals played: {n}" + ("" if self.matches else f" ({n // 2} duplicate pairs)"),
            f"deals won: A {a.name} {a.deals_won}, B {b.name} {b.deals_won}",
            f"A win rate: {a.deals_won / n:.1%} (95% CI {lo:.1%}-{hi:.1%})" if n else "A win rate: -",
            f"average upgrade per deal: A {a.upgrades / max(1, n):.2f}, B {b.upgrades / max(1, n):.2f}",
        ]
        if self.pairs:
            # Split pairs carry no information on who plays better (the cards decided): the sign
            # test on the pairs one team won in both seatings does.
            out.append(f"duplicate pairs: A won both {self.sweeps_a}, B won both {self.sweeps_b}, split "
                       f"{self.pairs - self.sweeps_a - self.sweeps_b}; sign test p = "
                       f"{sign_test(self.sweeps_a, self.sweeps_b):.3g}")
        if self.matches:
            mlo, mhi = wilson(a.matches_won, self.matches)
            out.append(f"matches: {self.matches}, won: A {a.matches_won}, B {b.matches_won}, "
                       f"undecided {self.undecided}; A match rate {a.matches_won / self.matches:.1%} "
                       f"(95% CI {mlo:.1%}-{mhi:.1%})")
        for t in (a, b):
            ts = t.times_ms
            out.append(f"decision time {t.name:>10}: {len(ts)} decisions, p50 {percentile(ts, 0.5):.2f} ms, "
                       f"p90 {percentile(ts, 0.9):.2f} ms, p99 {percentile(ts, 0.99):.2f} ms, "
                       f"max {max(ts, default=float('nan')):.2f} ms")
        return out


def _merge_times(report: Report, times: list[list[float]], a_first: bool) -> None:
    a_team, _ = seating(a_first)
    for s in range(4):
        (report.team_a if s % 2 == a_team else report.team_b).times_ms.extend(times[s])


def run_deals(team_a: str, team_b: str, deals: int, seed: int, rules: Rules | None = None,
              progress: Callable[[int], None] | None = None) -> Report:
    """``deals`` seeded deals, each played twice with the teams exchanged."""
    rules = resolve_rules(rules)
    report = Report(TeamStats(team_a), TeamStats(team_b))
    for i in range(deals):
        deal_seed = f"arena:{seed}:{i}"
        won = 0
        for a_first in (True, False):
            times: list[list[float]] = [[], [], [], []]
            o = play_deal(deal_seed, team_a, team_b, a_first, rules, times)
            won += o.a_won
            _merge_times(report, times, a_first)
            report.games += 1
            report.team_a.deals_won += o.a_won
            report.team_b.deals_won += not o.a_won
            report.team_a.upgrades += o.a_upgrade
            report.team_b.upgrades += o.b_upgrade
        report.pairs += 1
        report.sweeps_a += won == 2
        report.sweeps_b += won == 0
        if progress:
            progress(i + 1)
    return report


def run_matches(team_a: str, team_b: str, matches: int, seed: int, rules: Rules | None = None,
                progress: Callable[[int], None] | None = None) -> Report:
    """``matches`` seeded matches, each played twice with the teams exchanged."""
    rules = resolve_rules(rules)
    report = Report(TeamStats(team_a), TeamStats(team_b))
    for i in range(matches):
        match_seed = f"arena-match:{seed}:{i}"
        for a_first in (True, False):
            times: list[list[float]] = [[], [], [], []]
            game, outcomes = play_match(match_seed, team_a, team_b, a_first, rules, times)
            _merge_times(report, times, a_first)
            report.matches += 1
            a_team, _ = seating(a_first)
            if game.match_winner is None:
                report.undecided += 1
            elif game.match_winner == a_team:
                report.team_a.matches_won += 1
            else:
                report.team_b.matches_won += 1
            for o in outcomes:
                report.games += 1
                report.team_a.deals_won += o.a_won
                report.team_b.deals_won += not o.a_won
                report.team_a.upgrades += o.a_upgrade
                report.team_b.upgrades += o.b_upgrade
        if progress:
            progress(i + 1)
    return report


class Progress:
    """Progress on stderr: one line rewritten with ``\\r`` on a terminal, else a line every N steps."""

    def __init__(self, total: int, unit: str, stream: TextIO, t0: float, every: int = 0) -> None:
        self.total, self.unit, self.stream, self.t0 = total, unit, stream, t0
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        if self.tty:
            self.every = max(1, total // 200)
        else:
            self.every = every if every > 0 else max(1, _round_step(total / 10))
        self.shown = False

    def __call__(self, i: int) -> None:
        if i % self.every and i != self.total:
            return
        text = f"{i}/{self.total} {self.unit}, {time.perf_counter() - self.t0:.0f} s"
        if self.tty:
            self.stream.write(f"\r{text}")
            self.shown = True
        else:
            self.stream.write(f"arena: {text}\n")
        self.stream.flush()

    def done(self) -> None:
        """End the rewritten terminal line, so what follows starts on a line of its own."""
        if self.tty and self.shown:
            self.stream.write("\n")
            self.stream.flush()
            self.shown = False


def _round_step(x: float) -> int:
    """The smallest round step (1, 2, 5, 10, 20, 50, ...) of at least ``x``."""
    if x <= 1:
        return 1
    mag = 10 ** int(math.log10(x))
    return next(m * mag for m in (1, 2, 5, 10) if m * mag >= x)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.arena", description=__doc__.split("\n\n")[0])
    teams = f"a bot ({', '.join(sorted(BOTS))}), optionally with settings: strong:win_weight=3,z=1.5"
    # Deal and match mode's own options default to None, so that the protocol mode can refuse them.
    ap.add_argument("--team-a", type=team_arg, metavar="BOT", help=f"{teams} (default heuristic)")
    ap.add_argument("--team-b", type=team_arg, metavar="BOT", help=f"{teams} (default random)")
    ap.add_argument("--deals", type=int, help="seeded deals, each played twice (default 100)")
    ap.add_argument("--matches", type=int, default=0, help="play this many whole matches instead of deals")
    ap.add_argument("--seed", type=int, default=1,
                    help="seed of the deals or matches (default 1); in protocol mode, of the platform's "
                         "first match, and seat N's bot of ours gets seed N")
    ap.add_argument("--rules", choices=sorted(PRESETS), help="rule preset (default standard)")
    ap.add_argument("--quiet", action="store_true", help="no progress output")
    ap.add_argument("--progress-every", type=int, metavar="N",
                    help="when stderr is not a terminal, a progress line every N deals or matches "
                         "(default: about every tenth of the run)")
    proto = ap.add_argument_group("protocol mode", "four competition-protocol clients against the "
                                  "standalone platform (python -m server --competition), seated in order")
    proto.add_argument("--protocol", action="store_true", help="run the protocol mode (whole matches)")
    proto.add_argument("--client", action="append", default=[], metavar="CMD",
                       help="a client, four times in seat order: one of our bots by name "
                            f"({', '.join(sorted(BOTS))}), optionally with settings (strong:margin=0.6), "
                            "or a command, in which {url} becomes the platform's address ws://127.0.0.1:PORT "
                            "(the bot connects to {url}/game/<name>), {seat} the seat (0-3) and {name} "
                            "bot<seat>; other braces are left as written")
    proto.add_argument("--act-timeout", type=float, default=None,
                       help="seconds per act before our bot plays for a client (default: wait)")
    proto.add_argument("--summary", default=None, metavar="FILE",
                       help="also write the platform's summary (JSON: per-seat counts, every action)")
    proto.add_argument("--port", type=int, default=None,
                       help="the platform's loopback port, for bots with a fixed address such as "
                            "ws://127.0.0.1:23456/game/... (default: a free port)")
    proto.add_argument("--connect-timeout", type=float, default=None, metavar="S",
                       help=f"seconds each client has to connect once started (default {CONNECT_TIMEOUT:g})")
    proto.add_argument("--exit-grace", type=float, default=None, metavar="S",
                       help=f"seconds the clients have to exit on their own after the last match (a bot may "
                            f"save its logs), before they are stopped (default {EXIT_GRACE:g})")
    args = ap.parse_args(argv)
    if args.protocol:
        given = [f"--{k.replace('_', '-')}" for k in ("team_a", "team_b", "deals", "rules", "progress_every")
                 if getattr(args, k) is not None]
        if given:
            ap.error(f"--protocol does not take {', '.join(given)} (it plays whole matches with the "
                     "--client bots, competition2020 rules)")
        return protocol_main(args, ap)
    if args.client or any(getattr(args, k) is not None for k in PROTOCOL_ONLY):
        ap.error("--client, --act-timeout, --summary, --port, --connect-timeout and --exit-grace are for "
                 "--protocol")
    args.team_a = args.team_a or "heuristic"
    args.team_b = args.team_b or "random"
    args.deals = 100 if args.deals is None else args.deals
    args.rules = args.rules or "standard"
    args.progress_every = args.progress_every or 0
    if args.deals < 1 or args.matches < 0:
        ap.error("--deals must be at least 1 and --matches at least 0")
    t0 = time.perf_counter()
    total = args.matches or args.deals
    unit = "matches" if args.matches else "deals"
    progress = None if args.quiet else Progress(total, unit, sys.stderr, t0, every=args.progress_every)
    rules = resolve_rules(args.rules)
    if args.matches:
        report = run_matches(args.team_a, args.team_b, args.matches, args.seed, rules, progress)
    else:
        report = run_deals(args.team_a, args.team_b, args.deals, args.seed, rules, progress)
    if progress is not None:
        progress.done()
    mode = f"{args.matches} matches" if args.matches else f"{args.deals} deals"
    print(f"arena: A {args.team_a} vs B {args.team_b}, {mode} x 2 seatings, seed {args.seed}, "
          f"rules {rules.name}")
    for line in report.lines():
        print(line)
    print(f"wall time {time.perf_counter() - t0:.1f} s")
    return 0


def protocol_main(args: argparse.Namespace, ap: argparse.ArgumentParser) -> int:
    from .protocol_arena import ArenaError, report, run_protocol

    check_protocol_args(args, ap)
    t0 = time.perf_counter()
    echo = None if args.quiet else (lambda line: print(line, file=sys.stderr, flush=True))
    try:
        summary = run_protocol(args.client, args.matches or 1, args.seed, args.act_timeout, echo=echo,
                               port=args.port, connect_timeout=args.connect_timeout or CONNECT_TIMEOUT,
                               exit_grace=EXIT_GRACE if args.exit_grace is None else args.exit_grace)
    except ArenaError as exc:
        print(f"arena: {exc}", file=sys.stderr)
        return 1
    failed = write_summary(args.summary, summary) if args.summary else None
    for line in report(summary, args.client):
        print(line)
    print(f"wall time {time.perf_counter() - t0:.1f} s")
    if failed:
        print(f"arena: {failed}", file=sys.stderr)
        return 1
    return 0


def check_protocol_args(args: argparse.Namespace, ap: argparse.ArgumentParser) -> None:
    """Usage errors of the protocol mode, all found before any process starts."""
    from .protocol_arena import client_problem, is_our_bot

    if args.matches < 0:
        ap.error("--matches must be at least 1 (0: one match)")
    if len(args.client) != 4:
        ap.error("--protocol needs exactly four --client (seats 0 to 3 in order: 0 and 2 are one team)")
    for spec in args.client:
        problem = _our_bot_problem(spec) if is_our_bot(spec) else client_problem(spec)
        if problem:
            ap.error(f"--client {spec}: {problem}")
    for key in ("act_timeout", "exit_grace"):
        value = getattr(args, key)
        if value is not None and not value >= 0:  # NaN too
            ap.error(f"--{key.replace('_', '-')} must be 0 or more seconds, not {value}")
    if args.connect_timeout is not None and not args.connect_timeout > 0:
        ap.error(f"--connect-timeout must be more than 0 seconds, not {args.connect_timeout}")
    if args.port is not None and not 0 < args.port < 65536:
        ap.error(f"--port must be from 1 to 65535, not {args.port}")
    problem = summary_problem(args.summary) if args.summary else None
    if problem:
        ap.exit(2, f"{ap.prog}: error: cannot write --summary {args.summary}: {problem}\n")


def _our_bot_problem(spec: str) -> str | None:
    try:
        bot_settings(spec)
    except ValueError as exc:
        return str(exc)
    return None


if __name__ == "__main__":
    raise SystemExit(main())
