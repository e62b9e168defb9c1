"""理牌: the player's own groups of cards in the hand (client-js/src/hand-groups.js), in real Chromium."""

from __future__ import annotations

import time

from test_browser import PHONE, ambiguous_lead, can_act, start_with_bots, take_turn, view_of
from test_table_controls import phone_at_its_turn


def manual_groups(page) -> list[list[int]]:
    """The player's groups as drawn, each as its sorted card codes."""
    return [sorted(g) for g in page.locator("[data-testid=hand] .group.manual").evaluate_all(
        "gs => gs.map(g => [...g.querySelectorAll('[data-card]')].map(e => +e.dataset.card))")]


def pick(page, cards: list[int], within: str = "") -> None:
    """Tap one copy of each card not yet picked (in the group ``within`` if given), as a player does."""
    where = page.locator(f"[data-testid=hand] {within}".strip()).last
    picked = page.evaluate("() => globalThis.guandan.ui.selected.size")
    for code in cards:
        where.locator(f".card[data-card='{code}']:not(.selected)").first.click()
    assert page.evaluate("() => globalThis.guandan.ui.selected.size") == picked + len(cards)


def suggested_play(page) -> list[int]:
    """Play on (Suggest, then Play or Pass) until it is this seat's turn with a play suggested; its cards,
    left picked."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if can_act(page) and page.locator("[data-testid=your-turn]").is_visible():
            seen = page.evaluate("() => globalThis.guandan.ui.suggestions")
            page.click("[data-testid=suggest]")
            page.wait_for_function(f"() => globalThis.guandan.ui.suggestions > {seen}", timeout=10_000)
            picked = page.locator("[data-testid=hand] .card.selected").evaluate_all(
                "els => els.map(e => +e.dataset.card)")
            if picked:
                return sorted(picked)
            page.click("[data-testid=pass]")
        elif can_act(page):
            take_turn(page)
        page.wait_for_timeout(50)
    raise AssertionError("no play was suggested in time")


def test_picked_cards_grouped_stand_apart_stay_after_a_reload_and_leave_when_played(browser, live_server):
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    start_with_bots(page, live_server, "Ann")
    sort = page.locator("[data-testid=sort]")
    assert sort.get_attribute("data-does") == "sort"
    play = suggested_play(page)
    # with cards picked the sort button groups them (理牌), and says so
    assert sort.get_attribute("data-does") == "group" and "理牌" in sort.inner_text()
    sort.click()
    assert manual_groups(page) == [play]
    first = page.locator("[data-testid=hand] .group").first
    assert "manual" in first.get_attribute("class")  # they stand first, apart
    assert page.evaluate("() => globalThis.guandan.ui.selected.size") == 0
    assert sort.get_attribute("data-does") == "sort"
    # a second group, by the keyboard (G); a card of the first moves to it
    hand = view_of(page)["hand"]
    rest = [c for c in hand if c not in play][:2]
    pick(page, [rest[0], rest[1], play[0]])
    page.keyboard.press("g")
    second = sorted([rest[0], rest[1], play[0]])
    assert manual_groups(page) == ([play[1:]] if play[1:] else []) + [second]
    # a reload keeps them (this browser, this deal)
    page.reload()
    page.wait_for_selector("[data-testid=hand] .group.manual")
    assert manual_groups(page) == ([play[1:]] if play[1:] else []) + [second]
    # the same cards picked again: the group is undone, back in the hand
    pick(page, second, within=".group.manual")
    assert "拆开" in sort.inner_text()
    sort.click()
    assert manual_groups(page) == ([play[1:]] if play[1:] else [])
    # grouped cards played leave their group, and the emptied group goes
    pick(page, play[1:], within=".group.manual")
    pick(page, play[:1])
    before = page.evaluate("() => globalThis.guandan.conn.state.version")
    page.click("[data-testid=play]")
    page.wait_for_timeout(300)
    if page.locator("[data-testid=readings]").is_visible():  # a wild card: as the server reads it first
        page.click("[data-testid=reading-0]")
    page.wait_for_function(f"() => globalThis.guandan.conn.state.version > {before}", timeout=10_000)
    page.wait_for_function("() => !document.querySelector('[data-testid=hand] .group.manual')")
    # the match's end ends them: a rematch's deal 1 is another hand (its deal number is the same)
    pick(page, view_of(page)["hand"][:2])
    page.keyboard.press("g")
    stored = "() => Object.keys(localStorage).filter(k => k.startsWith('guandan:groups:')).length"
    assert page.evaluate(stored) == 1
    over = {**view_of(page), "phase": "match_over", "turn": None, "pending": []}
    page.evaluate("(view) => globalThis.guandan.conn.handlers.onState({version: -1, seat: view.seat, view})",
                  over)
    assert page.evaluate(stored) == 0
    ctx.close()


def test_grouping_the_cards_of_an_open_choice_closes_it(browser, live_server):
    """理牌 pressed while the choice of readings was up un-picked the cards but left the choice: its
    play then went out while the group kept the played cards' codes and took the other deck's copies."""
    seed, (cards, _ways) = next((s, found) for s in range(300) if (found := ambiguous_lead(s)))
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(live_server + "/")
    page.fill("[data-testid=create-form] [data-testid=nickname]", "Ann")
    page.select_option("[data-testid=bot-delay]", "2")
    page.click("[data-testid=create-form] summary")
    page.fill("[data-testid=seed]", str(seed))
    page.click("[data-testid=create]")
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=your-turn]", timeout=15_000)
    pick(page, cards)
    page.click("[data-testid=play]")
    page.wait_for_selector("[data-testid=readings]", timeout=10_000)
    page.keyboard.press("g")
    assert page.locator("[data-testid=readings]").count() == 0
    assert manual_groups(page) == [sorted(cards)]
    page.keyboard.press("Enter")  # nothing picked now: no play goes out
    page.wait_for_timeout(300)
    assert len(view_of(page)["hand"]) == 27 and manual_groups(page) == [sorted(cards)]
    page.close()


def test_a_group_stands_out_from_the_hand_whether_it_flows_by_group_or_card_by_card(browser, live_server):
    """A bar under a group's cards alone hardly told it from the rest: it lies on a tray; and in a hand
    flowing card by card (hand-fit.js: no group boxes there) its cards carry the tray's edge."""
    edge = "rgb(77, 208, 192) 0px 0px 0px 2px"
    for size, flows in (((390, 844), False), ((568, 320), True)):  # seed 1's hand flows only sideways
        ctx, page = phone_at_its_turn(browser, live_server, size, "zh", seed=1)
        cards = page.locator("[data-testid=hand] .card")
        for i in (0, 5, 9):
            cards.nth(i).click(position={"x": 5, "y": 12})  # a fanned card shows only its corner
        page.click("[data-testid=sort]")
        assert len(manual_groups(page)) == 1 and len(manual_groups(page)[0]) == 3
        page.wait_for_timeout(300)  # the cards' shadows ease in
        assert ("flow" in page.locator("[data-testid=hand]").get_attribute("class").split()) == flows
        group = page.locator("[data-testid=hand] .group.manual")
        card_shadow = group.locator(".card").first.evaluate("(e) => getComputedStyle(e).boxShadow")
        if flows:
            assert card_shadow.startswith(edge), card_shadow
        else:
            assert group.evaluate("(e) => getComputedStyle(e).boxShadow") == f"{edge} inset"
            assert group.evaluate("(e) => getComputedStyle(e).backgroundColor") != "rgba(0, 0, 0, 0)"
        ctx.close()
