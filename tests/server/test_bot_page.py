"""A person against the search bot in a real browser (Debian's chromium driven by Playwright), clicking only: while
the bot thinks (up to a second a decision, several a MORANA turn) the page says so where the question stands, and
its plays come into What happened as they are made; it said "sent…" or nothing until the next question. A click
while the connection is down keeps the question (it was cleared and the answer lost) and, once the server is
back, answers it."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.queries.pictures.browser import CHROMIUM
from tests.serverkit import Running, server, start, stop

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium (.ci/run installs it)")


def _open(running: Running, browser: Any, ruleset: str, decks: list[str], clock: int = 0) -> Any:
    table = running.table(ruleset, decks, ["human", "search"], clock=clock)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{running.base}/play/{table['table']}?token={table['tokens'][0]}")
    page.wait_for_selector("#board svg", timeout=15000)
    return page


def _click_something(page: Any) -> bool:
    """One answer as a person gives it: the last button above the board (seal, pass, keep), if one is offered."""
    buttons = page.locator("#actions button")
    if not buttons.count():
        return False
    buttons.last.click()
    return True


def test_the_page_says_the_search_bot_is_thinking_and_shows_its_plays_as_they_come(
    tmp_path: Path, browser: Any
) -> None:
    """[MOR-05] [MOR-07] A MORANA table against search: some moment finds the page waiting on the bot, saying
    so (and not as a question), and What happened growing by the bot's plays before the next question."""
    with server(tmp_path) as running:
        page = _open(running, browser, "morana", ["clash", "glory"])
        said, grew = "", False
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not grew and page.evaluate("document.body.dataset.over !== 'true'"):
            # read at once: a frame arriving between two reads changes what the page says
            waiting, line, classes = page.evaluate(
                "[document.body.dataset.waitingFor, document.querySelector('#question').textContent,"
                " document.querySelector('#question').className]"
            )
            if waiting == "1":
                said = line
                assert "thinking" in classes, (line, classes)
                lines = page.locator("#log li").count()
                while page.evaluate("document.body.dataset.waitingFor === '1'"):
                    if page.locator("#log li").count() > lines:
                        grew = True  # a play of the bot's, shown while it still thinks
                        break
                    page.wait_for_timeout(20)
            elif not _click_something(page):
                page.wait_for_timeout(20)
        assert said == "search-1 (the search bot) is thinking…"
        assert grew, "the bot's plays came only with the next question"


def test_a_click_while_the_server_is_down_keeps_the_question_and_answers_once_back(
    tmp_path: Path, browser: Any
) -> None:
    """[M9-011] A Miras 9 table: the server stops with the person's question open; a click meanwhile says the
    answer was not sent and keeps the question; the server started again half a minute later resumes the game,
    the page (still trying: it gave up after eight tries, some 24 s) reconnects and the same click answers it."""
    running = start(tmp_path)
    try:
        page = _open(running, browser, "miras9", ["vanguard", "bastion"])
        page.locator("#all-options summary").click()  # every answer as buttons (the first, a lane, is on the board)
        page.wait_for_selector("#options button", timeout=60000)
        asked = page.evaluate("document.body.dataset.asked")
        stop(running)
        page.wait_for_function("document.getElementById('status').textContent.includes('reconnecting')")
        question = page.locator("#question").inner_text()
        page.locator("#options button").first.click()
        assert "not sent: the connection is lost" in page.locator("#status").inner_text()
        assert page.locator("#question").inner_text() == question and page.locator("#options button").count()
        page.wait_for_timeout(26_000)  # longer than the page's first eight tries (it gave up after them)
        assert "reconnecting" in page.locator("#status").inner_text()
        running = start(tmp_path, running.port)
        page.wait_for_function("document.getElementById('status').textContent === 'connected'", timeout=30000)
        page.wait_for_selector("#options button", timeout=30000)
        page.locator("#options button").first.click()
        page.wait_for_function(f"Number(document.body.dataset.asked) > {int(asked or 0) + 1}", timeout=60000)
    finally:
        stop(running)


def test_the_bots_clock_runs_on_the_page_while_it_thinks(tmp_path: Path, browser: Any) -> None:
    """[MOR-05] With a time bank, the clock that runs while the bot thinks is the bot's (none ran: the page knew
    only the questions put to its own seat), counting down from what the table said with the board."""
    with server(tmp_path) as running:
        page = _open(running, browser, "morana", ["clash", "glory"], clock=600)
        running_while_thinking = ""
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not running_while_thinking:
            if page.evaluate("document.body.dataset.waitingFor === '1'"):
                found = page.locator("#clock span.running")
                if found.count() and page.evaluate("document.body.dataset.waitingFor === '1'"):
                    running_while_thinking = found.first.inner_text()
            elif not _click_something(page):
                page.wait_for_timeout(20)
        assert running_while_thinking.startswith("search-1 9:") or running_while_thinking == "search-1 10:00"
