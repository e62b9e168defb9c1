"""Settling a deal: places → upgrade, new team levels, passing A, match win (RULES.md §5, §6, §8).

Pure function of plain data so the game, the tests and the server's result screen agree on one
explanation. Seats 0..3; team of seat ``s`` is ``s % 2``; ranks 2..14 (A = 14).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from .cards import ACE, parse_rank, rank_name
from .rules import Rules, resolve_rules

LOWEST = 2
UPGRADE_BY_PARTNER_PLACE = {2: 3, 3: 2, 4: 1}  # partner of the 1st finished 2nd / 3rd / 4th


def team_of(seat: int) -> int:
    return seat % 2


def partner_of(seat: int) -> int:
    return (seat + 2) % 4


def check_places(places: Sequence[int]) -> list[int]:
    """Places must list the four seats once each, 1st to 4th."""
    out = [int(p) for p in places]
    if sorted(out) != [0, 1, 2, 3]:
        raise ValueError(f"places must list seats 0-3 once each from 1st to 4th, not {list(places)}")
    return out


def empty_streaks() -> dict[str, list[int]]:
    """Counters for the club rules of seed 004: deals running a seat was 4th / 1st, a team 3rd+4th."""
    return {"last": [0, 0, 0, 0], "first": [0, 0, 0, 0], "bottom": [0, 0]}


class _Settlement(NamedTuple):
    levels: Sequence[int]
    winner_team: int
    upgrade: int
    match_won: bool
    a_failures: Sequence[int]


class Settlement(_Settlement):
    """Result of ``settle_deal``; unpacks as (levels, winner_team, upgrade, match_won, a_failures).

    Also readable by key (``s["levels"]``) and carries ``reason`` (a human explanation),
    ``adjustments`` (club-rule bonuses/demotions, per team) and ``streaks`` (club-rule counters).
    """

    reason: str
    reason_zh: str
    adjustments: list[int]
    streaks: dict[str, list[int]]
    a_attempt: int | None
    fell_back: list[bool]
    points: list[int] | None
    match_winner: int | None

    def __new__(cls, levels, winner_team, upgrade, match_won, a_failures, *, reason="", reason_zh="",
                adjustments=None, streaks=None, a_attempt=None, fell_back=None, points=None,
                match_winner=None):
        self = super().__new__(cls, levels, winner_team, upgrade, match_won, a_failures)
        self.reason = reason
        self.reason_zh = reason_zh
        self.adjustments = adjustments if adjustments is not None else [0, 0]
        self.streaks = streaks if streaks is not None else empty_streaks()
        self.a_attempt = a_attempt
        self.fell_back = fell_back if fell_back is not None else [False, False]
        #: a match scored in points (scoring.py): the score after the deal; None in a match of levels
        self.points = points
        #: the team that won the match (in a match of levels, the deal's winner; scored, the team ahead)
        self.match_winner = match_winner if match_winner is not None else (winner_team if match_won else None)
        return self

    def __getitem__(self, key):  # type: ignore[override]
        if isinstance(key, str):
            try:
                return getattr(self, key)
            except AttributeError:
                raise KeyError(key) from None
        return super().__getitem__(key)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (msgpack-safe)."""
        return {
            "levels": list(self.levels),
            "winner_team": self.winner_team,
            "upgrade": self.upgrade,
            "match_won": self.match_won,
            "a_failures": list(self.a_failures),
            "reason": self.reason,
            "reason_zh": self.reason_zh,
            "adjustments": list(self.adjustments),
            "fell_back": list(self.fell_back),
            # a match scored in points only: a match of levels keeps the keys it always had
            **({} if self.points is None
               else {"points": list(self.points), "match_winner": self.match_winner}),
        }


def _name(rank: int) -> str:
    return "10" if rank == 10 else rank_name(rank)


_COMBO_ZH = {3: "头游+二游（双上）", 2: "头游+三游", 1: "头游+末游"}


def _team_zh(team: int) -> str:
    """Team 0 is seats 1 and 3 at the table (seats 0 and 2 here)."""
    return f"{team + 1}、{team + 3}号队"


def settle_deal(
    levels: Sequence[int],
    places: Sequence[int],
    level_team: int,
    rules: Rules | str | dict | None = None,
    a_failures: Sequence[int] = (0, 0),
    streaks: dict[str, list[int]] | None = None,
) -> Settlement:
    """Settle one finished deal.

    ``levels``: the two teams' ranks before the deal; ``places``: seats 1st..4th; ``level_team``: the
    team whose level the deal was played at (the deal's level is ``levels[level_team]``).
    ``a_failures``: failed A attempts so far per team; ``streaks``: club-rule counters (see
    ``empty_streaks``), only used when a club rule is on. Returned sequences keep the container type
    of the arguments (list in → list out, tuple in → tuple out).
    """
    rules = resolve_rules(rules)
    places = check_places(places)
    try:
        before = [parse_rank(v) for v in levels]
    except (TypeError, ValueError):
        before = []
    if len(before) != 2:
        raise ValueError(f"levels must be two ranks 2..14 (or '2'..'A'), not {list(levels)}")
    if level_team not in (0, 1):
        raise ValueError(f"level_team must be 0 or 1, not {level_team!r}")
    fails = [int(v) for v in a_failures]
    deal_level = before[level_team]
    first = places[0]
    winner = team_of(first)
    loser = 1 - winner
    partner_place = places.index(partner_of(first)) + 1
    upgrade = UPGRADE_BY_PARTNER_PLACE[partner_place]
    after = list(before)
    combo = {3: "1st+2nd", 2: "1st+3rd", 1: "1st+4th"}[upgrade]
    combo_zh = _COMBO_ZH[upgrade]
    parts: list[str] = []
    parts_zh: list[str] = []  # the same explanation in Chinese, for the players' own language

    def say(en: str, zh: str) -> None:
        parts.append(en)
        parts_zh.append(zh)

    passed_a = deal_level == ACE and before[winner] == ACE and upgrade >= 2
    if rules.a_pass_needs_double and passed_a and (upgrade < 3 or level_team != winner):
        passed_a = False
    if passed_a:
        say(f"Team {winner + 1} was at A, the deal was played at A and it won with {combo}: "
            "the match is won.",
            f"{_team_zh(winner)}本来已是A级，本局打A，以{combo_zh}取胜：通关获胜。")
    else:
        after[winner] = min(ACE, before[winner] + upgrade)
        if before[winner] == ACE:
            if deal_level != ACE:
                why, why_zh = "the deal was not played at A", "本局打的不是A"
            elif rules.a_pass_needs_double and level_team != winner:
                why = "under these rules A is passed only in a deal played at the team's own A"
                why_zh = "按本规则，只有在打本方A的一局中才能过A"
            elif rules.a_pass_needs_double and upgrade < 3:
                why, why_zh = "under these rules passing A needs 1st+2nd", "按本规则，过A须取得头游+二游"
            else:
                why = "1st+4th at A is not a pass: the partner of the 1st must not be 4th"
                why_zh = "头游+末游不算过A：头游的搭档不能是末游"
            # not "stays at A": a failed attempt (below) may send the team back to 2
            say(f"Team {winner + 1} won with {combo} but has not passed A, because {why}.",
                f"{_team_zh(winner)}以{combo_zh}取胜，但未能过A，因为{why_zh}。")
        elif after[winner] == ACE and before[winner] + upgrade > ACE:
            say(f"Team {winner + 1} won with {combo}: {_name(before[winner])} +{upgrade} stops at A "
                "(reaching A is not a match win; the team must still win a deal played at A).",
                f"{_team_zh(winner)}以{combo_zh}取胜：从{_name(before[winner])}升{upgrade}级，封顶为A"
                "（升到A不等于通关，还须在打A的一局中取胜）。")
        else:
            say(f"Team {winner + 1} won with {combo}: up {upgrade} from {_name(before[winner])} "
                f"to {_name(after[winner])}.",
                f"{_team_zh(winner)}以{combo_zh}取胜：从{_name(before[winner])}升{upgrade}级到"
                f"{_name(after[winner])}。")

    # Failed A attempts (RULES.md §8): a deal played at a team's own A level that it does not pass.
    a_attempt = None
    fell_back = [False, False]
    if deal_level == ACE:
        for t in (0, 1):
            if before[t] != ACE or (t == winner and passed_a):
                continue
            fails[t] += 1
            if t == level_team:
                a_attempt = fails[t]
            limit = rules.a_attempts
            if limit is not None and fails[t] >= limit:
                after[t] = LOWEST
                fails[t] = 0
                fell_back[t] = True
                say(f"Team {t + 1} failed its A attempt {limit} of {limit} and falls back to 2.",
                    f"{_team_zh(t)}第{limit}次打A（共{limit}次）未过，退回打2。")
            else:
                of = f" of {limit}" if limit is not None else ""
                of_zh = f"，共{limit}次" if limit is not None else ""
                say(f"Team {t + 1} failed A attempt {fails[t]}{of}.",
                    f"{_team_zh(t)}打A未过（第{fails[t]}次{of_zh}）。")
    elif after[winner] == ACE and before[winner] != ACE:
        fails[winner] = 0

    # Optional club rules of seed 004.
    st = _copy_streaks(streaks)
    adjust = [0, 0]
    club = rules.demote_repeated_last or rules.demote_repeated_bottom_pair or rules.bonus_repeated_first
    if club:
        double_down = upgrade == 3
        # "A player who is 4th" (RULES.md §8): the 4th place only. In a 1st+2nd deal the 3rd is not 4th;
        # that team's 3rd+4th has its own rule (demote_repeated_bottom_pair), so it is not counted twice.
        for s in range(4):
            st["last"][s] = st["last"][s] + 1 if s == places[3] else 0
            st["first"][s] = st["first"][s] + 1 if s == first else 0
        for t in (0, 1):
            st["bottom"][t] = st["bottom"][t] + 1 if (double_down and t == loser) else 0
        if not passed_a:
            if rules.bonus_repeated_first and st["first"][first] >= 3:
                n = st["first"][first]
                adjust[winner] += n - 2
                say(f"Seat {first + 1} was 1st {n} deals running: bonus {n - 2} for team {winner + 1}.",
                    f"{first + 1}号连续{n}局头游：{_team_zh(winner)}奖励{n - 2}级。")
            for t in (0, 1):
                if rules.demote_repeated_last:
                    for s in (t, t + 2):
                        n = st["last"][s]
                        if n >= 3:
                            adjust[t] -= n - 2
                            say(f"Seat {s + 1} was last {n} deals running: team {t + 1} loses {n - 2}.",
                                f"{s + 1}号连续{n}局末游：{_team_zh(t)}降{n - 2}级。")
                if rules.demote_repeated_bottom_pair and st["bottom"][t] >= 3:
                    n = st["bottom"][t]
                    adjust[t] -= n - 1
                    say(f"Team {t + 1} was 3rd+4th {n} deals running: loses {n - 1}.",
                        f"{_team_zh(t)}连续{n}局双下：降{n - 1}级。")
            for t in (0, 1):
                was = after[t]
                if adjust[t] > 0:
                    after[t] = min(ACE, after[t] + adjust[t])
                    if after[t] == was:  # the bonus was announced: say that it changes nothing
                        say(f"Team {t + 1} is at A already: the bonus changes nothing.",
                            f"{_team_zh(t)}已到A，奖励不再升级。")
                elif adjust[t] < 0:
                    if after[t] == ACE:
                        say(f"Team {t + 1} is at A and is never demoted.", f"{_team_zh(t)}已到A，永不降级。")
                        adjust[t] = 0
                    else:
                        after[t] = max(LOWEST, after[t] + adjust[t])
                        if after[t] == was:
                            say(f"Team {t + 1} is at 2 already and goes no lower.",
                                f"{_team_zh(t)}已是2级，不再降级。")

    if all(isinstance(v, str) for v in levels):  # ranks given as text come back as text
        ten = "10" if any(v.strip() == "10" for v in levels) else "T"
        after = [ten if v == 10 else rank_name(v) for v in after]  # type: ignore[misc]
    out_levels = type(levels)(after) if isinstance(levels, (list, tuple)) else after
    out_fails = type(a_failures)(fails) if isinstance(a_failures, (list, tuple)) else fails
    return Settlement(out_levels, winner, upgrade, passed_a, out_fails, reason=" ".join(parts),
                      reason_zh="".join(parts_zh), adjustments=adjust, streaks=st, a_attempt=a_attempt,
                      fell_back=fell_back)


def _copy_streaks(streaks: dict[str, list[int]] | None) -> dict[str, list[int]]:
    base = empty_streaks()
    if streaks:
        for k in base:
            if k in streaks:
                base[k] = [int(v) for v in streaks[k]]
    return base


__all__ = ["Settlement", "settle_deal", "empty_streaks", "team_of", "partner_of", "check_places"]
