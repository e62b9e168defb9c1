"""The result sheet as a player meets it, in real Chromium on a real server: auto-play left on under it,
a lost match, the match record."""

from __future__ import annotations

import pytest
from test_story import open_seat, room_of_two
from test_table_controls import fast_forward, phone_at_its_turn

pytestmark = pytest.mark.slow

#: the deal waits on that seat alone: bots and auto-play play at once, and fast_forward's commit needs a
#: state that stays put
WAITS_ON = ("() => (v => v.deal === {deal} && v.pending.length > 0 && v.pending.every(s => s === {seat}))"
            "(globalThis.guandan.ui.state.view)")


def test_a_player_left_on_auto_play_is_told_at_the_result_and_stops_it_there(browser, live_server, live_data):
    """The sheet covered the auto-play switch and showed only a greyed Ready: the bot went on to play the
    player's next deal too, with nothing said."""
    code, made, _joined, ann_py, bo_py = room_of_two(live_server, 5)  # Bo stays, not ready: the sheet stays
    ctx = browser.new_context(viewport={"width": 844, "height": 390})
    ctx.add_init_script("localStorage.setItem('guandan:lang', 'en')")
    page = open_seat(ctx, live_server, code, 0, made["token"])
    ann_py.close()
    page.click("[data-testid=start]")
    page.wait_for_function("() => globalThis.guandan.ui.state?.view?.phase === 'play'")
    page.check("[data-testid=auto-toggle]")
    page.wait_for_function("() => globalThis.guandan.ui.state.view.autoplay !== null")
    page.wait_for_function(WAITS_ON.format(deal=1, seat=1))  # auto-play led for Ann; Bo never plays
    fast_forward(live_data, code)
    line = page.locator("[data-testid=result-auto]")
    line.wait_for(timeout=10_000)
    assert "Auto-play is on" in line.inner_text()
    page.wait_for_selector("[data-testid=next-deal]:disabled")  # the bot said ready for the player
    page.click("[data-testid=result-auto-stop]")
    page.wait_for_function("() => globalThis.guandan.ui.state.view.autoplay === null")
    line.wait_for(state="detached")
    assert page.locator("[data-testid=deal-result]").is_visible()
    bo_py.close()
    ctx.close()


def test_the_losers_of_a_match_are_not_shown_a_trophy_and_the_record_names_each_deal_s_level(
        browser, live_server, live_data):
    ctx, page = phone_at_its_turn(browser, live_server, (390, 844), "zh")
    code = page.evaluate("() => globalThis.guandan.ui.room.code")
    fast_forward(live_data, code)
    page.click("[data-testid=next-deal]")
    page.wait_for_function(WAITS_ON.format(deal=2, seat=0))
    fast_forward(live_data, code, match_over=True, first_two=(1, 3))  # the bots' team goes out 1st and 2nd
    title = page.locator("[data-testid=match-won]")
    title.wait_for(timeout=10_000)
    assert title.inner_text() == "对方通关，本场告负"  # it was "🏆 通关！ 对方获胜": a win, to a glance
    deals = page.locator("[data-testid=match-record] .deal-no").all_inner_texts()
    assert deals[0] == "第 1 局 · 本局打 2" and deals[1].startswith("第 2 局 · 本局打 "), deals
    page.click("[data-testid=lang]")
    assert title.inner_text() == "They won the match"
    ctx.close()
