"""What the table tells a player at a glance, in real Chromium on a real server: whether Play can be
pressed, a refusal that is about the cards still picked, and which level is their team's."""

from __future__ import annotations

import pytest
from test_browser import start_with_bots, view_of
from test_result_sheet import WAITS_ON
from test_story import open_seat, room_of_two
from test_table_controls import fast_forward, phone_at_its_turn

pytestmark = pytest.mark.slow


def test_play_waits_for_picked_cards_and_a_refusal_goes_when_the_cards_change(browser, live_server):
    """A refusal ("not a legal play: ♠3 ♠6") stayed with nothing picked, and Play was lit with no card."""
    ctx, page = phone_at_its_turn(browser, live_server, (390, 844), "zh", seed=1)
    play = page.locator("[data-testid=play]")
    assert play.is_disabled()
    view = view_of(page)
    wild = (view["level"] - 2) * 4 + 1
    plain = [c for c in view["hand"] if c < 52 and c != wild]
    first = plain[0]
    second = next(c for c in plain if c >> 2 != first >> 2)  # two ranks: no play
    for code in (first, second):
        page.locator(f"[data-testid=hand] .card[data-card='{code}']").first.click(position={"x": 5, "y": 12})
    assert play.is_enabled()
    play.click()
    message = page.locator("[data-testid=message]")
    page.wait_for_function("() => document.querySelector('[data-testid=message]').dataset.code"
                           " === 'not_a_play'")
    assert "不是合法牌型" in message.inner_text()
    page.locator(f"[data-testid=hand] .card[data-card='{second}'].selected").click(position={"x": 5, "y": 12})
    assert message.inner_text() == "" and message.get_attribute("data-code") is None
    page.locator(f"[data-testid=hand] .card[data-card='{first}'].selected").click(position={"x": 5, "y": 12})
    assert play.is_disabled()
    ctx.close()


def test_our_level_is_on_the_left_whichever_team_we_are(browser, live_server):
    """Team 0's chip was drawn first for everyone: a seat of team 1 read the gold chip on the left, the
    other team's, as its own."""
    code, made, joined, ann_py, bo_py = room_of_two(live_server, 5)
    contexts = [browser.new_context(viewport={"width": 844, "height": 390}) for _ in range(2)]
    for ctx in contexts:
        ctx.add_init_script("localStorage.setItem('guandan:lang', 'en')")
    ann = open_seat(contexts[0], live_server, code, 0, made["token"])
    bo = open_seat(contexts[1], live_server, code, 1, joined["token"])
    ann_py.close()
    bo_py.close()
    ann.click("[data-testid=start]")
    for page, team in ((ann, 0), (bo, 1)):
        page.wait_for_function("() => globalThis.guandan.ui.state?.view?.phase === 'play'")
        chips = page.locator("[data-testid=levels] .level-chip")
        assert chips.first.inner_text().startswith("Us") and chips.last.inner_text().startswith("Them")
        assert f"t{team}" in chips.first.get_attribute("class").split()
    for ctx in contexts:
        ctx.close()


def test_a_card_tapped_back_on_a_phone_lies_flat_with_the_others(browser, live_server):
    """A phone keeps the last tapped element "hovered": with a lift on hover, the card just put back
    stood half raised, as if still picked."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    start_with_bots(page, live_server, "安娜")
    page.wait_for_selector("[data-testid=your-turn]", timeout=15_000)
    card = page.locator("[data-testid=hand] .card").nth(3)
    card.tap(position={"x": 5, "y": 12})
    page.wait_for_function("() => globalThis.guandan.ui.selected.size === 1")
    card.tap(position={"x": 5, "y": 12})
    page.wait_for_function("() => globalThis.guandan.ui.selected.size === 0")
    card.hover(position={"x": 5, "y": 12})  # where the phone leaves its "hover": on the card last tapped
    page.wait_for_timeout(200)  # the lift's transition
    assert card.evaluate("(e) => getComputedStyle(e).transform") == "none"
    ctx.close()


def test_offline_at_the_turn_the_table_says_so_and_sends_nothing_unannounced(browser, live_server):
    """The network lost at one's turn: the table still said "Your turn" with Play lit and a green dot; a play
    then went out unannounced on the way back, or not at all; the banner hid the levels."""
    ctx, page = phone_at_its_turn(browser, live_server, (1280, 800), "en", seed=1)
    me = view_of(page)["seat"]
    page.locator("[data-testid=hand] .card").first.click(position={"x": 5, "y": 12})
    ctx.set_offline(True)
    banner = page.locator("[data-testid=status]")
    banner.wait_for()
    assert "Your seat is kept" in banner.inner_text()
    levels = page.locator("[data-testid=levels]").bounding_box()
    box = banner.bounding_box()
    assert box["y"] > levels["y"] + levels["height"], "the banner hides the levels"
    for button in ("play", "suggest"):
        assert page.locator(f"[data-testid={button}]").is_disabled(), button
    assert page.locator(f"[data-testid=online-{me}]").get_attribute("data-online") == "no"
    hand = len(view_of(page)["hand"])
    page.keyboard.press("Enter")  # the shortcut: refused in words, nothing held back to go later
    page.wait_for_function("() => document.querySelector('[data-testid=message]').dataset.code === 'offline'")
    assert "nothing was sent" in page.locator("[data-testid=message]").inner_text()
    ctx.set_offline(False)
    banner.wait_for(state="detached", timeout=15_000)
    page.wait_for_selector("[data-testid=play]:enabled")
    assert page.locator(f"[data-testid=online-{me}]").get_attribute("data-online") == "yes"
    assert len(view_of(page)["hand"]) == hand
    ctx.close()


def test_enter_plays_after_suggest_or_the_history_pressed_with_a_pointer(browser, live_server, live_data):
    """Suggest and History pressed with the mouse kept the focus, and Enter ("play", "next deal") pressed
    them again: another suggestion, the history reopened, the deal's result left standing."""
    ctx, page = phone_at_its_turn(browser, live_server, (1280, 800), "en", seed=1)
    code = page.evaluate("() => globalThis.guandan.ui.room.code")
    page.click("[data-testid=history-open]")
    page.keyboard.press("Escape")
    page.keyboard.press("Enter")  # nothing picked: said so, and the history stays shut
    page.wait_for_function("() => document.querySelector('[data-testid=message]').textContent !== ''")
    assert page.locator("[data-testid=history]").count() == 0
    seen = page.evaluate("() => globalThis.guandan.ui.suggestions")
    page.click("[data-testid=suggest]")
    page.wait_for_function(f"() => globalThis.guandan.ui.suggestions > {seen}")
    picked = page.evaluate("() => globalThis.guandan.ui.selected.size")
    assert picked > 0
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => globalThis.guandan.ui.state.view.hand.length === {27 - picked}")
    page.wait_for_function(WAITS_ON.format(deal=1, seat=0))
    fast_forward(live_data, code)
    page.click("[data-testid=result-history]")
    page.keyboard.press("Escape")
    page.keyboard.press("Enter")  # the next deal, as the result's button says
    page.wait_for_function("() => globalThis.guandan.ui.state.view.deal === 2")
    assert page.locator("[data-testid=history]").count() == 0
    ctx.close()


def test_the_keys_go_to_the_hand_at_the_start_and_stay_there_after_a_play(browser, live_server):
    """Start went with its screen, the card in focus with its play, the Leave question with its answer: the
    focus fell to the page, its ring was gone and Tab started again from the top bar."""
    ctx, page = phone_at_its_turn(browser, live_server, (1280, 800), "en", seed=1)
    in_hand = "() => !!document.activeElement?.closest('[data-testid=hand]')"
    assert page.evaluate(in_hand)  # Start pressed (and gone with its screen): the keys are in the hand
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowUp")  # picks the card in focus: a single, a play on the lead
    page.keyboard.press("Enter")
    page.wait_for_function("() => globalThis.guandan.ui.state.view.hand.length === 26")
    assert page.evaluate(in_hand)
    page.click("[data-testid=leave]")  # a sheet asked and closed: the keys come back to the hand
    page.locator("[data-testid=leave-stay]").wait_for()
    page.keyboard.press("Escape")
    page.locator("[data-testid=leave-stay]").wait_for(state="detached")
    assert page.evaluate(in_hand)
    ctx.close()


def test_toasts_keep_to_two_on_a_desktop_and_give_way_to_the_summary_of_moves_for_you(browser, live_server):
    """Back at the table, three toasts of the bot's moves piled up over the levels and over the summary that
    lists those very moves."""
    ctx, page = phone_at_its_turn(browser, live_server, (1280, 800), "en", seed=1)
    base = view_of(page)
    lead = {"seat": 0, "type": "play", "kind": "single", "value": 3, "cards": [4], "by": "away"}
    passes = [{"seat": s, "type": "pass", "by": "away" if s == 1 else "timer"} for s in (1, 2, 3)]
    feed = "v => globalThis.guandan.conn.handlers.onState({version: -1, seat: v.seat, view: v})"
    page.evaluate(feed, {**base, "trick": [lead, *passes]})
    shown = page.locator("[data-testid=toast]:visible")
    assert page.locator("[data-testid=toast]").count() >= 3 and shown.count() == 2
    summary = {"n": 1, "moves": [{**lead, "deal": 1}]}
    page.evaluate(feed, {**base, "trick": [lead, *passes], "in_your_name": summary})
    page.locator("[data-testid=in-your-name]").wait_for()
    assert page.locator("[data-testid=toast]").count() == 0
    page.keyboard.press("Escape")  # the summary read: the toasts still up come back
    page.locator("[data-testid=in-your-name]").wait_for(state="detached")
    assert shown.count() == 2
    ctx.close()


def test_a_watcher_is_told_when_the_table_waits_for_its_players(browser, live_server):
    """Everyone gone, the bots wait too: the watcher saw "dropped · bot plays" at a table that did not
    move."""
    host_ctx, host = phone_at_its_turn(browser, live_server, (1280, 800), "en", seed=1)
    code = host.evaluate("() => globalThis.guandan.ui.room.code")
    watch_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    watch_ctx.add_init_script("localStorage.setItem('guandan:lang', 'en')")
    watcher = watch_ctx.new_page()
    watcher.goto(f"{live_server}/?room={code}")
    watcher.fill("[data-testid=join-form] [data-testid=nickname]", "Eve")
    watcher.click("[data-testid=watch]")
    watcher.wait_for_selector("[data-testid=spectator]", timeout=10_000)
    assert watcher.locator("[data-testid=paused]").count() == 0
    assert "安娜" in watcher.locator("[data-testid=turn-of]").inner_text()
    host_ctx.close()  # the only person at the table goes
    paused = watcher.locator("[data-testid=paused]")
    paused.wait_for(timeout=10_000)
    assert paused.inner_text() == "Everyone has left: play resumes when a player is back"
    assert watcher.locator("[data-testid=turn-of]").count() == 0
    watch_ctx.close()


def test_a_tap_puts_a_toast_away(browser, live_server):
    """On a phone a toast stood over the levels for its four seconds, with no way to clear it."""
    ctx, page = phone_at_its_turn(browser, live_server, (320, 568), "en")
    page.evaluate("""() => { const g = globalThis.guandan;
        g.story.toasts = [{ move: { seat: 0, type: "autoOn", by: "timer" }, me: 0 }]; g.render(); }""")
    toast = page.locator("[data-testid=toast]")
    assert "auto-play is on" in toast.inner_text()
    toast.click()
    toast.wait_for(state="detached", timeout=1_000)  # at once, not after its seconds
    ctx.close()
