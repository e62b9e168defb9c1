"""The browser client in a real Chromium against the real server (issue 7, 'Must show' 2)."""

from __future__ import annotations

import time

import pytest

pytestmark = pytest.mark.slow

PHONE = {"width": 360, "height": 780}


def create_room(page, base: str, nickname: str, fill_bots: bool = True) -> str:
    page.goto(base + "/")
    page.fill("[data-testid=create-form] [data-testid=nickname]", nickname)
    if not fill_bots:
        page.uncheck("[data-testid=fill-bots]")
    page.select_option("[data-testid=bot-delay]", "0")
    page.click("[data-testid=create]")
    code = page.locator("[data-testid=room-code]").inner_text(timeout=10_000)
    assert len(code) == 6
    return code


def hand_of(page) -> list[int]:
    page.wait_for_selector("[data-testid=hand] [data-card]", timeout=15_000)
    return sorted(int(x) for x in page.locator("[data-testid=hand] [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"))


def view_of(page) -> dict:
    return page.evaluate("() => globalThis.guandan.ui.state && globalThis.guandan.ui.state.view")


def text_of(testid: str) -> str:
    """A JS expression for the text of one element, for wait_for_function."""
    return f"document.querySelector('[data-testid={testid}]').textContent"


def can_act(page) -> bool:
    return any(page.locator(f"[data-testid={t}]").is_visible() for t in ("your-turn", "return"))


def take_turn(page) -> None:
    """Ask the server for a suggestion and submit it, as a player pressing Suggest then Play."""
    seen = page.evaluate("() => globalThis.guandan.ui.suggestions")
    page.click("[data-testid=suggest]")
    page.wait_for_function(f"() => globalThis.guandan.ui.suggestions > {seen}", timeout=5_000)
    if page.locator("[data-testid=return]").is_visible():
        assert page.evaluate("() => globalThis.guandan.ui.selected.size") == 1
        page.click("[data-testid=return]")
        return
    if page.evaluate("() => globalThis.guandan.ui.selected.size") == 0:
        page.click("[data-testid=pass]")
    else:
        page.click("[data-testid=play]")


def play_until_result(page, limit: float = 180.0) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if page.locator("[data-testid=deal-result]").is_visible():
            return
        if can_act(page):
            before = page.evaluate("() => globalThis.guandan.conn.state.version")
            take_turn(page)
            page.wait_for_function(f"() => globalThis.guandan.conn.state.version > {before}", timeout=10_000)
        else:
            page.wait_for_timeout(50)
    raise AssertionError("the deal did not reach its result screen in time")


def test_one_player_and_three_bots_play_a_deal_to_the_result(browser, live_server):
    page = browser.new_page(viewport=PHONE)
    create_room(page, live_server, "Alice")
    page.click("[data-testid=start]")
    assert len(hand_of(page)) == 27
    play_until_result(page)
    result = page.locator("[data-testid=deal-result]")
    assert result.is_visible()
    text = result.inner_text()
    assert "Alice" in text
    view = view_of(page)
    assert view["phase"] in ("deal_over", "match_over")
    assert sorted(view["last_result"]["places"]) == [0, 1, 2, 3]
    page.close()


def test_two_players_join_by_code_and_each_sees_only_their_own_hand(browser, live_server):
    host_ctx, guest_ctx = browser.new_context(viewport=PHONE), browser.new_context(viewport=PHONE)
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    code = create_room(host, live_server, "Host", fill_bots=False)
    guest.goto(f"{live_server}/?room={code}")
    assert guest.locator("[data-testid=join-code]").input_value() == code
    guest.fill("[data-testid=join-form] [data-testid=nickname]", "Guest")
    guest.click("[data-testid=join]")
    guest.wait_for_selector("[data-testid=seats]")
    host.wait_for_function(f"() => {text_of('seats')}.includes('Guest')")
    for seat in (2, 3):
        host.locator(f"[data-testid=seat-{seat}] button").click()
        host.wait_for_function(f"() => {text_of(f'seat-{seat}')}.includes('🤖')")
    host.click("[data-testid=start]")
    host_hand, guest_hand = hand_of(host), hand_of(guest)
    assert len(host_hand) == len(guest_hand) == 27
    host_view, guest_view = view_of(host), view_of(guest)
    assert host_view["seat"] == 0 and guest_view["seat"] == 1
    assert host_view["hand"] != guest_view["hand"]
    # nothing the host's page holds reveals another seat's cards
    host_state = host.evaluate("() => JSON.stringify(globalThis.guandan.ui)")
    assert '"hands"' not in host_state
    assert sorted(host_view["hand"]) == host_hand and sorted(guest_view["hand"]) == guest_hand
    host_ctx.close()
    guest_ctx.close()


def test_reload_mid_deal_returns_to_the_same_hand(browser, live_server):
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    code = create_room(page, live_server, "Reloader")
    page.click("[data-testid=start]")
    hand_of(page)
    for _ in range(3):  # play a little so the deal is under way
        page.wait_for_selector("[data-testid=your-turn]", timeout=10_000)
        before = page.evaluate("() => globalThis.guandan.conn.state.version")
        take_turn(page)
        page.wait_for_function(f"() => globalThis.guandan.conn.state.version > {before}", timeout=10_000)
    page.wait_for_timeout(300)
    before_hand = hand_of(page)
    page.reload()
    assert f"room={code}" in page.url
    assert hand_of(page) == before_hand
    # a second tab of the same browser takes the seat over too
    other = ctx.new_page()
    other.goto(f"{live_server}/?room={code}")
    assert hand_of(other) == before_hand
    ctx.close()


def test_an_illegal_selection_shows_the_reason_and_the_cards_stay(browser, live_server):
    page = browser.new_page(viewport=PHONE)
    create_room(page, live_server, "Tester")
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=your-turn]", timeout=15_000)
    hand = hand_of(page)
    cards = page.locator("[data-testid=hand] [data-card]")
    view = view_of(page)
    # two cards of different ranks that are not both jokers: never a legal play
    ranks = [(c >> 2) if c < 52 else 100 + c for c in [int(x) for x in cards.evaluate_all(
        "els => els.map(e => e.dataset.card)")]]
    first = 0
    second = next(i for i, r in enumerate(ranks) if r != ranks[0] and r < 100 and ranks[0] < 100
                  and view["level"] - 2 not in (r, ranks[0]))
    cards.nth(first).click()
    cards.nth(second).click()
    page.click("[data-testid=play]")
    message = page.locator("[data-testid=message]")
    is_error = "() => document.querySelector('[data-testid=message]').classList.contains('error')"
    page.wait_for_function(is_error, timeout=5_000)
    assert message.inner_text().strip()
    assert hand_of(page) == hand
    assert page.evaluate("() => globalThis.guandan.ui.selected.size") == 2  # the selection stays too
    page.close()
