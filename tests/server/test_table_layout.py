"""The live table's page at a phone's width and a laptop's, in a real browser (Debian's chromium, Playwright).
At 390 px the side panel sat beside the board and squeezed it to 54 px (the question one word a line); the page
stacks them below 900 px, and the board keeps a size to read and click, scrolled inside its own box."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.queries.pictures.browser import ARTIFACTS, CHROMIUM
from tests.serverkit import Running, server

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium (.ci/run installs it)")
BOX = "(s) => { const r = document.querySelector(s).getBoundingClientRect(); return [r.left, r.top, r.width]; }"


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    with server(tmp_path_factory.mktemp("layout")) as s:
        yield s


@pytest.mark.parametrize(("ruleset", "decks"), [("morana", ["clash", "glory"]), ("miras9", ["vanguard", "tempest"])])
@pytest.mark.parametrize(("width", "height"), [(390, 844), (1366, 768)])
def test_the_board_is_wide_enough_to_play_on_a_phone_and_a_laptop(
    running: Running, browser: Any, ruleset: str, decks: list[str], width: int, height: int
) -> None:
    """[MOR-15] [M9-025] The question, its answers and the board are each most of the page's width on a phone (the
    side panel below them); on a laptop the side panel is beside the board; the page never scrolls sideways."""
    table = running.table(ruleset, decks, ["human", "heuristic"], seed=5, cover_ms=40)
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(f"{running.base}/play/{table['table']}?token={table['tokens'][0]}")
    page.wait_for_selector("body[data-asked='1']", timeout=20000)
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scroll of the page
    board, turnbar, side = (page.evaluate(BOX, s) for s in ("#board", "#turnbar", "#side"))
    svg = page.evaluate(BOX, "#board svg")
    if width < 900:
        assert board[2] >= 0.9 * width and turnbar[2] >= 0.9 * width, (board, turnbar)
        assert side[1] > board[1]  # below the board, not squeezing it
        assert svg[2] >= 600  # drawn at a size to read; the board's box scrolls it
    else:
        assert side[0] >= board[0] + board[2] and board[2] >= 0.6 * width, (board, side)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"table-{ruleset}-{width}.png"))
    page.close()


def test_the_result_and_the_replay_link_are_on_screen_when_the_game_ends(running: Running, browser: Any) -> None:
    """[MOR-05] The game over box sat below the board, off a 1366x768 screen: the person saw an empty question bar
    and had to scroll for the result and the replay. It takes the question's place above the board."""
    table = running.table("morana", ["clash", "glory"], ["human", "heuristic"], seed=5, cover_ms=40)
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{running.base}/play/{table['table']}?token={table['tokens'][0]}")
    page.wait_for_selector("body[data-asked='1']", timeout=20000)
    page.locator("#leave").click()  # a concession: the quickest end
    page.wait_for_selector("body[data-over='true']", timeout=15000)
    over = page.locator("#over")
    box = over.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 768, box  # on screen without scrolling
    assert "Game over: heuristic-1 wins: the opponent conceded" in over.inner_text()
    assert page.locator("#over a[href^='/replay/']").is_visible()
    assert not page.locator("#turnbar").is_visible()  # no empty question bar above it
    page.screenshot(path=str(ARTIFACTS / "table-game-over-1366.png"))
    page.close()
