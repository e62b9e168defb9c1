"""The competition protocol's messages built from game views (pure, no I/O).

A third-party bot sees a table through these messages only. Each builder takes what one seat
may know (its ``view``) plus the public history the protocol repeats (last action, table play),
so the same functions serve the standalone platform and AI seats in rooms.
"""

from __future__ import annotations

from typing import Any

from .competition import PASS_ACTION, action_of, hand_key, hand_order, rank_char
from .moves import legal_plays
from .plays import Play
from .rules import Rules

Msg = dict[str, Any]


def top_of(view: Msg) -> Play | None:
    top = view.get("top")
    if not top:
        return None
    return Play(top["kind"], top["value"], tuple(top["cards"]))


def move_action(move: Msg | None, level: int) -> list | None:
    """A trick move of a view (``{"seat", "type", ...}``) as an official action."""
    if not move:
        return None
    if move["type"] == "pass":
        return list(PASS_ACTION)
    return action_of(Play(move["kind"], move["value"], tuple(move["cards"])), level)


def before_tribute(view: Msg, gifts: list[Msg]) -> Msg:
    """The view as it was before ``gifts`` changed hands (the engine hands them over as it deals).

    notify/beginning and act/tribute show this: the giver's hand still holds the card it must give and
    every count reads 27, as on the old platform, where the tribute is applied only when notify/tribute
    announces it. A bot shown the hand without that card chooses from the wrong hand (one real bot
    divides by zero on it)."""
    seat = view["seat"]
    hand = None if view.get("hand") is None else list(view["hand"])
    for g in gifts:
        if hand is not None and g["to"] == seat:
            hand.remove(g["card"])
        if hand is not None and g["from"] == seat:
            hand.append(g["card"])
    return {**view, "hand": hand, "counts": _counts_before(view["counts"], gifts)}


def _counts_before(counts: list[int], moves: list[Msg]) -> list[int]:
    """Card counts before these ``{"from", "to"}`` card moves."""
    out = list(counts)
    for m in moves:
        out[m["from"]] += 1
        out[m["to"]] -= 1
    return out


def beginning(view: Msg) -> Msg:
    """notify/beginning of a view before tribute (``before_tribute``): the dealt hand and the seat."""
    return {"type": "notify", "stage": "beginning", "handCards": hand_order(view["hand"], view["level"]),
            "myPos": view["seat"]}


def _ranks(view: Msg) -> tuple[str, str, str]:
    seat = view["seat"]
    levels = view["levels"]
    return rank_char(levels[seat % 2]), rank_char(levels[1 - seat % 2]), rank_char(view["level"])


def public_info(view: Msg) -> list[Msg]:
    level = view["level"]
    last: dict[int, Msg] = {}
    for move in view.get("trick") or ():
        last[move["seat"]] = move
    return [{"rest": view["counts"][s], "playArea": move_action(last.get(s), level)} for s in range(4)]


def act_play(view: Msg, rules: Rules | None = None) -> tuple[Msg, list[Play | None]]:
    """act/play for the seat to move, and what each index means (None = PASS, first when following)."""
    level = view["level"]
    top = top_of(view)
    options: list[Play | None] = list(legal_plays(view["hand"], level, top, rules))
    if top is not None:
        options.insert(0, None)
    actions = [list(PASS_ACTION) if p is None else action_of(p, level) for p in options]
    trick = view.get("trick") or []
    if top is None:
        cur_pos, cur_action, greater_pos, greater_action = -1, None, -1, None
    else:
        last = trick[-1] if trick else None
        cur_pos = last["seat"] if last else -1
        cur_action = move_action(last, level)
        greater_pos = view["top"]["seat"]
        greater_action = action_of(top, level)
    self_rank, oppo_rank, cur_rank = _ranks(view)
    msg = {
        "type": "act", "stage": "play", "handCards": hand_order(view["hand"], level),
        "publicInfo": public_info(view), "selfRank": self_rank, "oppoRank": oppo_rank, "curRank": cur_rank,
        "curPos": cur_pos, "curAction": cur_action,
        "greaterPos": greater_pos, "greaterAction": greater_action,
        "actionList": actions, "indexRange": len(actions) - 1,
    }
    return msg, options


def _phase_act(view: Msg, stage: str, actions: list[list]) -> Msg:
    self_rank, oppo_rank, cur_rank = _ranks(view)
    return {
        "type": "act", "stage": stage, "handCards": hand_order(view["hand"], view["level"]),
        "publicInfo": public_info(view), "selfRank": self_rank, "oppoRank": oppo_rank, "curRank": cur_rank,
        "curPos": -1, "curAction": None, "greaterPos": -1, "greaterAction": None,
        "actionList": actions, "indexRange": len(actions) - 1,
    }


def act_tribute(view: Msg, card: int) -> Msg:
    """act/tribute: the card the rules make this seat give (chosen by the engine, as §7 says), asked
    from a view before tribute (``before_tribute``)."""
    return _phase_act(view, "tribute", [["tribute", "tribute", hand_order([card], view["level"])]])


def act_back(view: Msg, tribute_pos: int, tribute_card: int) -> tuple[Msg, list[int]]:
    """act/back: every eligible return card, one action each. Counts as notify/tribute left them:
    returns already made by others are announced only by notify/back, once every return is made."""
    level = view["level"]
    ordered = sorted(set(view.get("return_choices") or ()), key=hand_key(level))
    made = (view.get("tribute") or {}).get("returns") or []
    view = {**view, "counts": _counts_before(view["counts"], made)}
    msg = _phase_act(view, "back", [["back", "back", hand_order([c], level)] for c in ordered])
    msg["tributePos"] = tribute_pos
    msg["tribute"] = hand_order([tribute_card], level)[0]
    return msg, ordered


def notify_play(cur_pos: int, cur_action: list, greater_pos: int, greater_action: list | None) -> Msg:
    return {"type": "notify", "stage": "play", "curPos": cur_pos, "curAction": cur_action,
            "greaterPos": greater_pos, "greaterAction": greater_action}


def notify_tribute(gifts: list[Msg], level: int) -> Msg:
    return {"type": "notify", "stage": "tribute",
            "result": [[g["from"], g["to"], hand_order([g["card"]], level)[0]] for g in gifts]}


def notify_anti_tribute(seats: list[int]) -> Msg:
    return {"type": "notify", "stage": "anti-tribute", "antiNums": len(seats), "antiPos": seats}


def notify_back(returns: list[Msg], level: int) -> Msg:
    return {"type": "notify", "stage": "back",
            "result": [[r["from"], r["to"], hand_order([r["card"]], level)[0]] for r in returns]}


def episode_over(order: list[int], level: int, rest: dict[int, list[int]]) -> Msg:
    return {"type": "notify", "stage": "episodeOver", "order": order, "curRank": rank_char(level),
            "restCards": [[s, hand_order(cards, level)] for s, cards in sorted(rest.items()) if cards]}


def game_over(cur_times: int, setting_times: int) -> Msg:
    return {"type": "notify", "stage": "gameOver", "curTimes": cur_times, "settingTimes": setting_times}


def game_result(victories: list[int], draws: list[int]) -> Msg:
    return {"type": "notify", "stage": "gameResult", "victoryNum": victories, "draws": draws}
