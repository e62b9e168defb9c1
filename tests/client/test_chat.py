"""Quick phrases (快捷语, client-js/src/chat.js): said at one seat, read at every seat in its reader's own
language, in real Chromium on a real server."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from test_browser import view_of
from test_story import PHONE, open_seat, room_of_two
from test_table_controls import phone_at_its_turn, play_on_to_the_next_turn

pytestmark = pytest.mark.slow


def test_a_phrase_said_is_read_at_the_speaker_s_seat_in_each_reader_s_language(browser, live_server):
    code, made, joined, ann_py, bo_py = room_of_two(live_server, 5)
    ann_ctx = browser.new_context(viewport=PHONE)
    bo_ctx = browser.new_context(viewport={"width": 844, "height": 390})
    bo_ctx.add_init_script("localStorage.setItem('guandan:lang', 'en')")
    ann = open_seat(ann_ctx, live_server, code, 0, made["token"])
    bo = open_seat(bo_ctx, live_server, code, 1, joined["token"])
    ann_py.close()
    bo_py.close()
    ann.click("[data-testid=start]")
    for page in (ann, bo):
        page.wait_for_function("() => globalThis.guandan.ui.state?.view?.phase === 'play'")
    picked = view_of(ann)["hand"][:1]
    ann.locator(f"[data-testid=hand] .card[data-card='{picked[0]}']").first.click()
    ann.click("[data-testid=chat-open]")
    sheet = ann.locator("[data-testid=chat]")
    assert sheet.locator("button[data-testid^=phrase-]").count() == 10
    focused = "() => document.activeElement?.dataset?.testid"
    ann.wait_for_function(f"({focused})() === 'phrase-0'")  # the keys go to the list (they stayed behind it)
    ann.keyboard.press("Enter")  # says the phrase in focus, and is not a play of the picked card
    sheet.wait_for(state="detached")
    ann.wait_for_function(f"({focused})() === 'chat-open'")  # and back to Say (they fell to the page)
    expect(bo.locator("[data-testid=said-0]")).to_have_text("Hurry up, please")
    assert view_of(ann)["counts"][0] == 27
    ann.click("[data-testid=chat-open]")
    ann.keyboard.press("Escape")  # Escape closes the list, saying nothing
    sheet.wait_for(state="detached")
    ann.wait_for_timeout(2_100)  # one phrase every 2 s
    ann.click("[data-testid=chat-open]")
    ann.click("[data-testid=phrase-1]")
    # at Ann's seat, for both: in Chinese for her, in English for Bo
    expect(ann.locator("[data-testid=said-0]")).to_have_text("好牌！")
    expect(bo.locator("[data-testid=said-0]")).to_have_text("Nice play!")
    assert sheet.count() == 0
    # a second phrase at once: refused in words, the first still up
    ann.click("[data-testid=chat-open]")
    ann.click("[data-testid=phrase-2]")
    ann.wait_for_function("() => document.querySelector('[data-testid=message]')?.dataset.code"
                          " === 'rate_limited'")
    expect(bo.locator("[data-testid=said-0]")).to_have_text("Nice play!")
    # Bo answers: his bubble at his seat, on both screens, and gone after a few seconds
    bo.click("[data-testid=chat-open]")
    bo.click("[data-testid=phrase-8]")
    expect(ann.locator("[data-testid=said-1]")).to_have_text("谢谢")
    expect(bo.locator("[data-testid=said-1]")).to_have_text("Thanks")
    bo.locator("[data-testid=said-1]").wait_for(state="detached", timeout=8_000)
    ann_ctx.close()
    bo_ctx.close()


@pytest.mark.parametrize("size", [(320, 568), (568, 320), (390, 844), (844, 390), (1280, 800)])
def test_bubbles_leave_the_trick_the_turn_line_and_the_counts_in_sight(browser, live_server, size):
    """Over a side seat a bubble hid its count and last play, in the middle the trick and the turn line
    (one phrase every 2 s, 4 s each: a player could keep them covered)."""
    ctx, page = phone_at_its_turn(browser, live_server, size, "en", seed=1)
    play_on_to_the_next_turn(page)
    cards = page.locator("[data-testid=hand] .card")
    for i in (0, 8, 15):  # a refusal on screen too: one's own bubble stood over "too fast" at 320x568
        cards.nth(i).click(position={"x": 4, "y": 12})
    page.click("[data-testid=play]")
    page.wait_for_selector("[data-testid=message].error")
    for seat, phrase in ((0, 0), (1, 4), (2, 3), (3, 9)):  # the longest phrases, all at once
        page.evaluate("([seat, phrase]) => globalThis.guandan.conn.handlers.onSaid("
                      "{type: 'said', seat, phrase})", [seat, phrase])
    covered = page.evaluate("""() => {
        const boxes = (sel) => [...document.querySelectorAll(sel)].map(e => [sel, e.getBoundingClientRect()]);
        const keep = [...boxes('[data-testid=top-cards]'), ...boxes('[data-testid=top-label]'),
                      ...boxes('[data-testid=your-turn]'), ...boxes('[data-testid^=count-]'),
                      ...boxes('[data-testid=play]'), ...boxes('.seat-box .who'),
                      ...boxes('[data-testid=hand] .card'), ...boxes('[data-testid=counter]'),
                      ...boxes('[data-testid=message]')];
        const out = [];
        // one's own echo stands aside (hidden) where it would hide what the table says
        const shown = [...document.querySelectorAll('.said')]
            .filter(b => getComputedStyle(b).visibility !== 'hidden');
        for (const b of shown) {
            const r = b.getBoundingClientRect();
            const others = shown.filter(o => o !== b).map(o => [o.dataset.testid, o.getBoundingClientRect()]);
            if (r.left < 0 || r.right > innerWidth || r.top < 0) out.push([b.dataset.testid, 'off screen']);
            for (const [sel, k] of [...keep, ...others]) {
                const overlap = r.left < k.right && k.left < r.right && r.top < k.bottom && k.top < r.bottom;
                if (overlap) out.push([b.dataset.testid, sel]);
            }
        }
        return out; }""")
    assert page.locator(".said").count() == 4
    assert covered == [], covered
    hidden = page.evaluate("() => [...document.querySelectorAll('.said')].filter("
                           "b => getComputedStyle(b).visibility === 'hidden').map(b => b.dataset.testid)")
    assert hidden in ([], ["said-0"]), hidden  # only one's own, and only where there is no room
    if size[0] >= 390:
        assert hidden == [], size
    ctx.close()


def test_one_s_own_phrase_never_hides_the_refusal_of_the_next(browser, live_server):
    """At 320x568 a second phrase said at once was refused ("too fast") under one's own first bubble: the
    refusal could not be read (an audit's finding)."""
    ctx, page = phone_at_its_turn(browser, live_server, (320, 568), "zh", seed=1)
    play_on_to_the_next_turn(page)  # a trick on the table, the turn line over one's box
    page.click("[data-testid=chat-open]")
    page.click("[data-testid=phrase-0]")  # the longest
    page.wait_for_selector("[data-testid=said-0]")
    page.click("[data-testid=chat-open]")
    page.click("[data-testid=phrase-3]")
    page.wait_for_function("() => document.querySelector('[data-testid=message]')?.dataset.code"
                           " === 'rate_limited'")
    hides = page.evaluate("""() => {
        const b = document.querySelector('[data-testid=said-0]');
        if (!b || getComputedStyle(b).visibility === 'hidden') return false;
        const r = b.getBoundingClientRect();
        const m = document.querySelector('[data-testid=message]').getBoundingClientRect();
        return r.left < m.right && m.left < r.right && r.top < m.bottom && m.top < r.bottom; }""")
    assert hides is False
    ctx.close()
