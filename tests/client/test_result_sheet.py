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


def ann_starts(browser, base: str, code: str, made: dict, ann_py, size: tuple[int, int]):
    """Ann's page (English, at ``size``) takes her seat from the protocol client that made the room and
    starts the match."""
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    ctx.add_init_script("localStorage.setItem('guandan:lang', 'en')")
    page = open_seat(ctx, base, code, 0, made["token"])
    ann_py.close()
    page.click("[data-testid=start]")
    page.wait_for_function("() => globalThis.guandan.ui.state?.view?.phase === 'play'")
    return ctx, page


def test_a_player_left_on_auto_play_is_told_at_the_result_and_stops_it_there(browser, live_server, live_data):
    """The sheet covered the auto-play switch and showed only a greyed Ready: the bot went on to play the
    player's next deal too, with nothing said."""
    code, made, _joined, ann_py, bo_py = room_of_two(live_server, 5)  # Bo stays, not ready: the sheet stays
    ctx, page = ann_starts(browser, live_server, code, made, ann_py, (844, 390))
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


def test_back_to_lobby_after_a_won_match_gives_the_seat_up_and_the_player_may_sit_again(
        browser, live_server, live_data):
    """The page forgets the seat on "Back to lobby" after a won match; the room used to keep it for the
    forgotten token, and the rematch showed a ghost "left" seat that no one could take, not even its
    player under the same name."""
    code, made, joined, ann_py, bo_py = room_of_two(live_server, 9)
    pages = []
    for seat, token in ((0, made["token"]), (1, joined["token"])):
        ctx = browser.new_context(viewport={"width": 844, "height": 390})
        ctx.add_init_script("localStorage.setItem('guandan:lang', 'en')")
        pages.append(open_seat(ctx, live_server, code, seat, token))
    ann, bo = pages
    ann_py.close()
    bo_py.close()
    ann.click("[data-testid=start]")
    for page in pages:
        page.wait_for_function("() => globalThis.guandan.ui.state?.view?.phase === 'play'")
    ann.wait_for_function("() => (v => v.pending.length > 0 && v.pending.every(s => s < 2))"
                          "(globalThis.guandan.ui.state.view)")  # the bots wait for the people: it stays put
    fast_forward(live_data, code, match_over=True)
    ann.locator("[data-testid=back-to-lobby]").click(timeout=10_000)
    ann.wait_for_selector("[data-testid=join-form]")
    assert ann.evaluate(f"() => localStorage.getItem('guandan:seat:{code}')") is None
    # the table sees a bot in the seat, not a player who left
    bo.wait_for_function("() => globalThis.guandan.ui.room.seats[0].kind === 'bot'")
    assert bo.evaluate("() => globalThis.guandan.ui.state.view.auto[0]") is None
    # the match's result still names Ann, and Bo reads that she left (a bot in her seat "wanted a rematch")
    places = bo.locator("[data-testid=deal-result] .places").inner_text()
    assert "Ann" in places and "Bot 1" not in places
    told = bo.locator("[data-testid=left-match-0]").inner_text()
    assert told == "Ann left the table: Bot 1 takes the seat for a rematch"
    # Ann comes back by the code, under her own name, and both start the rematch
    ann.fill("[data-testid=join-form] [data-testid=nickname]", "Ann")
    ann.fill("[data-testid=join-code]", code)
    ann.click("[data-testid=join]")
    ann.wait_for_function("() => globalThis.guandan.ui.state?.view?.phase === 'match_over'")
    assert ann.evaluate("() => globalThis.guandan.ui.state.view.seat") == 0
    bo.wait_for_selector("[data-testid=left-match-0]", state="detached")  # she is back in her seat
    for page in pages:
        page.click("[data-testid=rematch]")
    for page in pages:
        page.wait_for_function(
            "() => (v => v.phase === 'play' && v.deal === 1)(globalThis.guandan.ui.state.view)")
    for page in pages:
        page.context.close()


def test_a_match_on_points_shows_the_score_and_the_deals_left(browser, live_server, live_data):
    """Seed 004's fixed-length match: no levels, every deal at 2; the table and the result say the score
    and which deal of how many it is."""
    code, made, _joined, ann_py, bo_py = room_of_two(live_server, 5, preset="points6")
    ctx, page = ann_starts(browser, live_server, code, made, ann_py, (390, 844))
    assert page.locator("[data-testid=deal-level]").inner_text().startswith("Deal 1 of 6")
    assert [page.locator(f"[data-testid=points-{t}]").inner_text() for t in (0, 1)] == ["0", "0"]
    page.wait_for_function("() => (v => v.pending.length > 0 && v.pending.every(s => s < 2))"
                           "(globalThis.guandan.ui.state.view)")  # waits on the people: it stays put
    fast_forward(live_data, code)
    page.wait_for_selector("[data-testid=deal-result]", timeout=10_000)
    r = page.evaluate("() => globalThis.guandan.ui.state.view.last_result")
    scored = r["upgrade"]
    assert r["points"][r["winner_team"]] == scored and sum(r["points"]) == scored
    headline = page.locator("[data-testid=result-upgrade]").inner_text()
    assert headline.endswith(f"{scored} points" if scored > 1 else "1 point"), headline
    score = page.locator("[data-testid=levels-line]").inner_text()
    assert score.startswith("Score") and "0 → " in score, score
    assert "after deal 1 of 6" in page.locator("[data-testid=result-reason]").inner_text()
    assert page.locator(f"[data-testid=points-{r['winner_team']}]").inner_text() == str(scored)
    bo_py.close()
    ctx.close()


def test_the_levels_line_puts_the_reader_s_team_first(browser, live_server, live_data):
    """A player of the second team read "Them 2 → 2  Us 2 → 4" while the top bar put Us first."""
    code, made, joined, ann_py, bo_py = room_of_two(live_server, 5)
    bo_ctx = browser.new_context(viewport={"width": 390, "height": 844})
    bo_ctx.add_init_script("localStorage.setItem('guandan:lang', 'en')")
    bo = open_seat(bo_ctx, live_server, code, 1, joined["token"])
    bo_py.close()
    ann_ctx, ann = ann_starts(browser, live_server, code, made, ann_py, (390, 844))
    fast_forward(live_data, code)
    for page in (bo, ann):
        page.wait_for_selector("[data-testid=levels-line]", timeout=10_000)
        changes = page.locator("[data-testid=levels-line] .level-change").all_inner_texts()
        assert [c.split()[0] for c in changes] == ["Us", "Them"], changes
    first = bo.locator("[data-testid=levels-line] .level-change").first
    assert first.get_attribute("class").split()[-1] == "t1"  # Bo's team, in its colour
    assert bo.locator("[data-testid=next-deal-in]").count() == 0  # no timer: the table waits for them
    bo_ctx.close()
    ann_ctx.close()


def test_a_timed_room_that_deals_on_by_itself_counts_the_next_deal_down(browser, live_server, live_data):
    """With a turn timer and "deal on by itself" the next deal began while the players were still reading
    the result, with nothing on it saying so."""
    code, made, _joined, ann_py, bo_py = room_of_two(live_server, 5, turn_timer=30, auto_next=True)
    ctx, page = ann_starts(browser, live_server, code, made, ann_py, (390, 844))
    page.wait_for_function(WAITS_ON.format(deal=1, seat=1))
    fast_forward(live_data, code)
    line = page.locator("[data-testid=next-deal-in]")
    line.wait_for(timeout=10_000)
    left = page.locator("[data-testid=next-deal-countdown]").inner_text()
    assert line.inner_text().startswith("Next deal starts in") and left.endswith(" s")
    assert 20 <= int(left.split()[0]) <= 30
    page.wait_for_function("() => document.querySelector('[data-testid=next-deal-countdown]').textContent"
                           f" !== '{left}'")  # it counts down in place
    bo_py.close()
    ctx.close()
