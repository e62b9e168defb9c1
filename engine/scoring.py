"""Settling a deal of a match scored in points (seed 004, RULES.md §8): ``Rules.match_deals`` deals, every
one played at level 2; the winners score 3 (1st+2nd), 2 (1st+3rd) or 1 (1st+4th). After the last deal the
team ahead wins; tied, one more deal is played at a time until a team is ahead. With ``match_points`` a
team that reaches that many points wins at once.

Pure function of plain data, like ``levels.settle_deal``, whose ``Settlement`` it returns (the levels and A
attempts untouched), so the game and the result screens read one shape.
"""

from __future__ import annotations

from collections.abc import Sequence

from .levels import UPGRADE_BY_PARTNER_PLACE, Settlement, _team_zh, check_places, partner_of, team_of
from .rules import Rules, resolve_rules

_COMBO = {3: ("1st+2nd", "头游+二游（双上）"), 2: ("1st+3rd", "头游+三游"), 1: ("1st+4th", "头游+末游")}


def score_deal(
    points: Sequence[int],
    places: Sequence[int],
    deal: int,
    rules: Rules | str | dict | None,
    levels: Sequence[int] = (2, 2),
    a_failures: Sequence[int] = (0, 0),
) -> Settlement:
    """Settle deal number ``deal`` (1 for the first) of a scored match: ``points`` are the two teams'
    points before it, ``places`` the seats 1st..4th. The settlement's ``upgrade`` is the points scored,
    its ``points`` the new score, ``match_won``/``match_winner`` whether (and by whom) the match is won."""
    rules = resolve_rules(rules)
    if rules.match_deals is None:
        raise ValueError("score_deal settles a match scored in points: these rules have no match_deals")
    places = check_places(places)
    before = [int(v) for v in points]
    if len(before) != 2 or min(before) < 0:
        raise ValueError(f"points must be two counts >= 0, not {list(points)}")
    if not isinstance(deal, int) or deal < 1:
        raise ValueError(f"deal must be an int >= 1, not {deal!r}")
    first = places[0]
    winner = team_of(first)
    scored = UPGRADE_BY_PARTNER_PLACE[places.index(partner_of(first)) + 1]
    after = list(before)
    after[winner] += scored
    en, zh = _COMBO[scored]
    score_en = f"{after[0]} to {after[1]}"
    score_zh = f"{after[0]} 比 {after[1]}"
    of = rules.match_deals
    when = f"deal {deal} of {of}" if deal <= of else f"extra deal {deal - of}"
    unit = "points" if scored > 1 else "point"
    parts = [f"Team {winner + 1} won with {en}: {scored} {unit}, {score_en} after {when}."]
    parts_zh = [f"{_team_zh(winner)}以{zh}取胜，得 {scored} 分：第 {deal} 局（共 {of} 局）后 {score_zh}。"
                if deal <= of else
                f"{_team_zh(winner)}以{zh}取胜，得 {scored} 分：加赛第 {deal - of} 局后 {score_zh}。"]
    leader = None if after[0] == after[1] else (0 if after[0] > after[1] else 1)
    won = False
    if rules.match_points is not None and after[winner] >= rules.match_points:
        won, leader = True, winner
        parts.append(f"Team {winner + 1} reached {rules.match_points} points: the match is won.")
        parts_zh.append(f"{_team_zh(winner)}先到 {rules.match_points} 分：赢得比赛。")
    elif deal >= of and leader is not None:
        won = True
        parts.append(f"Team {leader + 1} is ahead after the last deal: the match is won.")
        parts_zh.append(f"打满后{_team_zh(leader)}领先：赢得比赛。")
    elif deal >= of:
        parts.append("The score is level after the last deal: one more deal decides.")
        parts_zh.append("打满后比分相同：加赛一局决胜负。")
    return Settlement(list(levels), winner, scored, won, list(a_failures), reason=" ".join(parts),
                      reason_zh="".join(parts_zh), points=after, match_winner=leader if won else None)


__all__ = ["score_deal"]
