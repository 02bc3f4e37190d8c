"""What the play page says while the table answers for the person, and after the game (Debian's chromium driven by
Playwright against a real server): while the table takes a seat's only answer for it (a hidden lone pass, which
waits out its cover delay), the question line says so, never "sent…" for what the person did not send; once the
game is over the "Leave (concede)" button is gone (nothing is left to concede: the box below offers the replay)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from annals.schemas.logfile import read_log
from tests.queries.pictures.browser import CHROMIUM
from tests.serverkit import Running, server

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium (.ci/run installs it)")

SENT = "sent…"
ANSWERED = "The table answers for you"

# every text the question line shows, as it changes (a MutationObserver sees a line however briefly it stands)
RECORD = """() => {
  window.said = [];
  const q = document.getElementById("question");
  new MutationObserver(() => window.said.push(q.textContent)).observe(q, {childList: true, characterData: true,
                                                                         subtree: true});
}"""


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    with server(tmp_path_factory.mktemp("says")) as s:
        yield s


def _play(page: Any, stall: float = 60.0) -> int:
    """Click the first answer in the list whenever one is asked, to the end of the game; returns the clicks."""
    page.locator("#all-options summary").click()
    clicks, stalled_at = 0, time.monotonic() + stall
    while page.evaluate("document.body.dataset.over") != "true":
        assert time.monotonic() < stalled_at, f"nothing to click for {stall:.0f} s ({clicks} clicks)"
        buttons = page.locator("#options button")
        if buttons.count():
            buttons.first.click()
            clicks, stalled_at = clicks + 1, time.monotonic() + stall
        page.wait_for_timeout(20)
    return clicks


def test_the_page_says_the_table_answers_for_you_not_sent_and_offers_no_concession_after_the_game_M9_114(
    running: Running, browser: Any
) -> None:
    """[M9-114] In a reaction window where nothing in the hand can be played, the only answer is to pass: the table
    passes for the seat (its default settings: automatic, auto_pass) after a cover delay, here up to 1.2 s."""
    # a fixed deal (the person clicks the first answer, the heuristic is deterministic): a deal at random once had
    # no reaction window where the person's hand held nothing to play
    table = running.table("miras9", ["vanguard", "tempest"], ["human", "heuristic"], max_turns=4, cover_ms=1200,
                          seed=2)  # fmt: skip
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{running.base}/play/{table['table']}?token={table['tokens'][0]}")
    page.evaluate(RECORD)
    page.wait_for_selector("#board svg", timeout=15000)
    assert page.locator("#leave").is_visible()  # during the game: leaving is a concession, and it says so
    clicks = _play(page)
    said = page.evaluate("window.said")
    assert any(line.startswith(ANSWERED) for line in said), said  # the table's passes for the seat, in words
    assert said.count(SENT) <= clicks, (clicks, said)  # "sent…" only for an answer a click sent
    page.wait_for_selector("#over h2", timeout=15000)
    assert page.locator("#leave").is_hidden()  # after the game over: nothing to concede
    assert page.locator("#over a", has_text="Watch the replay").is_visible()
    game = read_log(running.wait_over(table["table"])["log"])
    passed = [d for d in game.decisions if d.player == 0 and d.automatic and d.point == "priority"]
    assert passed, "the table passed for the seat in no reaction window"
    page.close()
