"""Issue 13 in a real Chromium against the real server: refusals in words (Must show 3), the ready check
and the rematch with four browsers (Must show 4), the table on a phone held sideways (Must show 5), and
the card counter on screen."""

from __future__ import annotations

import asyncio
import random
import re
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import msgpack
import pytest
from redis.asyncio import Redis
from test_browser import create_room, hand_of, view_of

from engine import beats, classify
from server import autopilot as ap
from server import rooms
from server.store import Store

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
PHONE = {"width": 390, "height": 844}
ENGINE_CARD = re.compile(r"(?<![A-Za-z])([SHCD][2-9TJQKA]|SB|HR)(?![A-Za-z0-9])")
CJK = re.compile(r"[\u4e00-\u9fff]")


def latin_words(text: str) -> list[str]:
    """Latin words in a Chinese text; rank letters (QQQ66, 10 J Q K A), "AI" and a room's code (ZZZZZZ, the
    one the player typed) are ours to show."""
    words = re.findall(r"[A-Za-z0-9]+", text)
    ours = r"[JQKA0-9]+|AI|[A-Z0-9]{6}"
    return [w for w in words if re.search("[A-Za-z]", w) and not re.fullmatch(ours, w)]


def documented_codes() -> set[str]:
    doc = (REPO / "docs" / "protocol.md").read_text()
    return set(re.findall(r"`(\w+)`", doc.split("All codes:", 1)[1].split("###", 1)[0]))


def fast_forward(data: Path, code: str, match_over: bool = False,
                 first_two: tuple[int, int] | None = None) -> None:
    """Play the room's deal to its end with the engine (random legal actions) and commit the state to
    the server's own Redis, as another server process would: the pages get it as a diff. With
    ``first_two`` (partners) those two go out 1st and 2nd: they play whenever they can, the others pass."""
    async def run() -> None:
        client = Redis(unix_socket_path=str(data / "redis.sock"))
        store = Store(client)
        version, room = await store.load(code)
        game = rooms.load_game(room)
        rng = random.Random(code)
        while game.phase not in ("deal_over", "match_over"):
            seat = game.pending_seats()[0]
            actions = game.legal_actions(seat)
            if first_two is not None:
                actions = [a for a in actions if (a["type"] == "pass") != (seat in first_two)] or actions
            game.apply(seat, rng.choice(actions))
        rooms.save_game(room, game)
        if match_over:  # as a long match ends: won at A
            winner = game.last_result["winner_team"]
            room["game"].update(phase="match_over", match_winner=winner,
                                levels=[14, 5] if winner == 0 else [5, 14])
        ap.stamp(room, game, [], time.time())
        assert await store.commit(code, version, room, {"kind": "test"}, "test") is not None
        await client.aclose()

    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API owns this thread's event loop
        pool.submit(asyncio.run, run()).result()


# ---------------------------------------------------------------- words, not codes


def send_raw(page, payload: bytes | str) -> None:
    """A frame on the page's own socket: the server's answer reaches the page as any refusal does."""
    if isinstance(payload, str):
        page.evaluate("(text) => globalThis.guandan.conn.ws.send(text)", payload)
    else:
        page.evaluate("(bytes) => globalThis.guandan.conn.ws.send(new Uint8Array(bytes))", list(payload))


def deliver(page, code: str, fields: dict) -> None:
    """A refusal the server sends in situations a seated player in a running game cannot reach here
    (another connection's, the lobby's, a server fault), through the page's own error path."""
    page.evaluate("""(err) => globalThis.guandan.conn.handlers.onError(
        Object.assign(new Error(err.message), err))""",
                  {"code": code, "fields": fields, "message": f"{code}: HR SB D8 is the English text"})


class Refusals:
    """Triggers a refusal, then reads it in Chinese and in English (switching language on screen)."""

    def __init__(self, page) -> None:
        self.page = page
        self.seen: dict[str, tuple[str, str]] = {}

    def clear(self) -> None:
        self.page.evaluate("() => { globalThis.guandan.ui.message = null; globalThis.guandan.render(); }")

    def check(self, code: str, trigger) -> str:  # noqa: ANN001
        page = self.page
        self.clear()
        trigger()
        shown = "[data-testid=message]"
        page.wait_for_function(f"() => document.querySelector('{shown}')?.dataset.code === '{code}'",
                               timeout=10_000)
        zh = page.locator(shown).inner_text()
        assert CJK.search(zh) and not latin_words(zh) and not ENGINE_CARD.search(zh), (code, zh)
        page.click("[data-testid=lang]")  # the refusal on screen is worded again, not kept as it was
        page.wait_for_function(f"() => !/[\\u4e00-\\u9fff]/.test(document.querySelector('{shown}')"
                               ".textContent.replace(/安娜|小波|小春|小冬/g, ''))", timeout=5_000)
        en = page.locator(shown).inner_text()
        assert page.locator(shown).get_attribute("data-code") == code
        assert en and en != zh and not ENGINE_CARD.search(en), (code, en)
        page.click("[data-testid=lang]")
        assert page.locator(shown).inner_text() == zh
        self.seen[code] = (zh, en)
        return zh


def non_beating_single(view: dict) -> int | None:
    top = view["top"]
    level = view["level"]
    top_play = next(p for p in classify(top["cards"], level)
                    if (p.kind, p.value) == (top["kind"], top["value"]))
    return next((c for c in view["hand"] if not any(beats(p, top_play) for p in classify([c], level))), None)


def test_every_refusal_is_worded_in_both_languages(browser, live_server):
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    page.goto(live_server + "/")
    page.fill("[data-testid=create-form] [data-testid=nickname]", "安娜")
    page.select_option("[data-testid=bot-delay]", "2")  # the bots' turns last long enough to act out of turn
    page.click("[data-testid=create-form] summary")
    page.fill("[data-testid=seed]", "3")
    page.click("[data-testid=create]")
    code = page.locator("[data-testid=room-code]").inner_text(timeout=10_000)
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=your-turn]", timeout=15_000)
    r = Refusals(page)
    view = view_of(page)
    hand = view["hand"]
    ids = iter(range(1, 10_000))

    def raw(msg: dict) -> None:
        send_raw(page, msgpack.packb({**msg, "id": f"t{next(ids)}"}))

    # through the screen: two cards that are no play (the level's rank and the wild card stay out)
    plain = [c for c in hand if c < 52 and c // 4 + 2 != view["level"]]
    pick = next((a, b) for a in plain for b in plain if a // 4 != b // 4)

    def play_two() -> None:
        cards = page.locator("[data-testid=hand] [data-card]")
        codes = [int(x) for x in cards.evaluate_all("els => els.map(e => e.dataset.card)")]
        for card in pick:
            cards.nth(codes.index(card)).click()
        page.click("[data-testid=play]")

    assert "不是合法牌型" in r.check("not_a_play", play_two)
    zh, en = r.seen["not_a_play"]
    assert "♦" in zh + en or "♠" in zh + en or "♥" in zh + en or "♣" in zh + en  # card faces, not codes
    page.keyboard.press("Escape")
    # the server's refusals, for real, on this page's socket
    foreign = next(c for c in range(52) if c not in hand)
    r.check("cannot_pass_lead", lambda: raw({"type": "pass"}))
    r.check("wrong_phase", lambda: raw({"type": "return", "card": hand[0]}))
    assert "手里没有" in r.check("not_your_cards", lambda: raw({"type": "play", "cards": [foreign]}))
    r.check("invalid_message", lambda: raw({"type": "play", "cards": "S9"}))
    r.check("unknown_type", lambda: raw({"type": "fly"}))
    r.check("bad_msgpack", lambda: send_raw(page, b"\xc1"))
    r.check("binary_required", lambda: send_raw(page, "a text frame"))
    r.check("frame_too_large", lambda: send_raw(page, msgpack.packb({"type": "pass", "pad": "x" * 20_000})))

    def twice() -> None:
        send_raw(page, msgpack.packb({"type": "resync", "id": "same"}))
        send_raw(page, msgpack.packb({"type": "resync", "id": "same"}))

    r.check("duplicate_id", twice)
    r.check("already_seated", lambda: raw({"type": "join", "code": code, "nickname": "x"}))
    wrong = r.check("room_not_found", lambda: raw({"type": "resume", "code": "ZZZZZZ", "token": "x"}))
    assert "ZZZZZZ" in wrong
    r.check("bad_token", lambda: raw({"type": "resume", "code": code, "token": "not-the-token"}))
    r.check("already_started", lambda: raw({"type": "add_bot", "seat": 1}))
    r.check("match_not_over", lambda: raw({"type": "new_match"}))
    # lead the lowest single on screen; during the next seat's turn, act out of turn
    lowest = page.locator("[data-testid=hand] [data-card]").first
    lowest.click()
    page.click("[data-testid=play]")
    page.wait_for_function("() => globalThis.guandan.ui.state.view.turn === 1")
    assert "现在轮到" in r.check("not_your_turn", lambda: raw({"type": "pass"}))
    # our turn again, following: a single that beats nothing on the table
    for _ in range(20):
        page.wait_for_selector("[data-testid=your-turn]", timeout=30_000)
        view = view_of(page)
        card = non_beating_single(view) if view["top"] else None
        if card is not None:
            break
        before = page.evaluate("() => globalThis.guandan.conn.state.version")
        page.locator("[data-testid=hand] [data-card]").first.click()  # lead again, or pass if we can
        page.click("[data-testid=pass]" if view["top"] else "[data-testid=play]")
        page.wait_for_function(f"() => globalThis.guandan.conn.state.version > {before}")
    else:
        pytest.fail("no turn where a single could not beat the table")
    zh = r.check("does_not_beat", lambda: raw({"type": "play", "cards": [card]}))
    assert zh.startswith("你的单张") and "管不上" in zh
    # what a seated player in a running game cannot provoke here, as the server sends it
    others = {
        "hello_required": {}, "protocol_mismatch": {"server": 1, "client": 2}, "seat_taken": {"seat": 1},
        "nickname_taken": {"seat": 1, "nickname": "小波"},
        "room_full": {"code": code}, "not_in_room": {}, "not_seated": {}, "not_host": {"action": "start"},
        "not_started": {}, "seats_empty": {"seats": [2, 3]}, "not_a_bot": {"seat": 2},
        "not_a_player": {"seat": 2},
        "bad_rules": {"option": "joker_pair_in_full_house"}, "bad_bot": {"bots": ["random", "heuristic"]},
        "replaced": {},
        "seat_lost": {"seat": 0, "code": code}, "seed_not_allowed": {}, "already_ready": {"waiting": [1, 3]},
        "busy": {}, "unavailable": {}, "internal": {}, "rate_limited": {"rate": 30},
        "bad_action": {"need": "cards"}, "bad_seat": {"need": "seat"},
        "not_eligible": {"card": 53, "choices": [0, 3, 33, 52]}, "match_over": {"action": "play"},
        "timeout": {}, "not_connected": {}, "too_many_rooms": {"retry_after": 27.5},
        "too_many_joins": {"retry_after": 2}, "too_many_attempts": {"retry_after": 240},
    }
    for name, fields in others.items():
        r.check(name, lambda name=name, fields=fields: deliver(page, name, fields))
    assert r.seen["not_eligible"][0] == "大王 不能还；可以还：♠2 ♦2 ♥10 小王"
    assert "big joker" in r.seen["not_eligible"][1] and "small joker" in r.seen["not_eligible"][1]
    missing = (documented_codes() | {"timeout", "not_connected"}) - set(r.seen)
    assert not missing, f"refusals never shown: {sorted(missing)}"
    ctx.close()


# ---------------------------------------------------------------- ready check and rematch


def seat_four(browser, base: str) -> tuple[str, list]:
    names = ["安娜", "小波", "小春", "小冬"]
    ctxs = [browser.new_context(viewport=PHONE) for _ in names]
    pages = [c.new_page() for c in ctxs]
    code = create_room(pages[0], base, names[0], fill_bots=False)
    for page, name in zip(pages[1:], names[1:], strict=True):
        page.goto(f"{base}/?room={code}")
        page.fill("[data-testid=join-form] [data-testid=nickname]", name)
        page.click("[data-testid=join]")
        page.wait_for_selector("[data-testid=seats]")
    pages[0].wait_for_function("() => globalThis.guandan.ui.room.seats.every(s => s.kind === 'human')")
    pages[0].click("[data-testid=start]")
    for page in pages:
        hand_of(page)
    return code, pages


def test_each_player_keeps_the_result_until_ready_and_a_rematch_keeps_the_room(browser, live_server,
                                                                               live_data):
    code, pages = seat_four(browser, live_server)
    fast_forward(live_data, code)
    for page in pages:
        page.wait_for_selector("[data-testid=deal-result]", timeout=10_000)
    first, *rest = pages
    for page in pages:  # the result takes the focus to its button (no tabbing through the table to it)
        assert page.evaluate("document.activeElement.dataset.testid") == "next-deal"
    first.click("[data-testid=next-deal]")
    first.wait_for_function("() => globalThis.guandan.ui.state.view.ready[0] === true")
    button = first.locator("[data-testid=next-deal]")
    assert button.is_disabled() and button.inner_text() == "已准备"
    waiting = first.locator("[data-testid=ready-waiting]").inner_text()
    assert all(n in waiting for n in ("小波", "小春", "小冬")) and "安娜" not in waiting
    for page, name in zip(rest, ("小波", "小春", "小冬"), strict=True):
        # they saw the press (the same version) and still have their result screen; the line names
        # the others they wait for, not the player reading it (their button is the call)
        page.wait_for_function("() => globalThis.guandan.ui.state.view.ready[0] === true")
        waiting = page.locator("[data-testid=ready-waiting]").inner_text()
        assert name not in waiting and "安娜" not in waiting and waiting.count("、") == 1, waiting
        assert page.locator("[data-testid=deal-result]").is_visible()
        assert page.locator("[data-testid=next-deal]").is_enabled()
        assert view_of(page)["deal"] == 1
    for i, page in enumerate(rest[:2], start=1):
        page.click("[data-testid=next-deal]")
        rest[2].wait_for_function(f"() => globalThis.guandan.ui.state.view.ready[{i}] === true")
    assert rest[2].locator("[data-testid=deal-result]").is_visible()
    assert "小冬" in first.locator("[data-testid=ready-waiting]").inner_text()
    assert rest[2].locator("[data-testid=ready-waiting]").inner_text() == "其他人都准备好了，就等你"
    rest[2].keyboard.press("Enter")  # the last one, by keyboard: the next deal starts for everyone
    for page in pages:
        page.wait_for_function("() => globalThis.guandan.ui.state.view.deal === 2")
        page.wait_for_selector("[data-testid=deal-result]", state="detached")
    # a won match: every player asks for the rematch, which keeps the room, its code and the seats
    fast_forward(live_data, code, match_over=True)
    for page in pages:
        page.wait_for_selector("[data-testid=match-won]", timeout=10_000)
    first.click("[data-testid=rematch]")
    for page in rest:
        page.wait_for_function("() => globalThis.guandan.ui.state.view.ready[0] === true")
        assert page.locator("[data-testid=match-won]").is_visible()
    first.wait_for_selector("[data-testid=rematch]:disabled")  # its own view may come after the others'
    assert first.locator("[data-testid=rematch]").inner_text() == "已申请再来一场"
    for page in rest[:2]:
        page.click("[data-testid=rematch]")
    rest[2].evaluate("document.activeElement.blur()")
    rest[2].keyboard.press("Enter")  # Enter asks for the rematch too, wherever the focus is
    for seat, page in enumerate(pages):
        page.wait_for_function("() => { const v = globalThis.guandan.ui.state.view; return v.phase === 'play'"
                               " && v.deal === 1 && v.levels[0] === 2 && v.levels[1] === 2; }")
        assert page.locator("[data-testid=header-code]").inner_text() == code
        assert view_of(page)["seat"] == seat and len(hand_of(page)) == 27
        names = [s["nickname"] for s in page.evaluate("() => globalThis.guandan.ui.room.seats")]
        assert names == ["安娜", "小波", "小春", "小冬"]
    for page in pages:
        page.context.close()


# ---------------------------------------------------------------- phones, and the card counter


LAYOUT = r"""() => [...document.querySelectorAll('.table > *')].map(e => {
  const r = e.getBoundingClientRect();
  const text = e.innerText.replace(/\s+/g, " ").slice(0, 60);
  return `${e.className || e.tagName} y=${Math.round(r.top)} h=${Math.round(r.height)} ${text}`;
})"""


def inside(page, selector: str) -> None:
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    assert box is not None, selector
    fits = (box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 0.5
            and box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 0.5)
    assert fits, (selector, box, size, page.evaluate(LAYOUT))  # what pushed it out, should it ever be


def phone_at_its_turn(browser, base: str, size: tuple[int, int], lang: str, seed: int | None = None):
    """A new context at ``size`` in ``lang``: a room with three instant bots and the card counter, started,
    at seat 0's first turn (seat 0 leads the first deal). A random deal unless ``seed`` is given."""
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    ctx.add_init_script(f"localStorage.setItem('guandan:lang', '{lang}')")
    page = ctx.new_page()
    page.goto(base + "/")
    page.fill("[data-testid=create-form] [data-testid=nickname]", "安娜")
    page.select_option("[data-testid=bot-delay]", "0")
    page.check("[data-testid=counter-option]")
    if seed is not None:
        page.click("[data-testid=create-form] summary")
        page.fill("[data-testid=seed]", str(seed))
    page.click("[data-testid=create]")
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=your-turn]", timeout=15_000)
    return ctx, page


@pytest.mark.parametrize("size", [(844, 390), (667, 375), (568, 320), (360, 640), (320, 568)])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_table_fits_a_phone_without_scrolling(browser, live_server, size, lang):
    width, height = size
    # seed 1: a deal whose tricks took the most room in the ring (a steel plate led, others' plays beside
    # their names)
    ctx, page = phone_at_its_turn(browser, live_server, size, lang, seed=1)
    assert len(hand_of(page)) == 27
    assert page.evaluate("() => [window.scrollX, window.scrollY]") == [0, 0]
    whole_table_on_the_screen(page, height)
    if width >= 800:  # a wide phone sideways: the hand spreads (it kept to 535 of 844 px, 19 px a card)
        span = page.evaluate("""() => {
            const cards = [...document.querySelectorAll('[data-testid=hand] .card')];
            return cards.at(-1).getBoundingClientRect().right - cards[0].getBoundingClientRect().left;
        }""")
        assert span >= 0.75 * width, span
    # Play, Pass, Suggest and Sort in one row (upright, Sort's mode stands under its name to fit)
    buttons = ("play", "pass", "suggest", "sort")
    tops = {b: page.locator(f"[data-testid={b}]").bounding_box()["y"] for b in buttons}
    assert max(tops.values()) - min(tops.values()) < 1, tops
    # the counter is the seat's own: 108 cards less its hand, none played yet
    counter = view_of(page)["counter"]
    assert sum(counter.values()) == 108 - 27
    shown = page.locator("[data-testid=counter] [data-rank]").evaluate_all(
        "els => Object.fromEntries(els.map(e => [e.dataset.rank, +e.querySelector('strong').textContent]))")
    assert shown == counter
    # and with a trick on the table (it took 50 px more at 320x568 and 360x640, 54 px at 568x320: Play
    # and Pass were below the fold at every turn but the first)
    play_on_to_the_next_turn(page)
    assert page.locator("[data-testid=top-cards] .card").count() > 0
    whole_table_on_the_screen(page, height)
    ctx.close()


def play_on_to_the_next_turn(page) -> None:
    """Seat 0 plays the suggestion at its first turn, and the bots play on to its next (a trick on the
    table; instant bots)."""
    page.click("[data-testid=suggest]")
    page.click("[data-testid=play]")
    page.wait_for_function(
        "() => { const v = globalThis.guandan.ui.state.view; return v.turn === 0 && v.hand.length < 27; }",
        timeout=15_000)
    page.wait_for_selector("[data-testid=your-turn]")


def whole_table_on_the_screen(page, height: int) -> None:
    for selector in ("[data-testid=hand]", "[data-testid=play]", "[data-testid=pass]",
                     "[data-testid=suggest]", "[data-testid=table-top]", "[data-testid=counter]",
                     *(f"[data-testid=table-seat-{s}]" for s in range(4))):
        inside(page, selector)
    # nothing at all below the fold (the oldest phones, 320x568, took 125 px more: the top bar's
    # buttons wrapped and the hand took three rows)
    assert page.evaluate("() => document.documentElement.scrollHeight") <= height, page.evaluate(LAYOUT)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_refusal_on_the_smallest_phone_leaves_play_on_the_screen(browser, live_server, lang):
    """At 320x568 with the card counter, a refusal's two lines made the table taller than the screen and
    pushed Play, Pass and Suggest below it, with the turn timer running (an audit's finding). The first
    row of actions stays on the screen; the rows under it may hang below."""
    ctx, page = phone_at_its_turn(browser, live_server, (320, 568), lang, seed=1)
    play_on_to_the_next_turn(page)
    cards = page.locator("[data-testid=hand] .card")
    for i in (0, 8, 15):  # three ranks, wild cards and jokers at the far end: no play at all
        cards.nth(i).click(position={"x": 4, "y": 12})  # its visible edge: the next card overlaps it
    page.click("[data-testid=play]")
    page.wait_for_selector("[data-testid=message].error")
    taller = page.evaluate("() => document.documentElement.scrollHeight")
    assert taller > 568  # the case this is about: the page is taller than the screen
    for name in ("play", "pass", "suggest", "sort", "message"):
        inside(page, f"[data-testid={name}]")
    page.set_viewport_size({"width": 320, "height": 540})  # a browser's own bar took more: still there
    page.wait_for_timeout(100)
    inside(page, "[data-testid=play]")
    ctx.close()


HAND_ROWS = r"""flow => {  // how many rows the hand takes, card by card (flow) or by rank groups
  const hand = document.querySelector('[data-testid=hand]');
  hand.classList.toggle('flow', flow);
  return new Set([...hand.querySelectorAll('.card')].map(c => c.offsetTop)).size;
}"""


def test_a_hand_of_long_groups_still_leaves_play_on_the_screen(browser, live_server):
    """Seed 25 deals six 10s and four Js: laid out by rank groups (a group never breaks) the hand took
    three rows at 360x640 and pushed Play below the screen (a CI run once met such a hand on a random
    seed). It flows card by card instead, in two rows, and is fitted again when the phone turns."""
    ctx, page = phone_at_its_turn(browser, live_server, (360, 640), "zh", seed=25)
    assert page.evaluate(HAND_ROWS, False) == 3  # by groups: the unlucky hand this test is about
    assert page.evaluate(HAND_ROWS, True) == 2
    card = page.locator("[data-testid=hand] .card").nth(20)
    card.click()  # each click renders the table again: the hand is fitted again each time
    card.click()
    assert "flow" in page.get_attribute("[data-testid=hand]", "class")
    for name in ("hand", "play", "pass", "suggest"):
        inside(page, f"[data-testid={name}]")
    page.set_viewport_size({"width": 844, "height": 390})  # turned sideways: wide rows, groups again
    page.wait_for_function("() => !document.querySelector('[data-testid=hand]').classList.contains('flow')")
    for selector in ("[data-testid=hand]", "[data-testid=play]", "[data-testid=pass]"):
        inside(page, selector)
    page.set_viewport_size({"width": 360, "height": 640})  # and upright again
    page.wait_for_function("() => document.querySelector('[data-testid=hand]').classList.contains('flow')")
    inside(page, "[data-testid=play]")
    ctx.close()


# cards (of the hand, or of the plays on the table) whose corner does not show: covered by another card,
# or the rank running under the next card (by more than a glyph box's side bearing)
HIDDEN_CORNERS = r"""where => {
  const out = [];
  for (const row of document.querySelectorAll(where)) {
    const cards = [...row.querySelectorAll('.card')];
    cards.forEach((card, i) => {
      const name = card.dataset.key || card.textContent;
      const rank = card.querySelector('.rank').getBoundingClientRect();
      const top = document.elementFromPoint(rank.left + 2, rank.top + rank.height / 2);
      if (!card.contains(top) && !top?.closest('.seat-box .said, .toast')) out.push(`${name} covered`);
      const next = cards[i + 1];
      if (next && next.offsetTop === card.offsetTop && rank.right > next.getBoundingClientRect().left + 1.5)
        out.push(`${name} cut`);
    });
  }
  return out;
}"""


@pytest.mark.parametrize("size", [(1280, 800), (844, 390), (320, 568)])
def test_every_card_s_corner_shows_with_a_card_in_focus(browser, live_server, size):
    """A focused card was raised over the next one and hid it (the hand looked a card short), and in a
    trick beside a name the 0 of a 10 ran under the next card ("1(")."""
    ctx, page = phone_at_its_turn(browser, live_server, size, "en", seed=1)
    assert page.locator("[data-testid=hand] .rank.ten").count() >= 1  # seed 1 deals a 10 to seat 0
    page.locator("[data-testid=hand] .card").first.focus()
    page.keyboard.press("ArrowRight")  # keys move the focus: the ring shows (:focus-visible)
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("() => document.activeElement.matches('[data-testid=hand] .card:focus-visible')")
    assert page.evaluate(HIDDEN_CORNERS, "[data-testid=hand]") == []
    page.check("[data-testid=auto-toggle]")  # on to a 10 played beside a name (seed 1: the deal's 2nd trick)
    page.wait_for_selector(".seat-box .played .rank.ten", timeout=30_000)
    page.uncheck("[data-testid=auto-toggle]")
    assert page.evaluate(HIDDEN_CORNERS, ".played") == []
    ctx.close()


def test_a_hand_a_few_cards_too_long_for_a_row_stands_closer_in_one(browser, live_server):
    """A hand that overflows its row by a card or two had them alone on a second row (an audit saw an
    18-card hand at 320 px with its big joker by itself); the cards stand a little closer instead, as
    in the apps. At 768 px upright (a tablet) seed 1's 27 cards take 24 + 3 at the usual overlap."""
    ctx, page = phone_at_its_turn(browser, live_server, (768, 1024), "en", seed=1)
    hand = page.locator("[data-testid=hand]")
    assert page.evaluate(HAND_ROWS, False) == 1
    assert "--overlap" in (hand.get_attribute("style") or "")
    page.evaluate("() => document.querySelector('[data-testid=hand]').style.removeProperty('--overlap')")
    assert page.evaluate(HAND_ROWS, False) == 2  # the case this is about
    page.locator("[data-testid=hand] .card").nth(3).click()  # a render lays the same hand out as found
    assert page.evaluate(HAND_ROWS, False) == 1
    page.set_viewport_size({"width": 390, "height": 844})  # two rows whatever the overlap: the usual one
    page.wait_for_function("() => !document.querySelector('[data-testid=hand]').getAttribute('style')")
    inside(page, "[data-testid=play]")
    ctx.close()


@pytest.mark.parametrize(("size", "lang"), [((844, 390), "en"), ((360, 640), "en"), ((360, 640), "zh")])
def test_a_double_tribute_s_return_keeps_the_table_on_a_phone(browser, live_server, live_data, size, lang):
    """The deal's result, then the return phase: the tribute's four lines, a hand of 28 and Return.
    Upright the tribute once stood 260 px tall and pushed Return below the screen; sideways it cut the
    action row off."""
    width, height = size
    ctx, page = phone_at_its_turn(browser, live_server, size, lang, seed=3)
    fast_forward(live_data, page.locator("[data-testid=header-code]").inner_text(), first_two=(0, 2))
    # the result opens below the top bar (it hid the title), its foot with Next deal in sight
    page.wait_for_selector("[data-testid=deal-result]", timeout=10_000)
    for name in ("result-title", "next-deal", "header-code", "leave"):
        inside(page, f"[data-testid={name}]")
    title, bar = (page.locator(s).bounding_box() for s in ("[data-testid=result-title]", ".topbar"))
    assert title["y"] >= bar["y"] + bar["height"]
    if width > height:  # sideways the result stands in two columns and needs no scrolling at all
        assert page.locator("[data-testid=deal-result]").evaluate("el => el.scrollHeight <= el.clientHeight")
    page.click("[data-testid=next-deal]")
    page.wait_for_selector("[data-testid=return]", timeout=10_000)
    tribute = view_of(page)["tribute"]
    assert tribute["kind"] == "double" and tribute["gifts"][0]["to"] in (0, 2), tribute  # the seed's deal 2
    for name in ("tribute", "hand", "return", "suggest", "sort"):
        inside(page, f"[data-testid={name}]")
    assert page.locator("[data-testid=tribute] .tribute-line").count() >= 3
    # nothing at all below the fold: upright the tribute also said "waiting for" the player it was
    # talking to, under the message line that already told them which card to return to whom
    assert page.evaluate("() => document.documentElement.scrollHeight") <= height, page.evaluate(LAYOUT)
    # (the partner's bot may still be returning: then, and only then, a line waits for it)
    waits = page.evaluate("() => document.querySelector('.tribute .waiting-line')?.textContent || ''")
    assert "安娜" not in waits, waits
    assert page.locator("[data-testid=message]").inner_text().startswith(("Choose", "选一张"))
    ctx.close()


def test_a_new_screen_opens_at_its_top_on_a_phone(browser, live_server):
    """Create and Join sit far down the home page on a phone. The screen they open kept that scroll:
    the room's code (what the host shares) was above the screen, the seats under the top bar."""
    phone = {"viewport": {"width": 360, "height": 640}}
    host_ctx, friend_ctx = browser.new_context(**phone), browser.new_context(**phone)
    host, friend = host_ctx.new_page(), friend_ctx.new_page()
    code = create_room(host, live_server, "安娜")  # Create is scrolled into view first, as a thumb would
    host.wait_for_selector("[data-testid=start]")
    assert host.evaluate("() => window.scrollY") == 0
    inside(host, "[data-testid=room-code]")
    friend.goto(live_server + "/")
    friend.wait_for_function("() => globalThis.guandan.conn.status === 'connected'", timeout=15_000)
    friend.fill("[data-testid=join-form] [data-testid=nickname]", "小波")
    friend.fill("[data-testid=join-code]", code)
    friend.click("[data-testid=join]")
    friend.wait_for_selector("[data-testid=seats]")
    assert friend.evaluate("() => window.scrollY") == 0
    host.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")  # down to Start
    host.click("[data-testid=start]")
    host.wait_for_selector("[data-testid=hand]")
    assert host.evaluate("() => window.scrollY") == 0
    host_ctx.close()
    friend_ctx.close()


def test_sliding_over_the_hand_selects_and_unselects_a_run_of_cards(browser, live_server):
    """As in the Guandan apps: press a card and slide; the cards crossed take the opposite of the pressed
    card's state. A tap stays a tap, and the selection is played like any other."""
    ctx, page = phone_at_its_turn(browser, live_server, (390, 844), "zh", seed=7)
    cards = page.locator("[data-testid=hand] [data-key]")

    def slide(a: int, b: int) -> None:
        boxes = [cards.nth(i).bounding_box() for i in (a, b)]
        y = boxes[0]["y"] + boxes[0]["height"] * 0.6  # the visible left edge of each overlapped card
        page.mouse.move(boxes[0]["x"] + 4, y)
        page.mouse.down()
        page.mouse.move(boxes[1]["x"] + 4, y, steps=8)
        page.mouse.up()

    def pressed() -> list[int]:
        states = cards.evaluate_all("els => els.map(e => e.ariaPressed)")
        return [i for i, state in enumerate(states) if state == "true"]

    slide(2, 6)
    assert pressed() == [2, 3, 4, 5, 6]
    assert page.evaluate("() => globalThis.guandan.ui.selected.size") == 5
    slide(5, 3)  # from a selected card: unselects what it crosses
    assert pressed() == [2, 6]
    cards.nth(0).click()  # a tap is one toggle, not two
    assert pressed() == [0, 2, 6]
    slide(0, 0)  # pressed and released on one card: that is a tap too
    assert pressed() == [2, 6]
    ctx.close()


def test_suggest_pressed_again_offers_the_other_plays_that_beat_the_table(browser, live_server):
    """The first press is the bot's advice with its reason; pressed again at the same moment, the next
    other play that beats the table (as the Guandan apps' hint button does), which plays like any other;
    on a lead, the next play of the hand's plan (the same advice came again)."""
    ctx, page = phone_at_its_turn(browser, live_server, (390, 844), "en", seed=7)

    def press() -> tuple[str, str]:
        seen = page.evaluate("() => globalThis.guandan.ui.suggestions")
        page.click("[data-testid=suggest]")
        page.wait_for_function(f"() => globalThis.guandan.ui.suggestions > {seen}", timeout=10_000)
        keys = page.evaluate("() => [...globalThis.guandan.ui.selected].sort().join(',')")
        return page.locator("[data-testid=message]").inner_text(), keys

    # seat 0 leads the deal: pressed again, another of the plays the hand is built for
    lead, other_lead = press(), press()
    assert "another lead your hand is built for" in other_lead[0], other_lead
    assert other_lead[1] and other_lead[1] != lead[1], (lead, other_lead)
    for _ in range(12):
        page.wait_for_selector("[data-testid=your-turn]", timeout=15_000)
        advice = press()
        if view_of(page)["top"] is not None:
            again = press()
            if "another play that beats" in again[0]:
                break
        page.click("[data-testid=play]" if advice[1] else "[data-testid=pass]")
    else:
        pytest.fail("no turn with another play to offer")
    assert re.search(r"\(1 of \d+\)$", again[0]) and again[1] and again[1] != advice[1], (advice, again)
    third = press()
    assert "(2 of" in third[0] or "(1 of 1)" in third[0], third
    before = page.evaluate("() => globalThis.guandan.ui.state.version")
    page.click("[data-testid=play]")  # the offered play is legal: the table moves on
    page.wait_for_function(f"() => globalThis.guandan.ui.state.version > {before}", timeout=10_000)
    assert page.locator("[data-testid=message].error").count() == 0
    ctx.close()
