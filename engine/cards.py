"""Cards in the notation of the Guandan AI competition platform.

A card is one small int (its *code*) so hands, plays and states stay cheap and hashable:
``code = (rank - 2) * 4 + suit`` for ranks 2..14 (A = 14) and suits S H C D = 0..3,
52 for the small joker ``SB`` and 53 for the big joker ``HR``. Two decks means a code may
appear twice in a hand; the two copies are indistinguishable.
"""

from __future__ import annotations

from collections.abc import Iterable

SUITS = "SHCD"
RANK_CHARS = "23456789TJQKA"
SPADES, HEARTS, CLUBS, DIAMONDS = 0, 1, 2, 3
ACE = 14
SMALL_JOKER_RANK = 16
BIG_JOKER_RANK = 17
SMALL_JOKER = 52
BIG_JOKER = 53
LEVEL_ORDER = 15  # where the level rank sits in rank order: above A, below the jokers
N_CODES = 54
COPIES = 2  # two decks


class Card(int):
    """A physical card; an int code with a readable name (``S9``, ``HT``, ``SB``, ``HR``)."""

    __slots__ = ()

    @property
    def rank(self) -> int:
        """2..14 for ordinary cards, 16 for the small joker, 17 for the big joker."""
        return RANK_OF[self]

    @property
    def suit(self) -> str:
        return NAMES[self][0]

    @property
    def is_joker(self) -> bool:
        return self >= SMALL_JOKER

    def __str__(self) -> str:
        return NAMES[self]

    def __repr__(self) -> str:
        return NAMES[self]


def _name(code: int) -> str:
    if code == SMALL_JOKER:
        return "SB"
    if code == BIG_JOKER:
        return "HR"
    return SUITS[code & 3] + RANK_CHARS[code >> 2]


NAMES: tuple[str, ...] = tuple(_name(c) for c in range(N_CODES))
RANK_OF: tuple[int, ...] = tuple((c >> 2) + 2 for c in range(52)) + (SMALL_JOKER_RANK, BIG_JOKER_RANK)
CARDS: tuple[Card, ...] = tuple(Card(c) for c in range(N_CODES))
_BY_NAME: dict[str, Card] = {NAMES[c]: CARDS[c] for c in range(N_CODES)}
_BY_NAME.update({n.replace("T", "10"): c for n, c in _BY_NAME.items() if n[1] == "T"})


def card_code(rank: int, suit: int) -> int:
    return (rank - 2) * 4 + suit


def card(rank: int, suit: int) -> Card:
    return CARDS[card_code(rank, suit)]


def wild_card(level: int) -> Card:
    """The hearts card of the level rank: the wild card (逢人配) of a deal."""
    return CARDS[card_code(level, HEARTS)]


def parse_rank(text: str | int) -> int:
    """A rank as 2..14 from ``'2'``…``'A'`` (``'10'`` or ``'T'``) or an int."""
    if isinstance(text, int) and not isinstance(text, bool):
        if 2 <= text <= ACE:
            return text
        raise ValueError(f"rank {text} is not between 2 and 14 (A)")
    if isinstance(text, str):
        t = text.strip().upper()
        if t == "10":
            t = "T"
        if t == "1":
            t = "A"
        if len(t) == 1 and t in RANK_CHARS:
            return RANK_CHARS.index(t) + 2
    raise ValueError(f"unknown rank {text!r}: use 2-9, T (or 10), J, Q, K, A")


def rank_name(rank: int) -> str:
    if rank == SMALL_JOKER_RANK:
        return "SB"
    if rank == BIG_JOKER_RANK:
        return "HR"
    return RANK_CHARS[rank - 2]


def parse_card(token: str) -> Card:
    c = _BY_NAME.get(token.strip().upper())
    if c is None:
        raise ValueError(
            f"unknown card {token!r}: a card is a suit S/H/C/D and a rank 2-9/T/J/Q/K/A, "
            "or SB (small joker) / HR (big joker)"
        )
    return c


def check_copies(cards: Iterable[int]) -> None:
    """Two decks hold each card twice; more copies are a mistake in the input."""
    counts = [0] * N_CODES
    for c in cards:
        counts[c] += 1
        if counts[c] > COPIES:
            raise ValueError(f"{NAMES[c]} appears {counts[c]} times; two decks hold only {COPIES}")


def parse_cards(text: str | Iterable[str | int]) -> list[Card]:
    """Cards from ``"S9 H9 SB"`` (spaces or commas) or from a list of names or codes."""
    if isinstance(text, str):
        tokens: list[str | int] = text.replace(",", " ").split()
    else:
        tokens = list(text)
    if not tokens:
        raise ValueError("no cards given")
    out: list[Card] = []
    for t in tokens:
        if isinstance(t, int) and not isinstance(t, bool):
            if not 0 <= t < N_CODES:
                raise ValueError(f"unknown card code {t}")
            out.append(CARDS[t])
        elif isinstance(t, str):
            out.append(parse_card(t))
        else:
            raise ValueError(f"unknown card {t!r}")
    check_copies(out)
    return out


def format_cards(cards: Iterable[int]) -> str:
    return " ".join(NAMES[c] for c in cards)


def full_deck() -> list[Card]:
    """The 108 cards of two decks, in code order."""
    return [CARDS[c] for c in range(N_CODES) for _ in range(COPIES)]


def rank_order(rank: int, level: int) -> int:
    """Size of a rank for singles, pairs, triples and same-rank bombs: the level rank sits above A."""
    return LEVEL_ORDER if rank == level else rank


def sort_key(level: int):
    """Sort key that puts cards in the deal's rank order (low to high), then by suit."""

    def key(c: int) -> tuple[int, int]:
        return (rank_order(RANK_OF[c], level), c)

    return key


def counts_of(cards: Iterable[int]) -> list[int]:
    counts = [0] * N_CODES
    for c in cards:
        counts[c] += 1
    return counts
