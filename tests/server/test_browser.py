"""The browser client in a real browser (Debian's chromium driven by Playwright): whole games played by clicking
the options' buttons, the board drawn as SVG of the seat's own view, the clock, a screenshot kept."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from annals.engine.replay import rerun
from annals.schemas.logfile import read_log
from tests.queries.pictures.browser import CHROMIUM
from tests.serverkit import Running, server

ARTEFACTS = Path(os.environ.get("ANNALS_ARTEFACTS", Path(__file__).parent.parent / "artefacts"))

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium (.ci/run installs it)")


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    with server(tmp_path_factory.mktemp("browser")) as s:
        yield s


def _play_pages(pages: list[Any], stall: float = 30.0) -> None:
    """Click the first or the last option of the list of every answer (accepting any confirmation) on whichever
    page is asked, until the game is over; it fails after ``stall`` seconds with nothing to click (a loaded machine
    is slow, not stuck: a count of rounds failed once while the game was still moving)."""
    for page in pages:
        page.on("dialog", lambda dialog: dialog.accept())
        page.locator("#all-options summary").click()  # the list, for the keyboard and screen readers
    stalled_at, clicks = time.monotonic() + stall, 0
    while time.monotonic() < stalled_at and clicks < 3000:  # a seat's game is a few dozen answers
        if all(page.evaluate("document.body.dataset.over === 'true'") for page in pages):
            return
        for page in pages:
            buttons = page.locator("#options button")
            if buttons.count():
                buttons.last.click() if page.evaluate("Math.random() < 0.5") else buttons.first.click()
                stalled_at, clicks = time.monotonic() + stall, clicks + 1
                page.wait_for_timeout(5)
        pages[0].wait_for_timeout(20)
    raise AssertionError(
        f"the game did not end in the browser ({clicks} clicks; stalled: nothing to click for {stall:.0f} s, or "
        "3000 clicks)"
    )


def _blocked_external(page: Any) -> list[str]:
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    return asked


def test_two_browsers_play_a_whole_morana_game(running: Running, browser: Any) -> None:
    """[MOR-05] [MOR-07] Two browser clients play a whole MORANA game by clicking; each sees its own hand by name
    and a board drawn from its own view; the page loads nothing but the server's own files; the log verifies."""
    table = running.table("morana", ["clash", "glory"], ["human", "human"], clock=300)
    pages = []
    asked: list[str] = []
    for seat in (0, 1):
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        asked += _blocked_external(page)
        page.goto(f"{running.base}/play/{table['table']}?token={table['tokens'][seat]}")
        page.wait_for_selector("#board svg", timeout=15000)
        pages.append(page)
    assert pages[0].locator("#hand li").count() >= 4  # the opening hand, by name
    assert "you are human-1" in pages[1].locator("#title").inner_text()
    assert "human-0" in pages[0].locator("#clock").inner_text()
    _play_pages(pages)
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    shot = ARTEFACTS / "browser-morana.png"
    pages[0].screenshot(path=str(shot), full_page=True)
    print(f"screenshot: {shot}")
    assert shot.stat().st_size > 10_000
    assert "game over" in pages[0].locator("#status").inner_text()
    assert pages[1].locator("#log li").count() > 50
    info = running.wait_over(table["table"])
    assert rerun(read_log(info["log"])).ok
    assert all(url.startswith(running.base) or url.startswith("ws://127.0.0.1") for url in asked), asked
    for page in pages:
        page.close()


def test_a_browser_plays_miras9_against_a_bot(running: Running, browser: Any) -> None:
    """[M9-011] A Miras 9 game in the browser against the heuristic bot, capped at 5 turns, to its end."""
    table = running.table("miras9", ["vanguard", "tempest"], ["human", "heuristic"], max_turns=5)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{running.base}/play/{table['table']}?token={table['tokens'][0]}")
    page.wait_for_selector("#board svg", timeout=15000)
    _play_pages([page])
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / "browser-miras9.png"), full_page=True)
    info = running.wait_over(table["table"])
    assert rerun(read_log(info["log"])).ok
    page.close()


def test_a_game_the_turn_cap_ends_says_game_over_on_the_board_too(running: Running, browser: Any) -> None:
    """A table's turn cap ends the game but not the rules' state: the board drawn at the end said nothing of it,
    only the box below it did. The board's turn panel now says the game is over, as the box does."""
    table = running.table("miras9", ["vanguard", "tempest"], ["human", "heuristic"], max_turns=1)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{running.base}/play/{table['table']}?token={table['tokens'][0]}")
    page.wait_for_selector("#board svg", timeout=15000)
    _play_pages([page])
    info = running.wait_over(table["table"])
    assert info["result"]["reason"] == "turn_cap" and info["result"]["winner"] == -1
    panel = page.locator('#board svg [data-panel="turn"]')
    panel.filter(has_text="Game over").wait_for(timeout=15000)
    said = " ".join(panel.locator("text").all_text_contents())  # the panel's lines, wrapped at its width
    assert "Game over: no winner: the turn cap was reached" in said, said
    assert "no winner: the turn cap was reached" in page.locator("#over").inner_text()
    page.close()


def test_a_spectator_page_shows_the_board_of_the_delayed_spectator_view(running: Running, browser: Any) -> None:
    """[MOR-07] The spectators' address in a browser: a board drawn as SVG of the spectator view (held back by
    the table's delay), no hand and no options, the game's events, and the result at the end."""
    import threading

    from tests.serverkit import play_seat

    table = running.table("morana", ["clash", "glory"], ["human", "heuristic"], delay=2)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{running.base}/play/{table['table']}?token={table['spectator_token']}")
    page.wait_for_selector("#board svg", timeout=15000)
    assert "you are watching" in page.locator("#title").inner_text()
    with running.socket(table["table"], table["tokens"][0]) as ws:
        seat = threading.Thread(target=play_seat, args=(ws, 8), daemon=True)
        seat.start()
        page.wait_for_selector("#board svg [data-card]", timeout=30000)  # a card flipped face up, by id
        seat.join(60)
    page.wait_for_selector("body[data-over='true']", timeout=30000)
    assert page.locator("#options button").count() == 0 and page.locator("#hand li").count() == 0
    assert page.locator("#log li").count() > 20 and "game over" in page.locator("#status").inner_text()
    assert page.locator("#board svg").first.get_attribute("data-view") == "spectator"
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / "browser-spectator.png"), full_page=True)
    assert rerun(read_log(running.wait_over(table["table"])["log"])).ok
    page.close()


def test_the_table_page_logs_no_error_in_the_console(running: Running, browser: Any) -> None:
    """The page asked for /favicon.ico and the browser logged its 404 in the console, as if the page were broken:
    the page names no icon (an empty one) and the server answers the address with nothing, not an error."""
    table = running.table("morana", ["clash", "glory"], ["human", "heuristic"])
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.goto(f"{running.base}/play/{table['table']}?token={table['tokens'][0]}")
    page.wait_for_selector("#board svg", timeout=15000)
    page.wait_for_timeout(500)  # the icon is asked for after the page loads
    assert page.locator("link[rel='icon']").count() == 1
    assert page.request.get(f"{running.base}/favicon.ico").status == 204
    page.close()
    assert errors == []
