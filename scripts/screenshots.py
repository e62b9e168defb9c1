#!/usr/bin/env python3
"""Screenshots of the browser client for the README, in docs/screenshots/:

- lobby.png: the start screen and a room's lobby (a guest, a bot, a seat kept for an external AI);
- table.png: a table mid-deal, a suggestion selected, the turn timer running and the card counter on
  (a phone held upright, 390x844);
- table-landscape.png: the same kind of moment on a phone held sideways (844x390);
- table-desktop.png: the same kind of moment in a desktop window;
- result.png: the result of a whole deal, the player ready and waiting for the others' next deal;
- rules.png: the create form's preset choice with its note, and the rules page at that preset.

Starts the real server (``python -m server``, its own embedded Redis) on a free loopback port, drives
Debian's Chromium (/usr/bin/chromium) with Playwright, then stops the server by its pid. Chinese labels
need a CJK font (Debian: fonts-noto-cjk).

    python3 scripts/screenshots.py [--out docs/screenshots] [--lang zh|en] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import base64
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from server.lifecycle import wait_healthy

REPO = Path(__file__).resolve().parents[1]
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}
DESKTOP = {"width": 1280, "height": 800}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(data: Path) -> tuple[subprocess.Popen, str]:
    dist = REPO / "client-js" / "dist"
    if not (dist / "app.js").exists():
        subprocess.run(["npm", "run", "build"], cwd=REPO / "client-js", check=True)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    log = (data / "server.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(data),
         "--client-dir", str(dist), "--allow-fixed-seeds", "--no-address-limits"],
        stdout=log, stderr=subprocess.STDOUT, cwd=REPO, env=env, start_new_session=True,
    )
    try:
        wait_healthy(port, proc, data / "server.log", 30)
    except RuntimeError:
        stop_server(proc)
        raise
    return proc, f"http://127.0.0.1:{port}"


def stop_server(proc: subprocess.Popen) -> None:
    """Stop the server (and the Redis it started, in its process group) by pid."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def new_page(browser, viewport: dict, lang: str, scale: float) -> Page:
    locale = "zh-CN" if lang == "zh" else "en-US"
    ctx = browser.new_context(viewport=viewport, device_scale_factor=scale, locale=locale)
    ctx.add_init_script(f"localStorage.setItem('guandan:lang', '{lang}')")
    return ctx.new_page()


def create(page: Page, base: str, nickname: str, *, bots: bool, timer: str = "0", delay: str = "0.5",
           seed: str | None = None, counter: bool = False) -> str:
    page.goto(base + "/")
    page.fill("[data-testid=create-form] [data-testid=nickname]", nickname)
    if not bots:
        page.uncheck("[data-testid=fill-bots]")
    page.select_option("[data-testid=timer]", timer)
    page.select_option("[data-testid=bot-delay]", delay)
    if counter:
        page.check("[data-testid=counter-option]")
    if seed is not None:
        page.click("[data-testid=create-form] summary")
        page.fill("[data-testid=seed]", seed)
    page.click("[data-testid=create]")
    return page.locator("[data-testid=room-code]").inner_text(timeout=10_000)


def settle(page: Page) -> None:
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.mouse.move(0, 0)
    page.wait_for_timeout(400)


def compose(browser, shots: list[bytes], path: Path, scale: float) -> None:
    """Put screenshots side by side on the page background, as one PNG."""
    imgs = "".join(f'<img src="data:image/png;base64,{base64.b64encode(b).decode()}">' for b in shots)
    page = browser.new_page(device_scale_factor=1, viewport={"width": 400, "height": 400})
    gap = int(16 * scale)
    page.set_content(f"""<style>body {{ margin: 0; background: #073a24; }}
        #all {{ display: inline-flex; gap: {gap}px; padding: {gap}px; align-items: flex-start; }}
        img {{ display: block; border-radius: {gap}px; box-shadow: 0 4px 18px #0008; }}</style>
        <div id="all">{imgs}</div>""")
    page.locator("#all").screenshot(path=str(path))
    page.close()


def lobby_shot(browser, base: str, out: Path, viewport: dict, lang: str, scale: float) -> None:
    start = new_page(browser, viewport, lang, scale)
    start.goto(base + "/")
    start.wait_for_selector("[data-testid=create]")
    settle(start)
    first = start.screenshot()
    start.context.close()
    host = new_page(browser, viewport, lang, scale)
    code = create(host, base, "安娜" if lang == "zh" else "Ann", bots=False)
    guest = new_page(browser, viewport, lang, scale)
    guest.goto(f"{base}/?room={code}")
    guest.fill("[data-testid=join-form] [data-testid=nickname]", "小波" if lang == "zh" else "Bo")
    guest.click("[data-testid=join]")
    host.wait_for_selector("[data-testid=seat-1] .seat-name >> text=" + ("小波" if lang == "zh" else "Bo"))
    host.click("[data-testid=add-bot-2]")
    host.wait_for_selector("[data-testid=remove-2]")
    host.click("[data-testid=add-ai-3]")
    host.wait_for_selector("[data-testid=ai-url-3]")
    settle(host)
    second = host.screenshot()
    host.context.close()
    compose(browser, [first, second], out / "lobby.png", scale)
    guest.context.close()


def suggest(page: Page) -> int:
    """Press Suggest and wait for the answer; returns how many cards it selected."""
    seen = page.evaluate("() => globalThis.guandan.ui.suggestions")
    page.click("[data-testid=suggest]")
    page.wait_for_function(f"() => globalThis.guandan.ui.suggestions > {seen}", timeout=5_000)
    return page.evaluate("() => globalThis.guandan.ui.selected.size")


def submit(page: Page, selected: int) -> None:
    before = page.evaluate("() => globalThis.guandan.conn.state.version")
    if page.locator("[data-testid=return]").is_visible():
        page.click("[data-testid=return]")
    elif selected == 0:
        page.click("[data-testid=pass]")
    else:
        page.click("[data-testid=play]")
    page.wait_for_function(f"() => globalThis.guandan.conn.state.version > {before}", timeout=10_000)


def table_shot(browser, base: str, out: Path, viewport: dict, lang: str, scale: float,
               name: str = "table.png") -> None:
    for attempt in range(5):
        page = new_page(browser, viewport, lang, scale)
        create(page, base, "安娜" if lang == "zh" else "Ann", bots=True, timer="30", delay="0.5",
               seed=str(20240601 + attempt), counter=True)
        page.click("[data-testid=start]")
        page.wait_for_selector("[data-testid=hand] [data-card]", timeout=15_000)
        if play_to_a_good_moment(page, want=2 if attempt < 3 else 1):
            settle(page)
            page.screenshot(path=str(out / name))
            page.context.close()
            return
        page.context.close()
    raise RuntimeError("no deal came to a moment worth a picture")


def play_to_a_good_moment(page: Page, want: int) -> bool:
    """Play on (Suggest, then Play or Pass) until, some way into the deal, the suggestion is a play of
    `want` cards or more that follows someone else's: the picture then shows raised cards, the reason and
    a trick. False if the deal ends first."""
    turn_or_end = "[data-testid=your-turn], [data-testid=deal-result]"
    for _ in range(60):
        page.wait_for_selector(turn_or_end, timeout=30_000)
        if page.locator("[data-testid=deal-result]").is_visible():
            return False
        view = page.evaluate("() => globalThis.guandan.ui.state.view")
        selected = suggest(page)
        following = view["top"] is not None and view["top"]["seat"] != view["seat"]
        if len(view["played"]) >= 14 and following and len(view["trick"]) >= 2 and selected >= want:
            return True
        submit(page, selected)
    return False


def desktop_shot(browser, base: str, out: Path, viewport: dict, lang: str, scale: float) -> None:
    table_shot(browser, base, out, DESKTOP, lang, 1.0, name="table-desktop.png")


def landscape_shot(browser, base: str, out: Path, viewport: dict, lang: str, scale: float) -> None:
    table_shot(browser, base, out, LANDSCAPE, lang, scale, name="table-landscape.png")


def result_shot(browser, base: str, out: Path, viewport: dict, lang: str, scale: float) -> None:
    """A whole deal played by Suggest and Play (auto-play would be ready for the next deal at once), a
    partner at the table, and this player ready: the result stays until the partner is ready too."""
    page = new_page(browser, viewport, lang, scale)
    code = create(page, base, "安娜" if lang == "zh" else "Ann", bots=False, delay="0", seed="7")
    for seat in (1, 3):  # the partner gets the seat across (the first one left)
        page.click(f"[data-testid=add-bot-{seat}]")
        page.wait_for_selector(f"[data-testid=seat-{seat}].kind-bot")
    partner = new_page(browser, viewport, lang, scale)
    partner.goto(f"{base}/?room={code}")
    partner.fill("[data-testid=join-form] [data-testid=nickname]", "小波" if lang == "zh" else "Bo")
    partner.click("[data-testid=join]")
    page.wait_for_selector("[data-testid=seat-2].kind-human")
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=hand] [data-card]", timeout=15_000)
    while not page.locator("[data-testid=deal-result]").is_visible():
        owing = [p for p in (page, partner) if p.locator("[data-testid=your-turn]").is_visible()]
        for player in owing:
            submit(player, suggest(player))
        if not owing:
            page.wait_for_timeout(50)
    page.click("[data-testid=next-deal]")
    page.wait_for_selector("[data-testid=ready-waiting]")
    settle(page)
    page.screenshot(path=str(out / "result.png"), full_page=False)
    page.context.close()
    partner.context.close()


def rules_shot(browser, base: str, out: Path, viewport: dict, lang: str, scale: float) -> None:
    page = new_page(browser, viewport, lang, scale)
    page.goto(base + "/")
    page.select_option("[data-testid=preset]", "nanjing")
    settle(page)
    form = page.locator("[data-testid=create-form]").screenshot()
    page.click("[data-testid=preset-rules]")
    page.wait_for_selector("[data-testid=rules-doc]")
    settle(page)
    rules = page.screenshot()
    page.context.close()
    compose(browser, [form, rules], out / "rules.png", scale)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=REPO / "docs" / "screenshots")
    ap.add_argument("--lang", choices=("zh", "en"), default="zh")
    ap.add_argument("--scale", type=float, default=1.5, help="device pixel ratio of the phone screenshots")
    ap.add_argument("--only", action="append",
                    choices=("lobby", "table", "table-landscape", "table-desktop", "result", "rules"))
    args = ap.parse_args()
    exe = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    args.out.mkdir(parents=True, exist_ok=True)
    if not subprocess.run(["fc-list", ":lang=zh"], capture_output=True, text=True).stdout.strip():
        print("warning: no CJK font found (apt-get install fonts-noto-cjk): Chinese labels will not show")
    shots = {"lobby": lobby_shot, "table": table_shot, "table-landscape": landscape_shot,
             "table-desktop": desktop_shot, "result": result_shot, "rules": rules_shot}
    with tempfile.TemporaryDirectory(prefix="guandan-shots-") as tmp:
        proc, base = start_server(Path(tmp))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
                try:
                    for name in args.only or shots:
                        shots[name](browser, base, args.out, PHONE, args.lang, args.scale)
                        print(f"wrote {args.out / (name + '.png')}")
                finally:
                    browser.close()
        finally:
            stop_server(proc)


if __name__ == "__main__":
    main()
