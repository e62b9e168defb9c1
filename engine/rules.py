"""Rule options and their named presets (RULES.md §8).

Everything the table may vary lives here as plain data, so a room's settings round-trip
through msgpack and the engine never branches on a preset's *name*.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

RETURN_TEN_OR_LOWER = "ten_or_lower"  # ≤10, not the level rank, not a joker; else the smallest card
RETURN_TEN_OR_LOWER_ANY_RANK = "ten_or_lower_any_rank"  # ≤10, the level rank included; else the smallest
RETURN_ANY = "any"
RETURN_LIMITS = (RETURN_TEN_OR_LOWER, RETURN_TEN_OR_LOWER_ANY_RANK, RETURN_ANY)


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule options of one match. ``Rules()`` is the standard rule set (seed 000)."""

    name: str = "standard"
    #: failed deals at one's own A level before the team falls back to 2; None = unlimited
    a_attempts: int | None = None
    #: which cards a tribute receiver may return
    return_limit: str = RETURN_TEN_OR_LOWER
    #: a pair of small or of big jokers may be the pair of a full house
    joker_pair_in_full_house: bool = False
    #: who leads the first deal of a match: "first" = seat 0, "random" = a seeded random seat
    first_leader: str = "first"
    # Optional club rules of seed 004, all off by default.
    #: a player 4th three deals running costs the team one level (four running: two, ...)
    demote_repeated_last: bool = False
    #: a team 3rd+4th three deals running loses two levels
    demote_repeated_bottom_pair: bool = False
    #: a player 1st three deals running earns a bonus level (four running: two, ...)
    bonus_repeated_first: bool = False
    #: a return to one's partner must be below the level rank; to an opponent any card
    club_return: bool = False
    #: passing A needs 1st+2nd in a deal played at the team's own A (the 2020 AI platform)
    a_pass_needs_double: bool = False
    # Seed 004's fixed-length match, scored in points instead of levels (engine/scoring.py).
    #: a match of this many deals, every one at level 2: 1st+2nd scores 3, 1st+3rd 2, 1st+4th 1; after
    #: the last, the team ahead wins (tied: one more deal at a time); None = the match of levels
    match_deals: int | None = None
    #: with match_deals: a team reaching this many points wins at once (seed 004: 13 in 8 deals)
    match_points: int | None = None

    def __post_init__(self) -> None:
        """Refuse option values the engine would otherwise silently treat as the default."""
        if self.a_attempts is not None and (not isinstance(self.a_attempts, int) or self.a_attempts < 1):
            raise ValueError(f"a_attempts must be None (unlimited) or an int >= 1, not {self.a_attempts!r}")
        if self.return_limit not in RETURN_LIMITS:
            raise ValueError(f"return_limit must be one of {', '.join(map(repr, RETURN_LIMITS))}, "
                             f"not {self.return_limit!r}")
        if self.first_leader not in ("first", "random"):
            raise ValueError(f"first_leader must be 'first' or 'random', not {self.first_leader!r}")
        for name in ("match_deals", "match_points"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
                raise ValueError(f"{name} must be None or an int >= 1, not {value!r}")
        if self.match_points is not None and self.match_deals is None:
            raise ValueError("match_points needs match_deals: it ends a match scored in points early")
        if self.match_deals is not None:
            moot = [name for name in ("a_attempts", "demote_repeated_last", "demote_repeated_bottom_pair",
                                      "bonus_repeated_first", "a_pass_needs_double") if getattr(self, name)]
            if moot:  # every deal of a scored match is played at 2: these would silently do nothing
                raise ValueError(f"a match scored in points (match_deals) has no levels: {', '.join(moot)} "
                                 "cannot apply")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> Rules:
        if not d:
            return cls()
        known = {f.name for f in fields(cls)}
        unknown = set(d) - known
        if unknown:
            raise ValueError(f"unknown rule options: {', '.join(sorted(unknown))}")
        return cls(**d)

    def with_options(self, **options: Any) -> Rules:
        return replace(self, **options)


PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    # RULES.md §8: seed 002's return rule is "a card of 10 or lower, else the smallest" (the level rank
    # is not excluded as in seed 000); Huai'an returns any card.
    "national2017": Rules(name="national2017", a_attempts=3, return_limit=RETURN_TEN_OR_LOWER_ANY_RANK),
    "huaian": Rules(name="huaian", a_attempts=3, return_limit=RETURN_ANY),
    "nanjing": Rules(name="nanjing", a_attempts=2, return_limit=RETURN_TEN_OR_LOWER_ANY_RANK),
    # The 2020 AI competition platform (COMPETITION_PROTOCOL.md): A passes only with 1st+2nd at the
    # team's own A, and two deals at A without passing fall back to 2.
    "competition2020": Rules(name="competition2020", a_attempts=2, a_pass_needs_double=True),
    # Standard play with every optional club rule of seed 004 switched on.
    "club": Rules(
        name="club", demote_repeated_last=True, demote_repeated_bottom_pair=True, bonus_repeated_first=True,
        club_return=True,
    ),
    # Seed 004's knockout format: six deals at level 2 scored 3/2/1, a tie decided by one more deal.
    "points6": Rules(name="points6", match_deals=6),
    # Seed 004's other format: eight deals, and the first team to reach 13 points wins at once.
    "points8": Rules(name="points8", match_deals=8, match_points=13),
}


def preset(name: str) -> Rules:
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown rule preset {name!r}: choose one of {', '.join(PRESETS)}") from None


def resolve_rules(rules: Rules | str | dict | None) -> Rules:
    """Accept a Rules, a preset name or a dict of options (as stored); None is standard."""
    if rules is None:
        return PRESETS["standard"]
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return preset(rules)
    if isinstance(rules, dict):
        return Rules.from_dict(rules)
    raise TypeError(f"rules must be a Rules, a preset name or a dict, not {type(rules).__name__}")
