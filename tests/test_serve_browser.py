"""`whistdsl serve` in a real headless Chromium, as people use it: a host sets up a table in the
start page, two people take seats by the invite link in their own browsers, a spectator
watches, and with two computer players they play a whole short game, clicking the legal
answers. Midway one page is reloaded and the server is killed and started again; both go on.
In a forehead hand (a ruleset pasted in the start page) each person's page shows the others'
cards and not their own. A person calls a dash in an auction with calls and the page says it in
words. A person holding a joker gets a button for each suit it may take, and the trick shows it
as the suit chosen. A browser set to Romanian gets the table in Romanian words, and the
switch on the page turns it to Serbian.
Screenshots at 360 and 1280 px wide are kept (WHISTDSL_SCREENSHOTS names the folder; by
default the test's temporary folder).

Debian's `chromium` is driven by Playwright (its own browser download is not used). Without
chromium or playwright the test is skipped, saying why.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("WHISTDSL_CHROMIUM", "/usr/bin/chromium")
if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)", allow_module_level=True)
pytest.importorskip("uvicorn", reason="the web extra (starlette, uvicorn, websockets) is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")

from whistdsl.records.replay import check_record_shape, replay  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"]
ADDRESS = re.compile(r"^whistdsl serve: (http://127\.0\.0\.1:(\d+)/) ")
#: The longest a page may take to show what the test waits for (a loaded machine).
WAIT_MS = 30_000


class ServerProcess:
    """`whistdsl serve` in a process of its own, on `port` (0: a free one) and the database `db`."""

    def __init__(self, db: Path, port: int = 0):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "whistdsl", "serve", "--port", str(port), "--db", str(db), "--bot-pause", "0.05"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
        )
        line = self.process.stdout.readline()  # type: ignore[union-attr]
        match = ADDRESS.match(line)
        if match is None:
            self.process.kill()
            raise AssertionError(f"whistdsl serve printed {line!r}: {self.process.stderr.read()}")  # type: ignore[union-attr]
        self.address, self.port = match.group(1).rstrip("/"), int(match.group(2))

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)


@pytest.fixture
def screenshots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("WHISTDSL_SCREENSHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def answer_if_asked(page) -> bool:
    """Click the first legal answer the page offers; whether there was one."""
    enabled = page.locator("button.answer:not([disabled])")
    if enabled.count() == 0:
        return False
    try:
        enabled.first.click(timeout=2000)
    except sync_api.Error:
        return False  # the page was redrawn meanwhile: asked again next time
    return True


def take_seat(browser, address: str, invite: str, seat: int, name: str, width: int, ready: str):
    """A person's page: the invite link opened in a browser context of its own, `seat` taken as
    `name`, and the seat's page once it shows `ready` (a selector)."""
    page = browser.new_context(viewport={"width": width, "height": 800}).new_page()
    page.set_default_timeout(WAIT_MS)
    page.goto(address + invite)
    page.check(f"#seat{seat}")
    page.fill("#name", name)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/t/[\w-]+/seat/[\w-]+$"))
    page.wait_for_selector(ready)
    return page


def open_pasted_table(browser, address: str, text: str, kinds: list[str], width: int, players: int | None = None):
    """The host's page of a new table: `text` pasted as the ruleset, `players` seats (when the
    form asks), each seat given its kind; the page, its invite link and its watch link."""
    host = browser.new_context(viewport={"width": width, "height": 900 if width > 360 else 800}).new_page()
    host.set_default_timeout(WAIT_MS)
    host.goto(address + "/")
    host.fill("#text", text)
    host.click("button[type=submit]")
    if players is not None:
        host.fill("#players", str(players))
    for seat, kind in enumerate(kinds):
        host.select_option(f"#seat{seat}", kind)
    host.click("button[type=submit]")
    host.wait_for_url(re.compile(r"/t/[\w-]+/host/[\w-]+$"))
    links = host.locator("#links a")
    return host, links.nth(0).get_attribute("href"), links.nth(1).get_attribute("href")


def status(page) -> str:
    return page.locator("#status").inner_text()


def test_two_people_a_spectator_and_two_computer_players_play_a_whole_game_through_a_reload_and_a_restart(tmp_path: Path, screenshots: Path):
    db = tmp_path / "tables.sqlite3"
    server = ServerProcess(db)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            host = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            host.set_default_timeout(WAIT_MS)
            host.goto(server.address + "/")
            host.select_option("#ruleset", "openspiel")
            host.click("button[type=submit]")
            host.fill("#param\\.tricks", "4")
            host.fill("#players", "4")
            for seat, kind in enumerate(["human", "human", "heuristic", "random"]):
                host.select_option(f"#seat{seat}", kind)
            host.click("button[type=submit]")
            host.wait_for_url(re.compile(r"/t/[\w-]+/host/[\w-]+$"))
            invite = host.locator("#links a").nth(0).get_attribute("href")
            watch = host.locator("#links a").nth(1).get_attribute("href")
            assert invite and "/join/" in invite and watch and "/watch/" in watch

            people = []
            for seat, name, width in ((0, "Ana", 360), (1, "Bojan <b>", 1280)):
                people.append(take_seat(browser, server.address, invite, seat, name, width, "#hand .card"))
            spectator = browser.new_context(viewport={"width": 360, "height": 800}).new_page()
            spectator.set_default_timeout(WAIT_MS)
            spectator.goto(server.address + watch)
            spectator.wait_for_selector("#seats li")
            assert "Bojan <b> (you)" in people[1].locator("#seats").inner_text()  # shown as text, not markup
            assert spectator.locator("#hand .card").count() == 0

            reloaded = restarted = False
            deadline = time.monotonic() + 240
            while "The game is over" not in status(spectator):
                assert time.monotonic() < deadline, f"the game did not end: {status(spectator)!r}"
                acted = False
                for page in people:
                    acted = answer_if_asked(page) or acted
                bids_made = "Bids:" in people[0].locator("#bids-line").inner_text()
                if bids_made and not reloaded:
                    people[0].screenshot(path=str(screenshots / "table-360.png"), full_page=True)
                    people[1].screenshot(path=str(screenshots / "table-1280.png"), full_page=True)
                    spectator.screenshot(path=str(screenshots / "spectator-360.png"), full_page=True)
                    people[0].reload()
                    people[0].wait_for_selector("#seats li")
                    assert "Bids:" in people[0].locator("#bids-line").inner_text()  # the same hand, where it was
                    reloaded = True
                elif reloaded and not restarted and people[0].locator("#trick .card").count() > 0:
                    server.kill()  # the computer players may have played on before it: the page shows where it was then
                    before = people[0].locator("#hand").inner_text(), people[0].locator("#bids-line").inner_text()
                    people[0].wait_for_function("() => document.getElementById('status').textContent.startsWith('Connection lost')")
                    server = ServerProcess(db, server.port)
                    people[0].wait_for_function("() => !document.getElementById('status').textContent.startsWith('Connection lost')")
                    # the same hand where it was (bids are made before the play; the cards change only by this page's own play)
                    assert (people[0].locator("#hand").inner_text(), people[0].locator("#bids-line").inner_text()) == before
                    restarted = True
                if not acted:
                    spectator.wait_for_timeout(100)
                assert spectator.locator("#hand .card").count() == 0
            assert reloaded and restarted
            for page in people:
                page.wait_for_function("() => document.getElementById('status').textContent.includes('The game is over')")
            assert people[1].locator("#trick").is_hidden()  # no empty box for a trick after the last
            people[1].screenshot(path=str(screenshots / "game-over-1280.png"), full_page=True)
            link = people[0].locator("a[download]").get_attribute("href")
            record = json.loads(people[0].request.get(server.address + link).text())
            assert replay(check_record_shape(record)).complete
            assert [p["name"] for p in record["players"]][:2] == ["Ana", "Bojan <b>"]
        finally:
            browser.close()
            server.kill()
    for name in ("table-360.png", "table-1280.png", "spectator-360.png", "game-over-1280.png"):
        assert (screenshots / name).stat().st_size > 1000


#: A ruleset pasted in the start page whose every hand is a 1-card forehead hand.
FOREHEAD_FIRST = """whistdsl: 1
extends: romanian-forehead
name: Forehead hands first
schedule:
  - cards: repeat(1, players)
    kind: forehead
"""


def foreheads(page) -> dict[str, list[str]]:
    """The cards a person's page shows on the others' foreheads, by the name shown beside them."""
    shown = {}
    for row in page.locator("#hand p.cards").all():
        shown[row.locator(".player").inner_text().rstrip(": ")] = [c.get_attribute("aria-label") for c in row.locator(".card").all()]
    return shown


def test_in_a_forehead_hand_each_person_s_page_shows_the_others_cards_and_not_their_own(tmp_path: Path):
    server = ServerProcess(tmp_path / "tables.sqlite3")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            _, invite, _ = open_pasted_table(browser, server.address, FOREHEAD_FIRST, ["human", "human", "heuristic", "heuristic"], 1280, players=4)
            people = {}
            for seat, name in ((0, "Ana"), (1, "Bojan")):
                people[name] = take_seat(browser, server.address, invite, seat, name, 360, "#hand p.cards")
            for page in people.values():  # every seat's name is shown, so the rows below are told apart
                page.wait_for_function("() => !document.getElementById('seats').textContent.includes('Seat 2')")
            # before any card is played (the bidding): each sees the three others' cards, one each
            ana, bojan = foreheads(people["Ana"]), foreheads(people["Bojan"])
            assert sorted(ana) == ["Bojan", "heuristic 3", "heuristic 4"] and sorted(bojan) == ["Ana", "heuristic 3", "heuristic 4"]
            assert all(len(cards) == 1 for cards in [*ana.values(), *bojan.values()])
            assert ana["heuristic 3"] == bojan["heuristic 3"] and ana["heuristic 4"] == bojan["heuristic 4"]
            for me, _other, seen_by_other in (("Ana", "Bojan", bojan["Ana"][0]), ("Bojan", "Ana", ana["Bojan"][0])):
                page = people[me]
                assert page.locator("#hand div.cards").count() == 0  # no row of one's own cards
                labels = [c.get_attribute("aria-label") for c in page.locator(".card").all()]
                assert seen_by_other not in labels, f"{me}'s page shows {me}'s own card"
            # one hand played: each plays the card on their forehead
            deadline = time.monotonic() + 120
            while people["Ana"].locator("#sheet tbody tr").count() == 0:
                assert time.monotonic() < deadline, "the hand did not end"
                if not any(answer_if_asked(page) for page in people.values()):
                    people["Ana"].wait_for_timeout(100)
        finally:
            browser.close()
            server.kill()


def test_a_browser_set_to_romanian_shows_the_table_in_romanian_and_the_switch_turns_it_to_serbian(tmp_path: Path):
    server = ServerProcess(tmp_path / "tables.sqlite3")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            context = browser.new_context(viewport={"width": 360, "height": 800}, locale="ro-RO")  # its Accept-Language: ro-RO
            host = context.new_page()
            host.set_default_timeout(WAIT_MS)
            host.goto(server.address + "/")
            assert host.locator("html").get_attribute("lang") == "ro"
            assert host.locator("h1").inner_text() == "whistdsl: o masă pentru prieteni"
            host.select_option("#ruleset", "romanian")
            host.click("button[type=submit]")
            host.fill("#players", "3")
            for seat, kind in enumerate(["human", "heuristic", "heuristic"]):
                host.select_option(f"#seat{seat}", kind)
            host.click("button[type=submit]")
            host.wait_for_url(re.compile(r"/t/[\w-]+/host/[\w-]+$"))
            host.wait_for_selector("#links a")
            assert host.locator("#links h2").inner_text() == "Linkuri"
            invite = host.locator("#links a").nth(0).get_attribute("href")
            page = context.new_page()
            page.set_default_timeout(WAIT_MS)
            page.goto(server.address + invite)
            assert page.locator("legend").inner_text() == "Alege un loc liber"
            page.check("#seat0")
            page.fill("#name", "Adrian")
            page.click("button[type=submit]")
            page.wait_for_url(re.compile(r"/t/[\w-]+/seat/[\w-]+$"))
            page.wait_for_selector("#ask h2")  # the bots bid quickly: the person is asked to bid
            assert page.locator("#ask h2").inner_text() == "Anunțul tău"
            assert page.locator("#ask button").first.get_attribute("aria-label").startswith("anunț ")
            assert "atu" in page.locator("#trump-line").inner_text()  # "atu cupă", or "fără atu"
            assert page.locator("#hand-line").inner_text().startswith("Mâna 1: 1 carte, împarte ")
            assert page.locator("#status").inner_text() == "E rândul tău: licitează."
            assert page.locator("#sheet th").first.inner_text() == "Mâna"
            assert page.locator("#trick h2").inner_text() == "Levata 1"
            cards = [c.get_attribute("aria-label") for c in page.locator("#hand .card").all()]
            assert cards and all(" de " in label for label in cards)  # "as de pică"
            page.click("nav.languages a[lang=sr-Latn]")
            page.wait_for_selector("html[lang=sr-Latn] #ask h2")
            assert page.locator("#ask h2").inner_text() == "Tvoje zvanje"
            assert "adut" in page.locator("#trump-line").inner_text()
            assert page.locator("#trick h2").inner_text() == "Štih 1"
            page.goto(server.address + "/")  # the switch is kept (a cookie) over the browser's Romanian
            assert page.locator("html").get_attribute("lang") == "sr-Latn"
        finally:
            browser.close()
            server.kill()


def test_a_person_calls_a_dash_in_the_auction_and_the_page_says_the_call_in_words(tmp_path: Path):
    # docs/examples/estimation-dash-and-double.yaml, one hand, the dealer at Seat 2: the auction goes
    # counter-clockwise from the dealer's right, so the person at Seat 1 speaks first (no bid yet)
    examples = Path(__file__).resolve().parent.parent / "docs" / "examples"
    text = (examples / "estimation-dash-and-double.yaml").read_text(encoding="utf-8") + '\nschedule: ["repeat(13, 1)"]\ndealer: {first: 1}\n'
    server = ServerProcess(tmp_path / "tables.sqlite3")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            _, invite, _ = open_pasted_table(browser, server.address, text, ["human", "heuristic", "heuristic", "heuristic"], 360)
            page = take_seat(browser, server.address, invite, 0, "Ana", 360, "#ask button[data-value=dash]")
            assert page.locator("#ask h2").inner_text() == "The auction: outbid, call or pass"
            dash = page.locator("#ask button[data-value=dash]")
            assert dash.inner_text() == "call dash (a bid of 0)"
            assert page.locator("#ask button[data-value=double]").count() == 0  # no bid yet to double
            assert page.locator("#trump-line").inner_text() == "Trump is named by the auction's winning bid."
            dash.click()
            page.wait_for_function("() => document.getElementById('bids-line').textContent.includes('Ana (you) called dash (a bid of 0)')")
            assert "dash" not in [b.get_attribute("data-value") for b in page.locator("#ask button").all()]  # out of the auction
        finally:
            browser.close()
            server.kill()


#: A joker pack where the person surely holds a joker: four aces and twelve jokers, three seats of
#: five cards and one turned (16 cards: at most four of the person's five are aces). The dealer
#: at Seat 3: the person at Seat 1 bids first and leads the first trick, where a joker may take
#: any suit.
JOKERS_IN_HAND = """whistdsl: 2
extends: oh-hell
name: Jokers in hand
players: {min: 3, max: 3, default: 3}
deck:
  ranks: [A]
  specials:
    joker: {count: 12, mark: JK, wild: any, description: the highest card of the suit its holder declares}
schedule: [5]
dealer: {first: 2}
"""


def test_a_person_holding_the_joker_gets_a_button_for_each_suit_it_may_take_and_the_trick_shows_it_as_that_suit(tmp_path: Path):
    server = ServerProcess(tmp_path / "tables.sqlite3")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            _, invite, watch = open_pasted_table(browser, server.address, JOKERS_IN_HAND, ["human", "heuristic", "heuristic"], 1280)
            page = take_seat(browser, server.address, invite, 0, "Ana", 360, "#ask button[data-kind=bid]")
            assert page.locator("#hand .card[aria-label=joker]").count() >= 1  # held: its name, not its mark
            assert answer_if_asked(page)  # a bid
            jokers = page.locator("#hand button[data-value^='JK=']")
            jokers.first.wait_for()
            # leading, the joker may take any suit: one button each (however many jokers are held), read as words
            assert [b.get_attribute("data-value") for b in jokers.all()] == ["JK=S", "JK=H", "JK=D", "JK=C"]
            assert [b.inner_text() for b in jokers.all()] == ["JK=\u2660", "JK=\u2665", "JK=\u2666", "JK=\u2663"]
            assert [b.get_attribute("aria-label") for b in jokers.all()] == [f"joker as {suit}" for suit in ("spades", "hearts", "diamonds", "clubs")]
            assert "The joker (JK) is played as the suit you choose" in page.locator("#ask").inner_text()
            assert page.evaluate("document.documentElement.scrollWidth") <= 360  # nothing wider than the phone
            spectator = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
            spectator.set_default_timeout(WAIT_MS)
            spectator.goto(server.address + watch)
            spectator.wait_for_selector("#seats li")
            page.click("#hand button[data-value='JK=H']")
            # played, it is shown as hearts (red) in the trick, or in the last trick once the trick is over
            played = "#trick .card.red[aria-label='joker as hearts'], #last-trick .card.red[aria-label='joker as hearts']"
            for seen_by in (page, spectator):
                seen_by.wait_for_selector(played)
                assert seen_by.locator(played).first.inner_text() == "JK=\u2665"
        finally:
            browser.close()
            server.kill()
