#!/usr/bin/env python3
"""The screenshots of `whistdsl serve` in docs/serve.md and docs/commands/serve.md, made again.

It starts `whistdsl serve` on a free loopback port with a new database, opens a table of Oh Hell
for a person (Ana) and three heuristic players through the start page, plays Ana's answers
until a trick is on the table in the third hand, and saves her page as it is then, 360 and 1280
pixels wide: table-360.png and table-1280.png beside this file. It needs the web and test
extras (playwright) and Chromium at /usr/bin/chromium (or WHISTDSL_CHROMIUM).

    python docs/images/make_screenshots.py
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
CHROMIUM = os.environ.get("WHISTDSL_CHROMIUM", "/usr/bin/chromium")
ADDRESS = re.compile(r"^whistdsl serve: (http://127\.0\.0\.1:\d+)/ ")
WIDTHS = {360: 1250, 1280: 860}  # width: height of the page shown


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="whistdsl-screenshots-") as folder:
        server = subprocess.Popen(
            [sys.executable, "-m", "whistdsl", "serve", "--port", "0", "--db", str(Path(folder) / "t.sqlite3"), "--bot-pause", "0.05"],
            stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
        )
        try:
            match = ADDRESS.match(server.stdout.readline())  # type: ignore[union-attr]
            if match is None:
                raise SystemExit("whistdsl serve did not start")
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", "--no-first-run"])
                shoot(browser, match.group(1))
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)


def shoot(browser, address: str) -> None:  # noqa: ANN001 (a Playwright browser)
    host = browser.new_page(viewport={"width": 1280, "height": 900})
    host.goto(address + "/")
    host.select_option("#ruleset", "oh-hell")
    host.click("button[type=submit]")
    host.fill("#players", "4")
    for seat, kind in enumerate(["human", "heuristic", "heuristic", "heuristic"]):
        host.select_option(f"#seat{seat}", kind)
    host.click("button[type=submit]")
    host.wait_for_url(re.compile(r"/t/[\w-]+/host/[\w-]+$"))
    invite = host.locator("#links a").nth(0).get_attribute("href")
    ana = browser.new_page(viewport={"width": 360, "height": WIDTHS[360]})
    ana.goto(address + invite)
    ana.fill("#name", "Ana")
    ana.click("button[type=submit]")
    ana.wait_for_url(re.compile(r"/t/[\w-]+/seat/[\w-]+$"))
    deadline = time.monotonic() + 180
    while True:
        answers = ana.locator("button.answer:not([disabled])")
        asked = answers.count() > 0
        if asked and ana.locator("#sheet tbody tr").count() >= 2 and ana.locator("#trick .card").count() >= 2:
            break  # Ana to play to a trick of the third hand
        if time.monotonic() > deadline:
            raise SystemExit("the table did not come to a trick in the third hand")
        if asked:
            answers.first.click()
        ana.wait_for_timeout(150)
    wide = browser.new_page(viewport={"width": 1280, "height": WIDTHS[1280]})
    wide.goto(ana.url)  # the same seat, a second window
    wide.wait_for_selector("#trick .card")
    for width, page in ((360, ana), (1280, wide)):
        path = HERE / f"table-{width}.png"
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(path))
        print(f"{path}: {path.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main()
