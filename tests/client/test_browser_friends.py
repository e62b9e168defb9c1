"""Issue 12, Must show 1: friends get to the same table with the create form's defaults, by the link the
room panel shows; a latecomer takes a bot's seat mid-deal and plays on with its hand, and the table sees
who replaced whom."""

from __future__ import annotations

import time
from collections import Counter

import pytest
from test_browser import PHONE, assert_fits, can_act, hand_of, start_with_bots, take_turn, view_of

pytestmark = pytest.mark.slow


def join_by_link(browser, link: str, nickname: str):
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(link)
    page.fill("[data-testid=join-form] [data-testid=nickname]", nickname)
    page.click("[data-testid=join]")
    return page


def hosted_room(browser, base: str, nickname: str = "安娜"):
    """A phone that created a room (in the lobby), and the room's invite link."""
    host = browser.new_context(viewport=PHONE).new_page()
    host.goto(base + "/")
    host.fill("[data-testid=create-form] [data-testid=nickname]", nickname)
    host.click("[data-testid=create]")
    return host, host.locator("[data-testid=join-link]").get_attribute("href", timeout=10_000)


def seat_of(page) -> int | None:
    return page.evaluate("() => globalThis.guandan.conn.room && globalThis.guandan.conn.room.seat")


def version_of(page) -> int:
    return page.evaluate("() => globalThis.guandan.conn.state.version")


def act_once(pages) -> bool:
    """Whoever of ``pages`` owes an action takes it (as a player: Suggest, then Play or Pass)."""
    for page in pages:
        if can_act(page):
            before = version_of(page)
            take_turn(page)
            page.wait_for_function(f"() => globalThis.guandan.conn.state.version > {before}", timeout=10_000)
            return True
    return False


def play_until(pages, done, limit: float = 120.0) -> None:
    deadline = time.monotonic() + limit
    while not done():
        assert time.monotonic() < deadline, "the table did not get there in time"
        if not act_once(pages):
            pages[0].wait_for_timeout(50)


def test_friends_sit_by_the_link_and_a_latecomer_takes_a_bots_seat_mid_deal(browser, live_server):
    host = browser.new_context(viewport=PHONE).new_page()
    host.goto(live_server + "/")
    host.fill("[data-testid=create-form] [data-testid=nickname]", "Ann")
    assert host.locator("[data-testid=fill-bots]").is_checked()  # the form's default
    host.click("[data-testid=create]")
    link = host.locator("[data-testid=join-link]").get_attribute("href", timeout=10_000)
    friends = []
    for seat, name in enumerate(("Bo", "Cy", "Di"), start=1):
        page = join_by_link(browser, link, name)
        page.wait_for_selector("[data-testid=seats]", timeout=10_000)
        assert seat_of(page) == seat, f"{name} got no seat"
        host.wait_for_selector(f"[data-testid=seat-{seat}].kind-human >> text={name}", timeout=10_000)
        friends.append(page)
    # Di has to go before the start; the host starts anyway and a bot keeps her seat warm
    friends[2].click("[data-testid=leave]")
    host.wait_for_selector("[data-testid=seat-3].kind-empty", timeout=10_000)
    host.click("[data-testid=start]")
    table = [host, *friends[:2]]
    for page in table:
        assert len(hand_of(page)) == 27
    assert host.evaluate("() => globalThis.guandan.ui.room.seats[3].kind") == "bot"
    play_until(table, lambda: view_of(host)["counts"][3] < 27)  # the bot has played some of its hand

    eve = join_by_link(browser, link, "Eve")
    hand = hand_of(eve)
    assert seat_of(eve) == 3
    assert eve.locator("[data-testid=spectator]").count() == 0
    mine = view_of(eve)
    assert len(hand) == mine["counts"][3] < 27  # the bot's hand, as the bot left it
    for page in table:  # the table sees who replaced whom, and the same count of cards in that seat
        page.wait_for_function(f"() => globalThis.guandan.conn.state.version >= {version_of(eve)}")
        assert view_of(page)["counts"][3] == len(hand)
        seat_box = page.locator("[data-testid=table-seat-3]")
        seat_box.locator("[data-testid=replaced-3]").wait_for(timeout=10_000)
        assert "Eve" in seat_box.inner_text() and "接替机器人 4" in seat_box.inner_text()
    play_until([*table, eve], lambda: can_act(eve))
    before = version_of(eve)
    take_turn(eve)  # Eve plays on with the bot's hand
    eve.wait_for_function(f"() => globalThis.guandan.conn.state.view.turn !== 3 "
                          f"&& globalThis.guandan.conn.state.version > {before}", timeout=10_000)
    left = Counter(view_of(eve)["hand"])
    assert left <= Counter(hand)  # what she played (if not a pass) came from that hand
    assert eve.locator("[data-testid=message].error").count() == 0

    # mid-match the invite panel opens over the table; the host locks it and a newcomer may only watch
    host.click("[data-testid=header-code]")  # the code in the top bar
    assert host.locator("[data-testid=join-link]").get_attribute("href") == link
    assert_fits(host)
    host.check("[data-testid=lock]")
    host.wait_for_function("() => globalThis.guandan.ui.room.locked === true")
    host.click("[data-testid=close-invite]")
    fay = join_by_link(browser, link, "Fay")
    fay.wait_for_selector("[data-testid=message].error", timeout=10_000)
    assert "房间已满" in fay.locator("[data-testid=message]").inner_text()
    assert seat_of(fay) is None
    for page in [*table, *friends[2:], eve, fay]:
        page.context.close()


def test_the_host_removes_a_person_from_the_lobby_who_is_told_so_and_may_join_again(browser, live_server):
    """The host could free a bot's seat but not one a stranger with the code, or a friend who never came
    back, sat in: a lobby that could not start without a new room."""
    host, link = hosted_room(browser, live_server)
    code = host.locator("[data-testid=room-code]").inner_text()
    guest = join_by_link(browser, link, "陌生人")
    host.wait_for_selector("[data-testid=remove-player-1]")
    assert host.locator("[data-testid=remove-player-0]").count() == 0  # not one's own seat: Leave does that
    assert guest.locator("[data-testid^=remove-player-]").count() == 0  # the host's alone
    host.click("[data-testid=remove-player-1]")
    message = guest.locator("[data-testid=message].error")
    assert message.inner_text(timeout=10_000) == "房主请你离开了座位：可以用房间号重新加入"
    guest.wait_for_selector("[data-testid=create-form]")  # back at the door, Join first with the code in it
    assert guest.evaluate("""() => { const [join, create] = ['join-form', 'create-form'].map(
        (id) => document.querySelector(`[data-testid=${id}]`)); return !!(join.compareDocumentPosition(create)
        & Node.DOCUMENT_POSITION_FOLLOWING); }""")
    assert guest.locator("[data-testid=join-form] input[name=code]").input_value() == code
    # connected again for the door, and the reason still there (a resume with the dead token replaced
    # it with "could not get back into the seat: bad token")
    guest.wait_for_function("() => globalThis.guandan.ui.status === 'connected'")
    assert message.inner_text() == "房主请你离开了座位：可以用房间号重新加入"
    seats_kept = "() => Object.keys(localStorage).filter(k => k.startsWith('guandan:seat:')).length"
    assert guest.evaluate(seats_kept) == 0  # the token opens nothing now: not tried on the next visit
    host.wait_for_function("() => globalThis.guandan.ui.room.seats[1].kind === 'empty'")
    # the others are told why the row emptied
    assert host.locator("[data-testid=removed-1]").inner_text() == "房主请陌生人离开了座位"
    assert_fits(guest)
    guest.goto(link)  # the code still lets them in
    guest.fill("[data-testid=join-form] [data-testid=nickname]", "陌生人")
    guest.click("[data-testid=join]")
    guest.wait_for_function("() => globalThis.guandan.conn.room && globalThis.guandan.conn.room.seat === 1")
    host.wait_for_selector("[data-testid=removed-1]", state="detached")
    for page in (host, guest):
        page.context.close()


def test_a_friend_moves_across_the_table_to_partner_the_host_and_keeps_that_seat_on_reload(browser,
                                                                                            live_server):
    """Seats went in the order people came: the second friend was always the host's opponent."""
    host = browser.new_context(viewport=PHONE).new_page()
    host.goto(live_server + "/")
    host.fill("[data-testid=create-form] [data-testid=nickname]", "安娜")
    host.select_option("[data-testid=bot-delay]", "2")
    host.click("[data-testid=create]")
    link = host.locator("[data-testid=join-link]").get_attribute("href", timeout=10_000)
    guest = join_by_link(browser, link, "小波")
    guest.wait_for_function("() => globalThis.guandan.conn.room && globalThis.guandan.conn.room.seat === 1")
    assert guest.locator("[data-testid=sit-1]").count() == 0  # not one's own seat
    assert host.locator("[data-testid=sit-0]").count() == 0
    guest.click("[data-testid=sit-2]")
    guest.wait_for_function("() => globalThis.guandan.conn.room.seat === 2")
    assert "你" in guest.locator("[data-testid=seat-2]").inner_text()
    host.wait_for_function("() => globalThis.guandan.ui.room.seats[2].nickname === '小波'")
    assert host.locator("[data-testid=seat-1]").inner_text().count("空位") == 1
    assert_fits(guest)
    guest.reload()  # the saved seat follows the move
    guest.wait_for_function("() => globalThis.guandan.conn.room && globalThis.guandan.conn.room.seat === 2")
    host.click("[data-testid=start]")
    hand_of(guest)
    assert view_of(guest)["seat"] == 2 and view_of(host)["seat"] == 0
    for page in (host, guest):
        page.context.close()


def test_a_player_takes_the_seat_to_another_device_with_the_seat_link(browser, live_server):
    """The seat's token lived in the browser that sat down: a friend who opened the invite in a chat app's
    browser, or on a phone that died, could not get back in (their name was taken; another name seated
    them elsewhere, against their partner). The invite sheet carries the seat's own link."""
    old = browser.new_context(viewport=PHONE).new_page()
    start_with_bots(old, live_server, "小春")
    hand = hand_of(old)
    old.click("[data-testid=header-code]")
    old.click("[data-testid=seat-link] summary")
    link = old.locator("[data-testid=seat-link-url]").input_value()
    assert "#seat=" in link and "?room=" in link
    assert old.locator("[data-testid=seat-link-qr]").is_visible()
    assert_fits(old)
    new = browser.new_context(viewport=PHONE).new_page()  # another device: nothing stored there
    new.goto(link)
    assert hand_of(new) == hand and view_of(new)["seat"] == view_of(old)["seat"]
    assert "#" not in new.url, "the seat's token stays out of the address bar and the history"
    old.wait_for_selector("[data-testid=status].replaced")  # the first device lets go
    new.reload()
    assert hand_of(new) == hand
    for page in (old, new):
        page.context.close()


def test_the_host_of_a_full_table_brings_a_friend_across_to_partner_them(browser, live_server):
    """With every seat taken nobody could move ("Sit here" needs an empty or a bot's seat)."""
    host, link = hosted_room(browser, live_server)
    bo, cy = join_by_link(browser, link, "小波"), join_by_link(browser, link, "小春")
    for page, seat in ((bo, 1), (cy, 2)):
        page.wait_for_function("(s) => globalThis.guandan.conn.room?.seat === s", arg=seat)
    host.click("[data-testid=add-bot-3]")
    host.wait_for_selector("[data-testid=partner-1]")
    assert host.locator("[data-testid=partner-2]").count() == 0  # already across: the partner now
    assert bo.locator("[data-testid^=partner-]").count() == 0  # the host's alone
    host.click("[data-testid=partner-1]")
    bo.wait_for_function("() => globalThis.guandan.conn.room.seat === 2")
    cy.wait_for_function("() => globalThis.guandan.conn.room.seat === 1")
    assert "你" in bo.locator("[data-testid=seat-2]").inner_text()
    assert "小春" in host.locator("[data-testid=seat-1]").inner_text()
    assert_fits(host)
    host.click("[data-testid=start]")
    assert len(hand_of(bo)) == 27 and view_of(bo)["seat"] == 2
    for page in (host, bo, cy):
        page.context.close()


def test_a_friend_the_host_role_falls_to_is_told(browser, live_server):
    """The host left the lobby: the friend silently got the host's badge and Start, nothing said."""
    host, link = hosted_room(browser, live_server)
    guest = join_by_link(browser, link, "小波")
    guest.wait_for_function("() => globalThis.guandan.conn.room && globalThis.guandan.conn.room.seat === 1")
    assert guest.locator("[data-testid=start]").count() == 0
    host.click("[data-testid=leave]")
    guest.wait_for_selector("[data-testid=start]", timeout=10_000)
    assert guest.locator("[data-testid=message]").inner_text() == "房主离开了，现在由你当房主"
    for page in (host, guest):
        page.context.close()


def test_a_spectator_sits_down_in_a_free_seat_of_the_lobby(browser, live_server):
    """A spectator saw the seat the host had just freed but could not take it: only Leave, then Join with
    the code. They sit down under the name they watch by, and a reload keeps the seat."""
    host, link = hosted_room(browser, live_server)
    watcher = browser.new_context(viewport=PHONE).new_page()
    watcher.goto(link)
    watcher.fill("[data-testid=join-form] [data-testid=nickname]", "小五")
    watcher.click("[data-testid=watch]")
    watcher.wait_for_selector("[data-testid=sit-2]", timeout=10_000)
    assert watcher.locator("[data-testid=sit-hint]").is_visible()
    assert watcher.locator("[data-testid=sit-0]").count() == 0  # the host's seat is not free
    watcher.click("[data-testid=sit-2]")
    watcher.wait_for_function("() => globalThis.guandan.conn.room && globalThis.guandan.conn.room.seat === 2")
    host.wait_for_function("() => globalThis.guandan.ui.room.seats[2].nickname === '小五'")
    assert host.locator("[data-testid=watchers]").count() == 0  # no longer watching
    namesake = browser.new_context(viewport=PHONE).new_page()  # watching under a seated player's name:
    namesake.goto(link)
    namesake.fill("[data-testid=join-form] [data-testid=nickname]", "安娜")
    namesake.click("[data-testid=watch]")
    namesake.wait_for_selector("[data-testid=watchers]", timeout=10_000)
    assert namesake.locator("[data-testid^=sit-]").count() == 0  # no seat it would be refused (no name field)
    namesake.context.close()
    watcher.reload()
    watcher.wait_for_function("() => globalThis.guandan.conn.room && globalThis.guandan.conn.room.seat === 2")
    for page in (host, watcher):
        page.context.close()


def test_a_spectator_takes_the_bot_seat_they_choose_mid_match(browser, live_server):
    """Joining a started game put a friend in the first bot's seat, maybe on the other team, with no
    choice; watching, they saw the bots but could not take one. Now they sit where they choose."""
    host = browser.new_context(viewport=PHONE).new_page()
    start_with_bots(host, live_server, "安娜")
    code = host.evaluate("() => globalThis.guandan.conn.room.code")
    watcher = browser.new_context(viewport=PHONE).new_page()
    watcher.goto(f"{live_server}/?room={code}")
    watcher.fill("[data-testid=join-form] [data-testid=nickname]", "小五")
    watcher.click("[data-testid=watch]")
    watcher.wait_for_selector("[data-testid=sit-2]", timeout=10_000)  # the host's partner's seat
    assert watcher.locator("[data-testid=sit-0]").count() == 0  # a person's seat is not offered
    assert_fits(watcher)
    watcher.click("[data-testid=sit-2]")
    watcher.wait_for_function("() => globalThis.guandan.ui.state?.view?.seat === 2", timeout=10_000)
    assert len(hand_of(watcher)) > 0
    host.wait_for_function("() => globalThis.guandan.ui.room.seats[2].nickname === '小五'")
    for page in (host, watcher):
        page.context.close()
