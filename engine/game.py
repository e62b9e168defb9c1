"""The match state machine: deals, tricks, partner takeover, tribute, levels (RULES.md §1, §5–§8).

One ``Game`` is a whole match. It is pure and deterministic: every deal's shuffle derives from
(seed, deal number) only, so ``Game.replay(seed, rules, actions)`` rebuilds the same state, and
``to_dict()`` is plain data (msgpack-safe) that ``from_dict`` restores exactly.

Seats are 0..3 in play order; seat ``s`` is on team ``s % 2``. Cards are int codes (engine.cards).

Actions (plain dicts):
  {"type": "play", "cards": [codes or names], "kind"?: str, "value"?: int}
  {"type": "pass"}
  {"type": "return", "card": code}
  {"type": "next_deal"}                      (phase deal_over, any seat)
Phases: "return", "play", "deal_over", "match_over".

``view(seat)`` keys: seat, phase, deal, level, levels, level_team, a_failures, hand, counts, turn,
leader, top, trick, finished, played, tribute, return_choices, pending, last_result, match_winner,
rules; and in a match scored in points (``Rules.match_deals``), points: the two teams' score.
``view(None)`` is a spectator's view (hand None). A view never holds another seat's unplayed
cards; tribute and return cards are public, as at a real table.

Events (plain dicts, never hidden cards): deal_started, tribute, refusal, return, play, pass,
trick_won, takeover, finished, deal_over, match_over.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from .cards import CARDS, N_CODES, full_deck, parse_card, sort_key
from .levels import Settlement, empty_streaks, partner_of, settle_deal
from .moves import legal_plays
from .plays import Play, beats, classify
from .rules import Rules, resolve_rules
from .scoring import score_deal
from .tribute import return_choices, tribute_plan

SEATS = (0, 1, 2, 3)
PHASES = ("return", "play", "deal_over", "match_over")
ERROR_CODES = (
    "bad_action", "bad_seat", "wrong_phase", "not_your_turn", "not_your_cards", "cannot_pass_lead",
    "not_a_play", "does_not_beat", "not_eligible", "match_over",
)
_DECK = [int(c) for c in full_deck()]
_STATE_VERSION = 1


class IllegalAction(ValueError):
    """An action refused with no change to the game: ``code`` is machine-readable, ``message`` human
    (English), ``fields`` the plain data a client words the refusal from in its own language (cards as
    codes, plays as ``{kind, value, cards}``, seats, the phase), so no client has to parse ``message``."""

    def __init__(self, code: str, message: str, fields: dict[str, Any] | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.fields = fields or {}


def _play_fields(play: Play, seat: int | None = None) -> dict[str, Any]:
    """A play as plain data for a refusal's fields (and whose it is, for the play on the table)."""
    out: dict[str, Any] = {"kind": play.kind, "value": play.value, "cards": [int(c) for c in play.cards]}
    if seat is not None:
        out["seat"] = seat
    return out


def deal_hands(seed: Any, deal: int) -> list[list[int]]:
    """The four 27-card hands of one deal; depends on (seed, deal number) only."""
    deck = list(_DECK)
    random.Random(f"{seed}:{deal}").shuffle(deck)
    return [deck[i * 27:(i + 1) * 27] for i in SEATS]


def trick_leader(top_seat: int, holding: list[bool]) -> int:
    """Who leads after a trick nobody beat: the top play's player if it still holds cards; else (接风)
    its partner; if the partner is out too, the next player in order who still holds cards.

    (In a four-player deal the last case never arises: when both partners are out the deal is over.)
    """
    if holding[top_seat]:
        return top_seat
    p = partner_of(top_seat)
    if holding[p]:
        return p
    for i in (1, 2, 3):
        s = (top_seat + i) % 4
        if holding[s]:
            return s
    return top_seat


def next_holder(hands: list[list[int]], seat: int) -> int:
    """The next seat after ``seat`` in play order that still holds cards (players out are skipped)."""
    for i in (1, 2, 3):
        s = (seat + i) % 4
        if hands[s]:
            return s
    return seat


def _copy(obj: Any) -> Any:
    """Deep copy of plain data (dict/list/tuple → list) so state never aliases a caller's object."""
    if isinstance(obj, dict):
        return {k: _copy(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_copy(v) for v in obj]
    return obj


def _card_code(c: Any) -> int:
    if isinstance(c, bool):
        raise ValueError(f"unknown card {c!r}")
    if isinstance(c, int):
        if 0 <= c < N_CODES:
            return int(c)
        raise ValueError(f"unknown card code {c}")
    if isinstance(c, str):
        return int(parse_card(c))
    raise ValueError(f"unknown card {c!r}")


class Game:
    """A whole match. Build with ``Game.new(seed, rules)``; drive with ``apply(seat, action)``."""

    def __init__(self) -> None:
        self.seed: Any = 0
        self.rules: Rules = resolve_rules(None)
        self.deal = 0
        self.levels = [2, 2]
        self.level_team = 0
        self.level = 2
        self.a_failures = [0, 0]
        self.points: list[int] | None = None  # a match scored in points (scoring.py): the score
        self.streaks = empty_streaks()
        self.phase = "play"
        self.hands: list[list[int]] = [[], [], [], []]
        self.turn: int | None = None
        self.leader: int | None = None
        self.top: dict | None = None
        self._top_play: Play | None = None
        self.trick: list[dict] = []
        self.passes = 0
        self.finished: list[int] = []
        self.played: list[int] = []
        self.tribute: dict | None = None
        self.deal_leader = 0
        self.prev_places: list[int] | None = None
        self.last_result: dict | None = None
        self.results: list[dict] = []
        self.match_winner: int | None = None
        self.events: list[dict] = []
        self._actions: list[list] = []  # [[seat, action], ...]: msgpack-ready, shared by to_dict
        self._rules_dict: dict = {}

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(cls, seed: int | str | None = 0, rules: Rules | str | dict | None = None) -> Game:
        """A new match: both teams at 2, the first deal dealt and ready to play (no tribute)."""
        if seed is not None and (not isinstance(seed, (int, str)) or isinstance(seed, bool)):
            raise ValueError(f"seed must be an int or a str, not {type(seed).__name__}")
        g = cls()
        g.seed = seed
        g.rules = resolve_rules(rules)
        g._rules_dict = g.rules.to_dict()
        g._start_deal()
        return g

    @classmethod
    def replay(cls, seed: Any, rules: Rules | str | dict | None, actions: Iterable[Any]) -> Game:
        """Rebuild a match from its seed, rules and action log ``[(seat, action), ...]``."""
        g = cls.new(seed, rules)
        for seat, action in actions:
            g.apply(seat, action)
        return g

    # ------------------------------------------------------------------ queries

    @property
    def actions(self) -> list[tuple[int, dict]]:
        """The action log ``[(seat, action), ...]`` (normalised actions: plays carry kind and value)."""
        return [(s, a) for s, a in self._actions]

    def pending_seats(self) -> list[int]:
        """Seats that may act now: receivers owing a return, the seat to play, or all (deal over)."""
        if self.phase == "return":
            return list(self.tribute["pending"]) if self.tribute else []
        if self.phase == "play":
            return [self.turn] if self.turn is not None else []
        if self.phase == "deal_over":
            return list(SEATS)
        return []

    def to_move(self) -> list[int]:
        return self.pending_seats()

    def hand(self, seat: int) -> list[int]:
        """A copy of one seat's hand (for the server's own use; views filter)."""
        return list(self.hands[seat])

    def top_play(self) -> Play | None:
        return self._top_play

    def legal_actions(self, seat: int) -> list[dict]:
        """Every legal action of ``seat`` now; play actions carry cards, kind and value."""
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in SEATS:
            return []
        if self.phase == "return":
            if not self.tribute or seat not in self.tribute["pending"]:
                return []
            return [{"type": "return", "card": c} for c in self._return_choices(seat)]
        if self.phase == "play":
            if seat != self.turn:
                return []
            out = [
                {"type": "play", "cards": [int(c) for c in p.cards], "kind": p.kind, "value": p.value}
                for p in legal_plays(self.hands[seat], self.level, self._top_play, self.rules)
            ]
            if self._top_play is not None:
                out.append({"type": "pass"})
            return out
        if self.phase == "deal_over":
            return [{"type": "next_deal"}]
        return []

    def return_choices(self, seat: int) -> list[int]:
        """The cards ``seat`` may return now ([] unless it owes a return)."""
        if self.phase != "return" or not self.tribute or seat not in self.tribute["pending"]:
            return []
        return self._return_choices(seat)

    def _return_choices(self, seat: int) -> list[int]:
        gift = self._gift_to(seat)
        return return_choices(self.hands[seat], gift["card"], self.level, self.rules,
                              to_partner=gift["from"] == partner_of(seat))

    def _gift_to(self, seat: int) -> dict:
        for g in self.tribute["gifts"]:
            if g["to"] == seat:
                return g
        raise KeyError(seat)

    def view(self, seat: int | None) -> dict:
        """What ``seat`` may see (``None``: a spectator). Never another seat's unplayed cards."""
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or seat not in SEATS):
            raise IllegalAction("bad_seat", f"seat must be 0-3 or None, not {seat!r}", {"need": "seat"})
        tribute = None
        if self.tribute is not None:
            t = self.tribute
            tribute = {
                "kind": t["kind"],
                "givers": list(t["givers"]),
                "gifts": [dict(g) for g in t["gifts"]],
                "refused": t["refused"],
                "returns": [dict(r) for r in t["returns"]],
                "pending": list(t["pending"]),
                "leader": t["leader"],
            }
        top = self.top
        return {
            "seat": seat,
            "phase": self.phase,
            "deal": self.deal,
            "level": self.level,
            "levels": list(self.levels),
            "level_team": self.level_team,
            "a_failures": list(self.a_failures),
            "hand": None if seat is None else sorted(self.hands[seat], key=sort_key(self.level)),
            "counts": [len(h) for h in self.hands],
            "turn": self.turn,
            "leader": self.leader,
            "top": None if top is None else {**top, "cards": list(top["cards"])},
            "trick": [dict(m, cards=list(m["cards"])) if "cards" in m else dict(m) for m in self.trick],
            "finished": list(self.finished),
            "played": list(self.played),  # in play order: diffs only append
            "tribute": tribute,
            "return_choices": [] if seat is None else self.return_choices(seat),
            "pending": self.pending_seats(),
            "last_result": _copy(self.last_result),
            "match_winner": self.match_winner,
            "rules": dict(self._rules_dict),
            **({} if self.rules.match_deals is None else {"points": self._points()}),
        }

    # ------------------------------------------------------------------ actions

    def apply(self, seat: int, action: dict) -> list[dict]:
        """Apply one action; return its events. Illegal → ``IllegalAction`` and no change at all."""
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in SEATS:
            raise IllegalAction("bad_seat", f"seat must be 0, 1, 2 or 3, not {seat!r}", {"need": "seat"})
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("bad_action",
                                'an action is a dict with a "type": play, pass, return or next_deal',
                                {"need": "type"})
        kind = action["type"]
        if kind not in ("play", "pass", "return", "next_deal"):
            raise IllegalAction("bad_action",
                                f"unknown action type {kind!r}: use play, pass, return or next_deal",
                                {"need": "type"})
        if self.phase == "match_over":
            raise IllegalAction("match_over", "the match is over; start a new match", {"action": kind})
        if kind == "play":
            play = self._check_play(seat, action)
            logged = {"type": "play", "cards": [int(c) for c in play.cards], "kind": play.kind,
                      "value": play.value}
            events = self._do_play(seat, play)
        elif kind == "pass":
            self._check_turn(seat, "pass")
            if self._top_play is None:
                raise IllegalAction("cannot_pass_lead",
                                    "you are leading this trick: lead any play, you cannot pass", {})
            logged = {"type": "pass"}
            events = self._do_pass(seat)
        elif kind == "return":
            card = self._check_return(seat, action)
            logged = {"type": "return", "card": card}
            events = self._do_return(seat, card)
        else:
            if self.phase != "deal_over":
                raise IllegalAction("wrong_phase",
                                    f"next_deal is only possible once a deal is over (phase {self.phase})",
                                    {"action": "next_deal", "phase": self.phase})
            logged = {"type": "next_deal"}
            events = self._start_deal()
        self._actions.append([seat, logged])
        return events

    def _check_turn(self, seat: int, what: str) -> None:
        if self.phase != "play":
            raise IllegalAction("wrong_phase", f"cannot {what} in phase {self.phase}",
                                {"action": what, "phase": self.phase})
        if seat != self.turn:
            raise IllegalAction("not_your_turn", f"it is seat {self.turn}'s turn, not seat {seat}'s",
                                {"action": what, "turn": self.turn})

    def readings(
        self, seat: int, cards: Any, kind: str | None = None, value: int | None = None
    ) -> list[Play]:
        """Every interpretation of playing these cards that is legal now, the default first.

        A client offers these when a selection can be played more than one way (RULES.md §3: "x4567
        as 45678", a straight flush or a straight). ``kind``/``value`` narrow them to one reading.
        Raises ``IllegalAction`` exactly as playing the cards would.
        """
        plays = self._interpretations(seat, {"cards": cards, "kind": kind, "value": value})
        top = self._top_play
        legal = [p for p in plays if beats(p, top)]  # strongest first: the default of RULES.md §3
        if not legal:
            raise IllegalAction("does_not_beat", f"{plays[0].describe()} does not beat {top.describe()}",
                                {"play": _play_fields(plays[0]), "top": _play_fields(top, self.top["seat"]),
                                 "level": self.level})
        return legal

    def _check_play(self, seat: int, action: dict) -> Play:
        return self.readings(seat, action.get("cards"), action.get("kind"), action.get("value"))[0]

    def _interpretations(self, seat: int, action: dict) -> list[Play]:
        """The readings of the action's cards (narrowed to its ``kind``/``value``), strongest first."""
        self._check_turn(seat, "play")
        raw = action.get("cards")
        if isinstance(raw, str):
            raw = raw.replace(",", " ").split()
        if not isinstance(raw, (list, tuple)) or not raw:
            raise IllegalAction("bad_action", 'a play needs "cards": a non-empty list of cards',
                                {"need": "cards"})
        try:
            codes = [_card_code(c) for c in raw]
        except ValueError as e:
            raise IllegalAction("bad_action", str(e), {"need": "cards"}) from None
        counts = [0] * N_CODES
        for c in self.hands[seat]:
            counts[c] += 1
        for c in codes:
            counts[c] -= 1
            if counts[c] < 0:
                raise IllegalAction("not_your_cards", f"you do not hold {CARDS[c]} (as many times as played)",
                                    {"cards": [c], "held": self.hands[seat].count(c)})
        plays = classify(codes, self.level, self.rules)
        if not plays:
            raise IllegalAction("not_a_play", f"{' '.join(str(CARDS[c]) for c in codes)} is not a legal play",
                                {"cards": codes})
        want_kind = action.get("kind")
        want_value = action.get("value")
        if want_kind is not None or want_value is not None:
            plays = [p for p in plays if (want_kind is None or p.kind == want_kind)
                     and (want_value is None or p.value == want_value)]
            if not plays:
                raise IllegalAction("not_a_play", f"these cards cannot be played as {want_kind or ''} "
                                    f"{'' if want_value is None else want_value}".strip(),
                                    {"cards": codes, "kind": want_kind, "value": want_value})
        return plays

    def _check_return(self, seat: int, action: dict) -> int:
        if self.phase != "return":
            raise IllegalAction("wrong_phase", f"cannot return a card in phase {self.phase}",
                                {"action": "return", "phase": self.phase})
        if seat not in self.tribute["pending"]:
            raise IllegalAction("not_your_turn", f"seat {seat} owes no return card", {"action": "return"})
        try:
            card = _card_code(action.get("card"))
        except ValueError as e:
            raise IllegalAction("bad_action", f'a return needs "card": one card ({e})',
                                {"need": "card"}) from None
        if card not in self.hands[seat]:
            raise IllegalAction("not_your_cards", f"you do not hold {CARDS[card]}",
                                {"cards": [card], "held": 0})
        choices = self._return_choices(seat)
        if card not in choices:
            raise IllegalAction("not_eligible", f"{CARDS[card]} may not be returned; choose one of "
                                f"{' '.join(str(CARDS[c]) for c in choices)}",
                                {"card": card, "choices": choices})
        return card

    # ------------------------------------------------------------------ transitions

    def _emit(self, events: list[dict], event: dict) -> None:
        events.append(event)
        self.events.append(event)

    def _start_deal(self) -> list[dict]:
        events: list[dict] = []
        self.deal += 1
        if self.last_result is not None:
            self.level_team = self.last_result["winner_team"]
        self.level = self.levels[self.level_team]
        key = sort_key(self.level)
        hands = deal_hands(self.seed, self.deal)
        self.hands = [sorted(h, key=key) for h in hands]
        self.turn = None
        self.leader = None
        self.top = None
        self._top_play = None
        self.trick = []
        self.passes = 0
        self.finished = []
        self.played = []
        self.tribute = None
        if self.prev_places is None:
            if self.rules.first_leader == "random":
                leader = random.Random(f"{self.seed}:{self.deal}:leader").randrange(4)
            else:
                leader = 0
            self.deal_leader = leader
            self._emit(events, self._deal_started_event())
            self._begin_play(leader)
            return events
        plan = tribute_plan(self.prev_places, self.hands, self.level, self.rules)
        self.deal_leader = plan.leader
        self.tribute = {
            "kind": plan.kind,
            "givers": list(plan.givers),
            "gifts": [g.to_dict() for g in plan.gifts],
            "refused": plan.refused,
            "returns": [],
            "pending": [g.receiver for g in plan.gifts],
            "leader": plan.leader,
        }
        self._emit(events, self._deal_started_event())
        if plan.refused:
            self._emit(events, {"type": "refusal", "kind": plan.kind, "seats": list(plan.givers),
                                "leader": plan.leader})
            self._begin_play(plan.leader)
            return events
        for g in plan.gifts:
            self.hands[g.giver].remove(g.card)
            self._insert(g.receiver, g.card)
            self._emit(events, {"type": "tribute", "kind": plan.kind, "from": g.giver, "to": g.receiver,
                                "card": g.card})
        self.phase = "return"
        return events

    def _deal_started_event(self) -> dict:
        return {"type": "deal_started", "deal": self.deal, "level": self.level, "level_team": self.level_team,
                "levels": list(self.levels), "leader": self.deal_leader}

    def _begin_play(self, leader: int) -> None:
        self.phase = "play"
        self.turn = leader
        self.leader = leader

    def _insert(self, seat: int, card: int) -> None:
        hand = self.hands[seat]
        hand.append(card)
        hand.sort(key=sort_key(self.level))

    def _do_return(self, seat: int, card: int) -> list[dict]:
        events: list[dict] = []
        gift = self._gift_to(seat)
        giver = gift["from"]
        self.hands[seat].remove(card)
        self._insert(giver, card)
        self.tribute["returns"].append({"from": seat, "to": giver, "card": card})
        self.tribute["pending"].remove(seat)
        event = {"type": "return", "from": seat, "to": giver, "card": card}
        if not self.tribute["pending"]:
            self._begin_play(self.deal_leader)
            event["turn"] = self.deal_leader
        self._emit(events, event)
        return events

    def _do_play(self, seat: int, play: Play) -> list[dict]:
        events: list[dict] = []
        hand = self.hands[seat]
        cards = [int(c) for c in play.cards]
        for c in cards:
            hand.remove(c)
        self.played.extend(cards)
        move = {"seat": seat, "type": "play", "kind": play.kind, "value": play.value, "cards": cards}
        self.trick.append(move)
        self.top = {"seat": seat, "kind": play.kind, "value": play.value, "cards": list(cards)}
        self._top_play = play
        self.passes = 0
        if self.leader is None:
            self.leader = seat
        event = {"type": "play", "seat": seat, "kind": play.kind, "value": play.value, "cards": list(cards),
                 "left": len(hand)}
        self._emit(events, event)
        if not hand:
            self.finished.append(seat)
            self._emit(events, {"type": "finished", "seat": seat, "place": len(self.finished)})
            if partner_of(self.finished[0]) in self.finished or len(self.finished) == 3:
                self._end_deal(events)
                return events
        self.turn = next_holder(self.hands, seat)
        event["turn"] = self.turn
        return events

    def _do_pass(self, seat: int) -> list[dict]:
        events: list[dict] = []
        self.trick.append({"seat": seat, "type": "pass"})
        self.passes += 1
        event = {"type": "pass", "seat": seat}
        self._emit(events, event)
        top_seat = self.top["seat"]
        others = sum(1 for s in SEATS if s != top_seat and self.hands[s])
        if self.passes < others:
            self.turn = next_holder(self.hands, seat)
            event["turn"] = self.turn
            return events
        # Trick over: nobody beat the top play.
        lead = trick_leader(top_seat, [bool(h) for h in self.hands])
        self._emit(events, {"type": "trick_won", "seat": top_seat, "leader": lead})
        if lead != top_seat:
            self._emit(events, {"type": "takeover", "from": top_seat, "seat": lead,
                                "partner": lead == partner_of(top_seat)})
        self.trick = []
        self.top = None
        self._top_play = None
        self.passes = 0
        self.leader = lead
        self.turn = lead
        event["turn"] = lead
        return events

    def _end_deal(self, events: list[dict]) -> None:
        # RULES.md §5: the deal ends as soon as the 1st's partner is out or three are out; the players
        # still holding cards get the remaining places in play order from the last finisher. (The rules
        # leave the order of a 1st+2nd deal's two losers open; upgrades and tribute don't depend on it.)
        last = self.finished[-1]
        rest = []
        s = last
        for _ in range(3):
            s = (s + 1) % 4
            if self.hands[s]:
                rest.append(s)
        places = self.finished + rest
        before = list(self.levels)
        points_before = self._points()
        if points_before is not None:
            st: Settlement = score_deal(points_before, places, self.deal, self.rules, self.levels,
                                        self.a_failures)
            self.points = list(st.points)
        else:
            st = settle_deal(self.levels, places, self.level_team, self.rules, self.a_failures, self.streaks)
        self.levels = list(st.levels)
        self.a_failures = list(st.a_failures)
        self.streaks = st.streaks
        result = {
            "deal": self.deal,
            "places": places,
            "winner_team": st.winner_team,
            "upgrade": st.upgrade,
            "level": self.level,
            "level_team": self.level_team,
            "levels_before": before,
            "levels": list(self.levels),
            "match_won": st.match_won,
            "reason": st.reason,
            "reason_zh": st.reason_zh,
            "a_failures": list(self.a_failures),
            "adjustments": list(st.adjustments),
        }
        if points_before is not None:  # a match scored in points
            result.update(points_before=points_before, points=list(self.points))
        self.last_result = result
        self.results.append(result)
        self.prev_places = list(places)
        self.turn = None
        self._emit(events, {"type": "deal_over", **_copy(result)})
        if st.match_won:
            self.phase = "match_over"
            self.match_winner = st.match_winner
            over = {"type": "match_over", "winner": st.match_winner, "winner_team": st.match_winner,
                    "deal": self.deal, "levels": list(self.levels)}
            if points_before is not None:
                over["points"] = list(self.points)
            self._emit(events, over)
        else:
            self.phase = "deal_over"

    # ------------------------------------------------------------------ serialisation

    def to_dict(self) -> dict:
        """The whole state as plain data (dict/list/int/str/bool/None; str keys): msgpack-safe.

        The logs (events, actions, results) are append-only and their entries are never changed once
        written, so they are shared rather than copied: treat them as read-only."""
        return {
            "version": _STATE_VERSION,
            "seed": self.seed,
            "rules": dict(self._rules_dict),
            "deal": self.deal,
            "levels": list(self.levels),
            "level_team": self.level_team,
            "level": self.level,
            "a_failures": list(self.a_failures),
            **({} if self.points is None else {"points": list(self.points)}),
            "streaks": _copy(self.streaks),
            "phase": self.phase,
            "hands": [list(h) for h in self.hands],
            "turn": self.turn,
            "leader": self.leader,
            "top": _copy(self.top),
            "trick": _copy(self.trick),
            "passes": self.passes,
            "finished": list(self.finished),
            "played": list(self.played),
            "tribute": _copy(self.tribute),
            "deal_leader": self.deal_leader,
            "prev_places": None if self.prev_places is None else list(self.prev_places),
            "last_result": _copy(self.last_result),
            "results": list(self.results),
            "match_winner": self.match_winner,
            "events": list(self.events),
            "actions": list(self._actions),
        }

    @classmethod
    def from_dict(cls, d: dict) -> Game:
        """Restore a state saved by ``to_dict`` (also after a msgpack round trip); log entries are shared."""
        if not isinstance(d, dict) or d.get("version") != _STATE_VERSION:
            raise ValueError("not a saved game state (missing or unknown version)")
        g = cls()
        g.seed = d["seed"]
        g.rules = resolve_rules(dict(d["rules"]))
        g._rules_dict = g.rules.to_dict()
        g.deal = d["deal"]
        g.levels = list(d["levels"])
        g.level_team = d["level_team"]
        g.level = d["level"]
        g.a_failures = list(d["a_failures"])
        g.points = None if d.get("points") is None else list(d["points"])  # states saved before it had none
        g.streaks = _copy(d["streaks"])
        g.phase = d["phase"]
        key = sort_key(g.level)
        g.hands = [sorted((int(c) for c in h), key=key) for h in d["hands"]]
        g.turn = d["turn"]
        g.leader = d["leader"]
        g.top = _copy(d["top"])
        g._top_play = None
        if g.top is not None:
            t = g.top
            g._top_play = Play(t["kind"], t["value"], tuple(CARDS[c] for c in t["cards"]))
        g.trick = _copy(d["trick"])
        g.passes = d["passes"]
        g.finished = list(d["finished"])
        g.played = list(d["played"])
        g.tribute = _copy(d["tribute"])
        g.deal_leader = d["deal_leader"]
        g.prev_places = None if d["prev_places"] is None else list(d["prev_places"])
        g.last_result = _copy(d["last_result"])
        g.results = list(d["results"])
        g.match_winner = d["match_winner"]
        g.events = list(d["events"])
        g._actions = list(d["actions"])
        return g

    def _points(self) -> list[int] | None:
        """The score of a match scored in points ([0, 0] before its first deal is settled), else None."""
        if self.rules.match_deals is None:
            return None
        return [0, 0] if self.points is None else list(self.points)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"Game(seed={self.seed!r}, deal={self.deal}, phase={self.phase!r}, level={self.level}, "
                f"levels={self.levels}, turn={self.turn})")


__all__ = ["Game", "IllegalAction", "deal_hands", "trick_leader", "next_holder", "ERROR_CODES", "PHASES"]
