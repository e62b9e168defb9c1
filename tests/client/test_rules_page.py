"""The rules page in a real Chromium (issue 12): reachable from the create form's preset choice, from the
top bar in the lobby and at the table, in the player's language, with an anchor per preset."""

from __future__ import annotations

import pytest
from test_browser import assert_fits, hand_of, inject, start_with_bots, view_of

from engine.rules import PRESETS

pytestmark = pytest.mark.slow

PHONE = {"width": 390, "height": 844}


def heading_in_view(page, element_id: str) -> None:
    """Wait until the heading is scrolled to near the top of the window, below the sticky bar."""
    page.wait_for_function(
        """(id) => { const el = document.getElementById(id); if (!el) return false;
                     const top = el.getBoundingClientRect().top;
                     const bar = document.querySelector('.topbar').offsetHeight;
                     return top >= bar - 1 && top < innerHeight / 3; }""",
        arg=element_id, timeout=5_000)


def section_text(page, preset: str) -> str:
    """The heading of a preset and the paragraph under it."""
    return page.evaluate(
        "(id) => { const el = document.getElementById(id); "
        "return el.textContent + ' ' + el.nextElementSibling.textContent; }",
        f"rules-{preset}")


def open_preset_rules(page, preset: str) -> str:
    """Pick a preset in the create form, read its one-line note, follow its "?" link."""
    before = page.locator("[data-testid=preset-note]").inner_text()
    page.select_option("[data-testid=preset]", preset)
    note = page.locator("[data-testid=preset-note]").inner_text()
    assert note and note != before, "the note follows the choice"
    page.click("[data-testid=preset-rules]")
    page.wait_for_selector("[data-testid=rules-doc]")
    assert page.evaluate("() => location.hash") == f"#rules-{preset}"
    heading_in_view(page, f"rules-{preset}")
    return note


def test_the_preset_choice_opens_its_section_of_the_rules_in_both_languages(browser, live_server):
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # an address straight to the page (here a mangled one) opens it; Back leaves it for the lobby
    page.goto(live_server + "/#rules-%E4")
    page.wait_for_selector("[data-testid=rules-doc]")
    page.click("[data-testid=rules-back]")
    page.wait_for_selector("[data-testid=create-form]")
    options = page.locator("[data-testid=preset] option").evaluate_all("els => els.map(e => e.value)")
    assert options == list(PRESETS)

    # Chinese, the default
    note = open_preset_rules(page, "nanjing")
    assert "南京" in note
    assert page.get_attribute("[data-testid=rules-doc]", "lang") == "zh-CN"
    assert "南京" in section_text(page, "nanjing") and "两次" in section_text(page, "nanjing")
    for name in PRESETS:  # every preset has its anchor
        assert page.locator(f"#rules-{name}").count() == 1, name
    assert_fits(page)
    # the contents move within the page; Back still leaves it at once
    page.click("[data-testid=rules-doc] a[href='#rules-过a与整场结束']")
    heading_in_view(page, "rules-过a与整场结束")
    page.click("[data-testid=rules-back]")
    page.wait_for_selector("[data-testid=create-form]")
    assert page.evaluate("() => location.hash") == ""
    assert page.locator("[data-testid=preset]").input_value() == "nanjing", "the form kept its choice"

    # English
    page.click("[data-testid=lang]")
    note = open_preset_rules(page, "club")
    assert note.startswith("Club")
    assert page.get_attribute("[data-testid=rules-doc]", "lang") == "en"
    assert "Club rules" in section_text(page, "club")
    assert_fits(page)
    # the document's link to the other language switches the page
    page.click("[data-testid=rules-doc] a[data-lang=zh]")
    page.wait_for_function("() => document.querySelector('[data-testid=rules-doc]').lang === 'zh-CN'")
    assert page.locator("[data-testid=rules-link]").count() == 0  # the top bar offers Back meanwhile
    page.click("[data-testid=rules-back]")
    page.wait_for_selector("[data-testid=create-form]")
    assert page.locator("[data-testid=create]").inner_text() == "创建房间"
    assert errors == []
    ctx.close()


def test_the_rules_open_from_the_table_and_back_to_the_same_hand(browser, live_server):
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    start_with_bots(page, live_server, "Reader")
    hand = hand_of(page)
    page.click("[data-testid=rules-link]")
    page.wait_for_selector("[data-testid=rules-doc]")
    assert page.locator("[data-testid=hand]").count() == 0
    assert page.locator("[data-testid=header-code]").is_visible(), "still in the room"
    page.keyboard.press("r")  # table shortcuts sleep while the page is open: R would re-sort the hand
    assert page.evaluate("() => globalThis.guandan.ui.sortMode") == "rank"
    page.keyboard.press("Escape")  # Escape closes the page
    assert hand_of(page) == hand
    assert page.evaluate("() => location.hash") == ""
    ctx.close()


def test_a_table_with_other_rules_says_which_and_its_rules_open_there(browser, live_server):
    """The preset showed only in the waiting room: a friend who took a bot's seat mid-match never saw
    which rules the table plays. The invite sheet over the table names them, and Rules opens there."""
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    page.goto(live_server + "/")
    page.fill("[data-testid=create-form] [data-testid=nickname]", "Reader")
    page.select_option("[data-testid=preset]", "nanjing")
    page.select_option("[data-testid=bot-delay]", "2")
    page.click("[data-testid=create]")
    assert page.locator("[data-testid=settings]").inner_text().startswith("规则：南京 · ")
    page.click("[data-testid=start]")
    hand_of(page)
    page.click("[data-testid=header-code]")  # the invite sheet over the table
    assert "规则：南京" in page.locator("[data-testid=settings]").inner_text()
    assert_fits(page)
    page.click("[data-testid=close-invite]")
    link = page.locator("[data-testid=rules-link]")
    assert link.get_attribute("aria-label") == "规则：南京"
    link.click()
    heading_in_view(page, "rules-nanjing")
    assert "南京" in section_text(page, "nanjing")
    page.keyboard.press("Escape")
    hand_of(page)
    ctx.close()


@pytest.mark.parametrize("size", [(390, 844), (844, 390)])
def test_a_player_reading_the_rules_sees_their_turn_its_countdown_and_a_way_back(browser, live_server, size):
    """The rules page covered the table: a player reading it at their turn saw neither the turn nor its
    countdown until our bot had played for them. What they owe stays over the page, with the way back."""
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = ctx.new_page()
    start_with_bots(page, live_server, "Reader", timer="60")
    page.wait_for_selector("[data-testid=your-turn]", timeout=20_000)  # the bots play at once
    page.click("[data-testid=rules-link]")
    page.wait_for_selector("[data-testid=rules-doc]")
    note = page.locator("[data-testid=rules-turn]")
    assert note.inner_text().startswith("轮到你出牌")
    assert page.locator("[data-testid=rules-countdown]").inner_text().endswith("秒")
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")  # reading far down: still there
    page.wait_for_function("""() => {
        const r = document.querySelector('[data-testid=rules-turn]').getBoundingClientRect();
        return Math.abs(r.top - document.querySelector('.topbar').offsetHeight) <= 1; }""")
    assert_fits(page)
    page.click("[data-testid=rules-to-table]")
    page.wait_for_selector("[data-testid=your-turn]")
    assert page.evaluate("() => location.hash") == ""
    page.click("[data-testid=rules-link]")  # not the player's move: the page alone
    inject(page, {**view_of(page), "turn": (view_of(page)["seat"] + 1) % 4})
    page.wait_for_selector("[data-testid=rules-doc]")
    assert page.locator("[data-testid=rules-turn]").count() == 0
    ctx.close()


def test_what_the_timer_played_for_a_player_reading_the_rules_is_said_there(browser, live_server):
    """The turn bar just went when the timer ran out on a player reading the rules, and only back at the
    table did they learn that a joker had been played for them. The create form says what a timeout does."""
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    page.goto(live_server + "/")
    assert page.locator("[data-testid=timer-note]").count() == 0  # no timer, nothing to say
    page.select_option("[data-testid=timer]", "10")
    assert "建议" in page.locator("[data-testid=timer-note]").inner_text()
    start_with_bots(page, live_server, "Reader", timer="10")
    page.wait_for_selector("[data-testid=your-turn]", timeout=20_000)
    seat = view_of(page)["seat"]
    page.click("[data-testid=rules-link]")
    page.wait_for_selector("[data-testid=rules-turn]")
    toast = page.locator("[data-testid=rules-page] ~ [data-testid=toasts] "
                         f"[data-by=timer][data-seat='{seat}']")
    toast.wait_for(timeout=20_000)
    assert toast.inner_text().startswith("时间到")
    assert page.locator("[data-testid=rules-doc]").is_visible()  # still reading
    ctx.close()


def test_the_presets_go_by_the_form_s_names_and_their_table_fits_the_screen(browser, live_server):
    """The Chinese page headed each preset, and titled its column, with the code (`nanjing`), which a
    player who chose "南京" did not recognise; on a phone the table showed one preset and scrolled the
    options' names away, on a desktop it scrolled sideways in a narrow column beside empty space."""
    for size, lang, name in (((390, 844), "zh", "南京"), ((1280, 800), "en", "Nanjing")):
        ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
        ctx.add_init_script(f"localStorage.setItem('guandan:lang', '{lang}')")
        page = ctx.new_page()
        page.goto(live_server + "/#rules-nanjing")
        heading_in_view(page, "rules-nanjing")
        # (the code beside a name that does not say it: "Nanjing nanjing" read doubled)
        heading = page.locator("#rules-nanjing").inner_text().split()
        assert heading == ([name, "nanjing"] if lang == "zh" else [name])
        # the section for those who write protocol clients (JSON options) is the documents', not the page's
        doc = page.locator("[data-testid=rules-doc]").inner_text()
        assert '"first_leader"' not in doc
        assert page.locator("#rules-room-options, #rules-房间选项").count() == 0
        # the text's links to it are words now (they jumped to the top of the page)
        assert page.locator("a[href='#rules-room-options'], a[href='#rules-房间选项']").count() == 0
        assert ("room option" if lang == "en" else "房间选项") in doc
        table = page.locator("[data-testid=rules-doc] table.wide")
        assert table.count() == 1 and name in table.locator("th").all_inner_texts()[4]
        widths = table.evaluate("t => [t.clientWidth, t.scrollWidth, innerWidth]")
        if lang == "en":  # a desktop: the whole table, no sideways scrolling
            assert widths[0] == widths[1] <= widths[2]
        else:  # a phone: it scrolls, the option's name stays where it was
            assert widths[1] > widths[0]
            first = table.locator("tbody tr").first.locator("td").first
            left = first.bounding_box()["x"]
            table.evaluate("t => { t.scrollLeft = 300; }")
            assert abs(first.bounding_box()["x"] - left) < 1
            assert first.is_visible()
        ctx.close()
