"""The table tells the story (issue 13, Must show 1 and 2): plays made for a player are marked and
summed up for them, the history is the server's action log, wild cards show where they stand, sounds
and the tab title alert the player. Real server, real Redis, real Chromium."""

from __future__ import annotations

import contextlib
import itertools
import json
import re
import time
from pathlib import Path
from typing import Any

import msgpack
import pytest
import redis
from playwright.sync_api import Page
from test_browser import can_act, create_room, hand_of, inject, start_with_bots, take_turn, view_of
from websockets.sync.client import connect

from engine import Game
from server.codec import decode

pytestmark = pytest.mark.slow

PHONE = {"width": 390, "height": 844}
MARKED = {"away", "timer", "autoplay", "ai_fallback"}


class Seat:
    """A scripted player over the real protocol, to set a room up (or to sit in a seat and not play)."""

    def __init__(self, base: str) -> None:
        self.stack = contextlib.ExitStack()
        self.ws = self.stack.enter_context(
            connect(base.replace("http://", "ws://") + "/ws", open_timeout=5, max_queue=None))
        self.ids = itertools.count(1)
        self.request({"type": "hello", "protocol": 1})

    def request(self, msg: dict[str, Any]) -> dict[str, Any]:
        msg_id = next(self.ids)
        self.ws.send(msgpack.packb({**msg, "id": msg_id}))
        while True:
            reply = msgpack.unpackb(self.ws.recv(timeout=10))
            if reply["type"] in ("ack", "error") and reply.get("id") == msg_id:
                assert reply["type"] == "ack", reply
                return reply["result"]

    def close(self) -> None:
        self.stack.close()


Reply = dict[str, Any]


def room_of_two(base: str, seed: int, **settings: Any) -> tuple[str, Reply, Reply, Seat, Seat]:
    """Ann (seat 0, host) and Bo (seat 1) join over the protocol; bots in seats 2 and 3."""
    ann = Seat(base)
    made = ann.request({"type": "create", "nickname": "Ann", "bots": [2, 3], "bot_delay": 0, "seed": seed,
                        **settings})
    bo = Seat(base)
    joined = bo.request({"type": "join", "code": made["code"], "nickname": "Bo"})
    return made["code"], made, joined, ann, bo


def open_seat(context: Any, base: str, code: str, seat: int, token: str) -> Any:
    """A browser that holds the seat's token, as one that joined it would: it resumes the seat."""
    page = context.new_page()
    page.goto(base + "/")
    saved = json.dumps({"seat": seat, "token": token})
    page.evaluate("([code, saved]) => { localStorage.setItem(`guandan:seat:${code}`, saved);"
                  " localStorage.setItem('guandan:last-room', code); }", [code, saved])
    page.goto(f"{base}/?room={code}")
    page.wait_for_selector("[data-testid=header-code]", timeout=10_000)
    return page


def action_log(live_data: Path, code: str) -> list[dict[str, Any]]:
    """The room's action log, read from the server's own Redis (its Stream)."""
    client = redis.Redis(unix_socket_path=str(live_data / "redis.sock"))
    try:
        return [{"v": int(f[b"v"]), **decode(f[b"rec"])} for _, f in client.xrange(f"gd:log:{code}")]
    finally:
        client.close()


def deal_moves(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The plays and passes of the deal under way, in order."""
    moves: list[dict[str, Any]] = []
    for r in log:
        if r["kind"] == "game" and r["action"]["type"] == "next_deal":
            moves = []
        elif r["kind"] == "game" and r["action"]["type"] in ("play", "pass"):
            moves.append(r)
    return moves


def cards_of(element: Any) -> list[int]:
    text = element.get_attribute("data-cards")
    return [int(c) for c in text.split(",")] if text else []


def shown_cards(locator: Any) -> list[int]:
    return locator.locator("[data-card]").evaluate_all("els => els.map(e => +e.dataset.card)")


def act_once(page: Any) -> None:
    before = page.evaluate("() => globalThis.guandan.conn.state.version")
    take_turn(page)
    page.wait_for_function(f"() => globalThis.guandan.conn.state.version > {before}", timeout=10_000)


def test_a_deal_with_a_dropout_is_marked_summed_up_and_matches_the_log(browser, live_server, live_data):
    seed = 7
    code, made, joined, ann_py, bo_py = room_of_two(live_server, seed, grace=0.5)
    ann_ctx, bo_ctx = browser.new_context(viewport=PHONE), browser.new_context(viewport=PHONE)
    ann = open_seat(ann_ctx, live_server, code, 0, made["token"])
    ann_py.close()
    ann.click("[data-testid=start]")
    hand_of(ann)
    bo_py.close()  # Bo drops out: after the grace period our bot plays his seat
    # Ann plays on: the table marks Bo's moves made by our bot, and a toast tells the table as they happen
    seen_mark = seen_toast = False
    toasts: set[tuple[str, str]] = set()
    deadline = time.monotonic() + 90
    while not (seen_mark and seen_toast):
        assert time.monotonic() < deadline, "no marked move of the dropped seat was shown"
        assert view_of(ann)["phase"] == "play", "the deal ended before Bo's bot was seen"
        seen_mark |= ann.locator("[data-testid=table-seat-1] [data-testid=by-mark][data-by=away]").count() > 0
        seen = ann.locator("[data-testid=toast][data-by=away][data-seat='1']")
        toasts |= set(map(tuple, seen.evaluate_all("els => els.map(e => [e.dataset.type, e.textContent])")))
        seen_toast |= len(toasts) > 0
        if can_act(ann):
            act_once(ann)
        else:
            ann.wait_for_timeout(30)
    for kind, toast in toasts:  # a pass is said as one ("the bot played 过" before)
        assert "Bo" in toast and ("机器人代为过牌" if kind == "pass" else "机器人代出：") in toast, toasts
    # Bo comes back: a summary of what was played in his name, as the server's log has it
    bo = open_seat(bo_ctx, live_server, code, 1, joined["token"])
    bo.wait_for_function("() => globalThis.guandan.ui.state?.view?.auto?.[1] === null", timeout=10_000)
    summary = bo.locator("[data-testid=in-your-name]")
    summary.wait_for(timeout=10_000)
    made_for_bo = [r for r in action_log(live_data, code) if r["kind"] == "game" and r["seat"] == 1]
    assert made_for_bo and {r["by"] for r in made_for_bo} == {"away"}
    rows = summary.locator("[data-testid=summary-move]")
    assert rows.count() == len(made_for_bo)
    for i, r in enumerate(made_for_bo):
        row = rows.nth(i)
        assert row.get_attribute("data-type") == r["action"]["type"]
        assert sorted(cards_of(row)) == sorted(r["action"].get("cards", []))
    assert "你不在时" in summary.inner_text()
    bo.click("[data-testid=in-your-name-ok]")
    summary.wait_for(state="detached")
    # both play the deal out
    deadline = time.monotonic() + 240
    while not ann.locator("[data-testid=deal-result]").is_visible():
        assert time.monotonic() < deadline, "the deal did not end in time"
        acted = False
        for page in (ann, bo):
            if can_act(page):
                act_once(page)
                acted = True
        if not acted:
            ann.wait_for_timeout(30)
    log = action_log(live_data, code)
    game = Game.replay(seed, None, [[r["seat"], r["action"]] for r in log if r["kind"] == "game"])
    assert game.phase == "deal_over"
    # every seat's leftover cards are shown at the deal's end
    result = ann.locator("[data-testid=deal-result]")
    for seat in range(4):
        left = result.locator(f"[data-testid=leftover-{seat}]")
        assert sorted(cards_of(left)) == sorted(shown_cards(left)) == sorted(game.hands[seat])
    assert any(game.hands)
    # the history lists every play and pass of the deal, in order, as the log has them, marked by who made it
    ann.click("[data-testid=result-history]")
    rows = ann.locator("[data-testid=history] [data-testid=move]")
    moves = deal_moves(log)
    assert rows.count() == len(moves) > 20
    shown = rows.evaluate_all("els => els.map(e => [+e.dataset.seat, e.dataset.type, e.dataset.kind || null,"
                              " e.dataset.cards, e.dataset.by, !!e.querySelector('[data-testid=by-mark]')])")
    expected = [[r["seat"], r["action"]["type"], r["action"].get("kind"),
                 sorted(r["action"].get("cards", [])), r["by"], r["by"] in MARKED] for r in moves]
    got = [[s, t, k, sorted(int(c) for c in cards.split(",")) if cards else [], by, mark]
           for s, t, k, cards, by, mark in shown]
    assert got == expected
    assert {"away", "human", "bot"} <= {r["by"] for r in moves}
    for ctx in (ann_ctx, bo_ctx):
        ctx.close()


def test_a_dropped_friend_is_said_to_be_away_before_the_bot_takes_over(browser, live_server):
    """Between the drop and the bot taking the seat (the grace period) the table showed only a grey dot:
    it says so in words, and says no more once the friend is back."""
    code, made, joined, ann_py, bo_py = room_of_two(live_server, 5, grace=60)
    ann = open_seat(browser.new_context(viewport=PHONE), live_server, code, 0, made["token"])
    ann_py.close()
    ann.click("[data-testid=start]")
    hand_of(ann)
    assert ann.locator("[data-testid=offline-1]").count() == 0
    bo_py.close()
    badge = ann.locator("[data-testid=offline-1]")
    badge.wait_for(timeout=10_000)
    # and how long until the bot plays for him (the room's 60 s grace period, counted down)
    # Bo's is a side seat: the clock on a line of its own there, without the separator
    assert re.fullmatch(r"掉线中\s+(60|5\d)秒", badge.inner_text()), badge.inner_text()
    assert view_of(ann)["auto"][1] is None  # the bot is not in yet
    ann.click("[data-testid=lang]")
    assert re.fullmatch(r"dropped · waiting\s+(60|5\d) s", badge.inner_text()), badge.inner_text()
    bo = open_seat(browser.new_context(viewport=PHONE), live_server, code, 1, joined["token"])
    badge.wait_for(state="detached", timeout=10_000)
    bo.context.close()
    ann.context.close()


def test_leaving_mid_match_is_asked_first_and_the_bot_plays_at_once(browser, live_server):
    """Leave mid-match used to detach at once, with no word, and the table waited out the 15 s grace
    period with "dropped" on the seat: now it asks, the bot takes the seat at once, and the others read
    that the friend left."""
    code, made, joined, ann_py, bo_py = room_of_two(live_server, 6, grace=60)
    ann = open_seat(browser.new_context(viewport=PHONE), live_server, code, 0, made["token"])
    ann_py.close()
    ann.click("[data-testid=start]")
    hand_of(ann)
    bo = open_seat(browser.new_context(), live_server, code, 1, joined["token"])
    bo_py.close()
    hand_of(bo)
    ask = bo.locator("[data-testid=leave-confirm]")
    bo.click("[data-testid=leave]")
    ask.wait_for()
    assert ask.get_attribute("role") == "alertdialog"
    assert f"继续房间 {code} 的牌局" in ask.inner_text()  # the way back, named as the start page names it
    focused = "document.activeElement.dataset.testid"
    assert bo.evaluate(focused) == "leave-stay"  # the safe answer
    bo.keyboard.press("Tab")
    assert bo.evaluate(focused) == "leave-go"
    bo.keyboard.press("Tab")  # the focus stays in the question (aria-modal), not behind it
    assert bo.evaluate(focused) == "leave-stay"
    bo.keyboard.press("Escape")
    ask.wait_for(state="detached")
    bo.click("[data-testid=leave]")
    bo.click("[data-testid=leave-stay]")
    ask.wait_for(state="detached")
    assert view_of(ann)["auto"][1] is None and bo.locator("[data-testid=hand]").count() == 1
    bo.click("[data-testid=leave]")
    bo.click("[data-testid=leave-go]")
    bo.locator("[data-testid=resume]").wait_for(timeout=10_000)  # the seat is kept for the token
    badge = ann.locator("[data-testid=auto-1]")
    badge.wait_for(timeout=10_000)  # far sooner than the 60 s grace period
    assert badge.get_attribute("data-auto") == "left" and badge.inner_text() == "已离开·托管"
    assert ann.locator("[data-testid=offline-1]").count() == 0  # not "dropped · waiting"
    ann.click("[data-testid=lang]")
    assert badge.inner_text() == "left · bot plays"
    bo.click("[data-testid=resume]")
    hand_of(bo)
    badge.wait_for(state="detached", timeout=10_000)
    bo.context.close()
    ann.context.close()


def test_a_wild_straight_shows_as_read_in_both_languages(browser, live_server):
    """Level 2, seed 0: seat 0 holds ♥2 (the wild card) and ♠5 ♠6 ♥7 ♠8; played as 45678 the wild
    card is the 4: first, marked, standing for 4; the label says so."""
    code, made, _joined, ann_py, bo_py = room_of_two(live_server, 0)  # Bo sits and never plays
    ctx = browser.new_context(viewport=PHONE)
    page = open_seat(ctx, live_server, code, 0, made["token"])
    ann_py.close()
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=your-turn]", timeout=15_000)
    hand = page.locator("[data-testid=hand] [data-card]")
    codes = [int(x) for x in hand.evaluate_all("els => els.map(e => e.dataset.card)")]
    straight = [1, 12, 16, 21, 24]  # ♥2 ♠5 ♠6 ♥7 ♠8
    for card in straight:
        hand.nth(codes.index(card)).click()
    page.click("[data-testid=play]")
    page.locator("[data-testid=readings] button", has_text="45678").click()
    label = page.locator("[data-testid=top-label]")
    label.wait_for(timeout=10_000)
    assert "顺子 45678" in label.inner_text()
    top = page.locator("[data-testid=top-cards]")
    assert shown_cards(top) == [1, 12, 16, 21, 24]  # the wild card first: it is the 4
    wild = top.locator(".stand-in")
    assert wild.count() == 1 and wild.get_attribute("data-as") == "4"
    assert wild.locator("[data-card]").get_attribute("data-card") == "1"
    assert "wild" in wild.locator(".card").get_attribute("class")
    assert shown_cards(page.locator("[data-testid=table-seat-0] .last-play")) == [1, 12, 16, 21, 24]
    page.click("[data-testid=lang]")
    assert "straight 4-8" in label.inner_text()
    page.click("[data-testid=history-open]")
    row = page.locator("[data-testid=history] [data-testid=move]").first
    assert "straight 4-8" in row.inner_text() and shown_cards(row) == [1, 12, 16, 21, 24]
    page.click("[data-testid=lang]")
    assert "顺子 45678" in row.inner_text()
    bo_py.close()
    ctx.close()


def test_a_timer_play_is_told_to_the_player_at_the_table(browser, live_server):
    code, made, _joined, ann_py, bo_py = room_of_two(live_server, 3, turn_timer=1)
    bo_py.close()
    ctx = browser.new_context(viewport=PHONE)
    page = open_seat(ctx, live_server, code, 0, made["token"])
    ann_py.close()
    page.click("[data-testid=start]")
    toast = page.locator("[data-testid=toast][data-by=timer][data-seat='0']").first
    toast.wait_for(timeout=20_000)  # Ann does nothing: the timer plays for her
    assert "时间到，系统替你" in toast.inner_text()
    page.click("[data-testid=history-open]")
    timed = page.locator("[data-testid=history] [data-testid=move][data-by=timer][data-seat='0']").first
    assert timed.locator("[data-testid=by-mark]").inner_text() == "超时代打"
    # she was at the table: no summary to come back to
    assert page.locator("[data-testid=in-your-name]").count() == 0
    page.keyboard.press("Escape")  # the history drawer closes
    page.locator("[data-testid=history]").wait_for(state="detached")
    # her second timeout in a row puts her on auto-play, and she is told how to take her cards back
    auto = page.locator("[data-testid=toast][data-type=autoOn]")
    auto.wait_for(timeout=20_000)
    assert "连续两次超时" in auto.inner_text() and "取消托管" in auto.inner_text()
    assert page.locator("[data-testid=auto-toggle]").is_checked()
    page.locator("[data-testid=auto-toggle]").uncheck()
    page.wait_for_function("() => globalThis.guandan.ui.state.view.autoplay === null")
    ctx.close()


@pytest.mark.parametrize("size", [(390, 844), (844, 390)])
def test_the_summary_of_moves_in_your_name_closes_as_the_other_sheets_do(browser, live_server, size):
    """Its Got it was half off a 390x844 screen after a dozen moves and out of sight sideways, and
    neither Escape nor a tap beside it closed it: the button stays in view, and both close it."""
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = ctx.new_page()
    start_with_bots(page, live_server, "Bo")
    base = view_of(page)
    moves = [{"seat": 0, "type": "pass", "by": "away", "deal": 1 + i // 10} if i % 2 else
             {"seat": 0, "type": "play", "kind": "single", "value": 5, "cards": [12], "by": "away",
              "deal": 1 + i // 10} for i in range(12)]
    deadline = time.time() + 20
    for n, close in ((12, "button"), (13, "escape"), (14, "beside")):
        # Bo's turn, on a 20 s clock, as he comes back: the summary says so by its button
        inject(page, {**base, "in_your_name": {"n": n, "moves": moves},
                      "deadlines": [deadline, None, None, None], "deadline": deadline})
        ok = page.locator("[data-testid=in-your-name-ok]")
        ok.wait_for()
        # each deal named once, where its moves begin
        deals = page.locator("[data-testid=summary-move] .who").all_inner_texts()
        assert deals == ["第 1 局"] + [""] * 9 + ["第 2 局", ""], deals
        box = ok.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= size[1], (box, size)
        turn = page.locator("[data-testid=summary-your-turn]")
        assert turn.locator("[data-testid=countdown]").count() == 1 and turn.bounding_box()["y"] >= 0
        if close == "button":
            ok.click()
        elif close == "escape":
            page.keyboard.press("Escape")
        else:
            page.mouse.click(3, size[1] - 3)  # the dimmed table beside the sheet
        page.locator("[data-testid=in-your-name]").wait_for(state="detached")
    ctx.close()


def test_the_dropout_bot_is_told_when_it_takes_a_seat_over_not_at_each_move(browser, live_server):
    """Each move our bot made for a dropped player was a toast for the whole table: three at once covered
    the levels and the seat across (sideways the trick too), while the seat's badge already said it.
    The table is told when the bot takes a seat over and when the player is back; the timer's moves, and
    your own, as before."""
    page = browser.new_page(viewport=PHONE)
    start_with_bots(page, live_server, "Ann")  # seat 0 leads: nothing moves until Ann does
    base = view_of(page)
    trick: list[dict[str, Any]] = []
    lead = {"seat": 0, "type": "play", "kind": "single", "value": 3, "cards": [4], "by": "human"}

    def then(*moves: tuple[int, str], auto: list | None = None, keep: bool = False) -> list[tuple[int, str]]:
        """The server's next view with these passes added (and these auto marks); the toasts then up,
        as (seat, by): only those it brought, unless ``keep``."""
        if not keep:
            page.evaluate("() => { globalThis.guandan.story.toasts = []; }")
        trick.extend({"seat": seat, "type": "pass", "by": by} for seat, by in moves)
        page.evaluate("v => globalThis.guandan.conn.handlers.onState({version: -1, seat: v.seat, view: v})",
                      {**base, "trick": [lead, *trick], "auto": auto or [None] * 4})
        toasts = page.evaluate("() => globalThis.guandan.story.toasts.map(x => [x.move.seat, x.move.by])")
        return [tuple(x) for x in toasts]

    assert then((1, "away"), (2, "bot")) == [(1, "away")]  # the bot takes Bo's seat over: told
    assert then((3, "timer")) == [(3, "timer")]  # a timer's move: told
    assert then((0, "human"), (1, "away"), (2, "bot")) == []  # the bot plays on for Bo: not again
    assert then((3, "away"), (0, "away")) == [(3, "away"), (0, "away")]  # another seat; and yours, ...
    assert then((1, "human"), (2, "bot"), (3, "human"), (0, "away")) == [(0, "away")]  # ... each time
    assert then((1, "away")) == [(1, "away")]  # Bo came back and dropped again: told anew
    # Bo is back for good: the table is told, and the toast of the bot playing for him goes at once
    assert then(auto=[None, "dropout", None, None], keep=True) == [(1, "away")]
    assert then(auto=[None, None, None, None], keep=True) == [(1, "back")]
    assert page.locator("[data-testid=toast][data-by=back]").inner_text().endswith("回来了，接回了自己的牌")
    # a seat still away in the next deal is not told again (it was, at each deal's first bot move)
    assert then((3, "away")) == [(3, "away")]
    page.evaluate("() => { globalThis.guandan.story.toasts = []; }")
    passes = [{"seat": 1, "type": "pass", "by": "human"}, {"seat": 3, "type": "pass", "by": "away"}]
    for deal_2 in ([lead], [lead, *passes]):
        page.evaluate("v => globalThis.guandan.conn.handlers.onState({version: -1, seat: v.seat, view: v})",
                      {**base, "deal": 2, "trick": deal_2, "auto": [None, None, None, "dropout"]})
    assert page.evaluate("() => globalThis.guandan.story.toasts.map(x => x.move.seat)") == []
    page.close()


def test_a_tribute_card_returned_by_the_timer_is_told_and_marked(browser, live_server):
    """The timer returned a card for a player who had not chosen one, and nothing said so: the line read
    as if they had. A toast tells them (and the table), and the line carries the timer's mark."""
    page = browser.new_page(viewport=PHONE)
    start_with_bots(page, live_server, "Ann")
    base = view_of(page)
    tribute = {"kind": "double", "givers": [1, 3], "refused": False, "pending": [0, 2], "leader": 1,
               "gifts": [{"from": 1, "to": 0, "card": 53}, {"from": 3, "to": 2, "card": 52}], "returns": []}
    shown = []
    timed = {"from": 0, "to": 1, "card": 4, "by": "timer"}
    away = {"from": 2, "to": 3, "card": 8, "by": "away"}
    for returns in ([], [timed], [timed, away]):
        view = {**base, "deal": 2, "phase": "return", "turn": None, "trick": [], "top": None, "pending": [],
                "return_choices": [], "tribute": {**tribute, "returns": returns}}
        page.evaluate("v => globalThis.guandan.conn.handlers.onState({version: -1, seat: v.seat, view: v})",
                      view)
        shown += page.evaluate("() => globalThis.guandan.story.toasts.map(x => [x.move.seat, x.move.type, "
                               "x.move.by])")
        page.evaluate("() => { globalThis.guandan.story.toasts = []; }")
    assert [tuple(x) for x in shown] == [(0, "return", "timer"), (2, "return", "away")]
    page.evaluate("() => globalThis.guandan.render()")
    marks = page.locator("[data-testid=tribute] [data-testid=by-mark]")
    assert marks.evaluate_all("els => els.map(e => e.dataset.by)") == ["timer", "away"]
    # the jokers paid are named in words too (their sideways BIG/SMALL could not be read on a phone)
    assert page.locator("[data-testid=tribute] .card-word").all_inner_texts() == ["大王", "小王"]
    # and this seat is "you" (it read its own name as if someone else had paid or returned)
    lines = page.locator("[data-testid=tribute] .tribute-line").all_inner_texts()
    assert lines[0].startswith("机器人 2 向你进贡") and lines[2].startswith("你还给机器人 2"), lines
    page.evaluate("""() => { const g = globalThis.guandan;
        g.story.toasts = [{move: {seat: 0, type: "return", card: 4, to: 1, by: "timer"}, me: 0},
                          {move: {seat: 2, type: "return", card: 8, to: 3, by: "away"}, me: 0}];
        g.render(); }""")
    texts = page.locator("[data-testid=toast]").all_inner_texts()
    assert texts[0].startswith("时间到，系统替你还了 ") and "掉线，机器人代还 " in texts[1], texts
    # the box goes at the first play; the deal's history keeps who paid and returned what, all deal long
    play = {**base, "deal": 2, "phase": "play", "turn": 2, "pending": [2], "played": [12], "tribute": {
        **tribute, "returns": [timed, away], "pending": []}}
    page.evaluate("v => globalThis.guandan.conn.handlers.onState({version: -1, seat: v.seat, view: v})", play)
    assert page.locator("[data-testid=tribute]").count() == 0
    page.evaluate("() => { globalThis.guandan.story.toasts = []; }")
    page.click("[data-testid=history-open]")
    record = page.locator("[data-testid=history] [data-testid=history-tribute]")
    assert record.locator(".tribute-line").all_inner_texts() == lines[:4]  # (not who it still waits for)
    assert record.locator("[data-testid=by-mark]").evaluate_all("els => els.map(e => e.dataset.by)") == [
        "timer", "away"]
    # a refusal by two givers: they hold both big jokers between them (it read as if each held both)
    for givers, said in (([1, 3], "机器人 2、机器人 4 两人合有两张大王"), ([1], "机器人 2 有两张大王")):
        refused = {**tribute, "givers": givers, "gifts": [], "refused": True, "pending": []}
        page.evaluate("v => globalThis.guandan.conn.handlers.onState({version: -1, seat: v.seat, view: v})",
                      {**play, "tribute": refused})
        assert said in record.inner_text(), record.inner_text()
    page.close()


TONE_COUNTER = """
window.__tones = 0;
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) { window.__tones += 1; return start.apply(this, args); };
"""


def test_your_turn_rings_shows_in_the_title_and_mute_is_remembered(browser, live_server):
    ctx = browser.new_context(viewport=PHONE)
    ctx.add_init_script(TONE_COUNTER)
    page = ctx.new_page()
    page.goto(live_server + "/")
    page.fill("[data-testid=create-form] [data-testid=nickname]", "Ring")
    page.select_option("[data-testid=bot-delay]", "0.5")
    page.click("[data-testid=create]")
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=your-turn]", timeout=15_000)
    page.wait_for_function("() => document.title.startsWith('▶ 轮到你出牌')")
    page.wait_for_function("() => globalThis.guandan.sounds.played.some(p => p.cue === 'turn' && !p.muted)")
    assert page.evaluate("() => window.__tones") > 0  # the Web Audio API made the sound
    act_once(page)
    page.wait_for_function("() => !document.title.startsWith('▶')", timeout=10_000)  # the bots' turns
    page.wait_for_selector("[data-testid=your-turn]", timeout=15_000)
    page.wait_for_function("() => document.title.startsWith('▶')")
    # muted, and still muted after a reload (localStorage): the cue is noted, no tone is made
    page.click("[data-testid=mute]")
    assert page.get_attribute("[data-testid=mute]", "aria-pressed") == "true"
    page.reload()
    hand_of(page)
    assert page.get_attribute("[data-testid=mute]", "aria-pressed") == "true"
    assert page.evaluate("() => globalThis.guandan.sounds.muted") is True
    page.wait_for_selector("[data-testid=your-turn]", timeout=15_000)
    act_once(page)
    page.wait_for_function("() => globalThis.guandan.sounds.played.some(p => p.cue === 'turn' && p.muted)",
                           timeout=15_000)
    assert page.evaluate("() => window.__tones") == 0
    ctx.close()


MORE_MOVES = "(n) => document.querySelectorAll('[data-testid=history] [data-testid=move]').length > n"


def test_the_history_opens_at_the_latest_trick_and_follows_the_deal(browser, live_server):
    """A player opens the history for the last tricks: it opened at trick 1, the latest a long scroll
    away on a phone. It opens at its end and stays there as plays come in, unless scrolled back."""
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    page.goto(live_server + "/")
    page.fill("[data-testid=create-form] [data-testid=nickname]", "安娜")
    page.select_option("[data-testid=bot-delay]", "0")
    page.click("[data-testid=create-form] summary")
    page.fill("[data-testid=seed]", "4")  # deal 1 is 61 moves: in a short one auto-play went on to deal 2
    page.click("[data-testid=create]")
    page.click("[data-testid=start]")
    for _ in range(6):
        page.wait_for_selector("[data-testid=your-turn]", timeout=15_000)
        act_once(page)
    page.wait_for_selector("[data-testid=your-turn]", timeout=15_000)
    page.click("[data-testid=history-open]")
    drawer = page.locator("[data-testid=history]")

    def latest_in_sight() -> bool:
        # one step in the page: the table is drawn anew on every diff, so two separate measurements may
        # meet two different drawers (and the first may be gone: no box)
        return drawer.evaluate("""el => {
            const box = el.getBoundingClientRect();
            const last = [...el.querySelectorAll('[data-testid=move]')].pop().getBoundingClientRect();
            return box.top <= last.top && last.bottom <= box.bottom + 1;
        }""")

    assert drawer.evaluate("el => el.scrollHeight > el.clientHeight"), "too few plays to scroll"
    assert latest_in_sight()
    moves = drawer.locator("[data-testid=move]").count()
    page.keyboard.press("a")  # auto-play (its switch is under the drawer on a phone)
    page.wait_for_function(MORE_MOVES, arg=moves + 4, timeout=20_000)
    assert latest_in_sight()
    scroll_back_to(page, 0)  # scrolled back to read: left there as plays come in
    moves = drawer.locator("[data-testid=move]").count()
    page.wait_for_function(MORE_MOVES, arg=moves + 4, timeout=20_000)
    assert drawer.evaluate("el => el.scrollTop") == 0
    assert view_of(page)["deal"] == 1
    ctx.close()


def scroll_back_to(page: Page, top: int) -> None:
    """Scrolls the history up as a reader does: again if a move came in before the scroll was seen (the
    drawer follows the latest move until a scroll event finds it away from the bottom)."""
    page.wait_for_function("""top => { const d = document.querySelector('[data-testid=history]');
        if (globalThis.guandan.story.pinned === false) return true; d.scrollTo(0, top); return false; }""",
                           arg=top)


def test_the_history_keeps_its_place_as_the_deal_s_result_comes_up(browser, live_server):
    """A player reading back through the history when the deal ends keeps their place: the result's
    panel came in before the drawer and the drawer was drawn anew, at trick 1."""
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    create_room(page, live_server, "Read")
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=your-turn]", timeout=15_000)
    page.keyboard.press("a")
    page.click("[data-testid=history-open]")
    drawer = page.locator("[data-testid=history]")
    page.wait_for_function("() => { const d = document.querySelector('[data-testid=history]');"
                           " return d.scrollHeight > d.clientHeight + 80; }", timeout=30_000)
    drawer.evaluate("el => { el.readingHere = true; }")
    scroll_back_to(page, 40)
    page.wait_for_selector("[data-testid=deal-result]", timeout=60_000)
    assert drawer.evaluate("el => [el.readingHere === true, el.scrollTop]") == [True, 40]
    ctx.close()
