"""Issue 12, Must show 2: the room panel's invite link is one friends can open (the machine's network
address on ``--host 0.0.0.0``, the ``--public-url`` when given), and its QR code says the same link."""

from __future__ import annotations

import io
import ipaddress
import socket
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import zxingcpp
from browser_server import serve_client
from PIL import Image
from test_table_controls import phone_at_its_turn

pytestmark = pytest.mark.slow

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def lan_server(tmp_path_factory: pytest.TempPathFactory, client_dist: Path) -> Iterator[str]:
    with serve_client(tmp_path_factory.mktemp("lan"), client_dist, "--host", "0.0.0.0") as base:
        yield base


@pytest.fixture(scope="module")
def proxied_server(tmp_path_factory: pytest.TempPathFactory, client_dist: Path) -> Iterator[str]:
    # the browser still talks to it on loopback: the proxy in front of it is only named
    with serve_client(tmp_path_factory.mktemp("proxied"), client_dist,
                      "--public-url", "https://guandan.example.org") as base:
        yield base


def decode_qr(png: bytes) -> list[str]:
    """What a phone's camera would read from the QR code in a screenshot."""
    return [r.text for r in zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))]


def host_a_room(browser, base: str) -> tuple[object, str, str]:
    """A host creates a room with the form's defaults; the page, the room's code and its invite link."""
    page = browser.new_page(viewport=PHONE)
    page.goto(base + "/")
    page.fill("[data-testid=create-form] [data-testid=nickname]", "Ann")
    page.click("[data-testid=create]")
    code = page.locator("[data-testid=room-code]").inner_text(timeout=10_000)
    link = page.locator("[data-testid=join-link]").get_attribute("href")
    assert page.locator("[data-testid=join-link]").inner_text() == link
    return page, code, link


def test_on_every_interface_the_link_names_a_network_address_and_the_qr_says_it(browser, lan_server):
    page, code, link = host_a_room(browser, lan_server)
    parts = urlsplit(link)
    assert parts.query == f"room={code}" and parts.port == urlsplit(lan_server).port
    address = ipaddress.ip_address(parts.hostname.strip("[]"))
    assert not address.is_loopback and not address.is_link_local
    with socket.socket(socket.AF_INET6 if address.version == 6 else socket.AF_INET) as s:
        s.bind((str(address), 0))  # an address of this very machine (only those can be bound)
    assert page.locator("[data-testid=invite-local]").count() == 0
    assert decode_qr(page.locator("[data-testid=invite-qr]").screenshot()) == [link]
    page.close()


def test_a_public_url_is_the_link_and_the_qr_code(browser, proxied_server):
    page, code, link = host_a_room(browser, proxied_server)
    assert link == f"https://guandan.example.org/?room={code}"
    assert page.locator("[data-testid=invite-alt]").count() == 0  # the loopback page address is no use
    assert decode_qr(page.locator("[data-testid=invite-qr]").screenshot()) == [link]
    page.close()


def test_on_loopback_only_the_panel_says_so_plainly(browser, live_server):
    page, code, link = host_a_room(browser, live_server)
    assert link == f"{live_server}/?room={code}"
    warning = page.locator("[data-testid=invite-local]")
    assert "--host 0.0.0.0" in warning.inner_text() and "README" in warning.inner_text()
    assert page.locator("[data-testid=invite-qr]").count() == 0  # no phone could open it
    page.click("[data-testid=lang]")
    assert "Only this computer can open this link" in warning.inner_text()
    # a friend who joined sees the code and the link, not how to start the server (they cannot)
    guest = browser.new_page(viewport=PHONE)
    guest.goto(link)
    guest.fill("[data-testid=join-form] [data-testid=nickname]", "Bo")
    guest.click("[data-testid=join]")
    assert guest.locator("[data-testid=room-code]").inner_text(timeout=10_000) == code
    assert guest.locator("[data-testid=invite-local]").count() == 0
    assert warning.is_visible()
    guest.close()
    page.close()


def test_mid_match_on_a_phone_held_sideways_the_qr_is_in_sight(browser, proxied_server):
    """The code in the top bar opens the invite over the table; sideways the QR stood below the code,
    cut off by the screen's edge, and the friend could not scan it until the host scrolled."""
    ctx, page = phone_at_its_turn(browser, proxied_server, (844, 390), "en")
    page.click("[data-testid=header-code]")
    qr = page.locator("[data-testid=invite-qr]")
    qr.wait_for()
    # whole, above the sheet's foot with Close, and no scrolling done or needed
    top, bottom = page.evaluate("""() => {
        const qr = document.querySelector('[data-testid=invite-qr]').getBoundingClientRect();
        const foot = document.querySelector('.sheet-foot').getBoundingClientRect();
        const sheet = document.querySelector('.invite-sheet');
        return [qr.top - sheet.getBoundingClientRect().top - sheet.scrollTop, foot.top - qr.bottom];
    }""")
    assert top >= 0 and bottom >= 0, (top, bottom)
    link = page.locator("[data-testid=join-link]").get_attribute("href")
    assert decode_qr(qr.screenshot()) == [link]
    page.click("[data-testid=close-invite]")
    page.wait_for_selector("[data-testid=invite-qr]", state="detached")
    ctx.close()


def test_on_a_desktop_the_host_sees_start_beside_the_invite(browser, live_server):
    """One column under a loopback invite put Start below the fold of a 1280x800 screen (less the browser's
    own bars): the invite stands beside the seats there."""
    page = browser.new_page(viewport={"width": 1280, "height": 700})
    page.goto(live_server + "/")
    page.fill("[data-testid=create-form] [data-testid=nickname]", "Kay")
    page.click("[data-testid=create]")
    start = page.locator("[data-testid=start]")
    start.wait_for()
    assert page.locator("[data-testid=invite-local]").is_visible()
    box = start.bounding_box()
    assert box["y"] + box["height"] <= 700, box
    # and Create, gone with its screen, handed the keys to Start (they fell to the page)
    assert page.evaluate("() => document.activeElement?.dataset?.testid") == "start"
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 1280
    page.close()
