"""Copies of a card at the table in a real browser (Debian's chromium, Playwright), ruling R-CORE-10: two
Kikimoras in hand made the page offer ``Commit Kikimora at Site 1`` twice. The page offers one choice, a click on
either copy on the board picks it, and the table records the first of the copies (the same log every time)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.queries.pictures.browser import ARTIFACTS, CHROMIUM
from tests.serverkit import Running, server

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium (.ci/run installs it)")
SEED = 28  # this deal's first question: two Kikimoras in the person's hand, and other cards to commit


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    with server(tmp_path_factory.mktemp("alike")) as s:
        yield s


def test_two_copies_in_hand_are_one_button_and_either_copy_commits_the_first(running: Running, browser: Any) -> None:
    """[MOR-35] [MOR-15] One button per choice in the list of every answer; the second copy in hand is as
    clickable as the first, and committing it by clicks (the card, then Site 1) commits the first copy."""
    table = running.table("morana", ["clash", "glory"], ["human", "heuristic"], seed=SEED, cover_ms=40)
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(str(f))))
    page.goto(f"{running.base}/play/{table['table']}?token={table['tokens'][0]}")
    page.wait_for_selector("body[data-asked='1']", timeout=20000)
    listed = [t.strip() for t in page.locator("#options button").all_text_contents()]
    assert listed.count("Commit Kikimora at Site 1") == 1, listed
    assert len(listed) == len(set(listed)), listed
    decide = next(m for f in frames for line in f.splitlines() if line
                  for m in [json.loads(line)] if m["type"] == "decide")  # fmt: skip
    copies = [o for o in decide["options"] if o["text"] == "Commit Kikimora at Site 1"]
    assert len(copies) == 2 and copies[1]["same_as"] == copies[0]["index"]  # the protocol still lists both
    first, second = copies[0]["card"], copies[1]["card"]
    assert page.locator(f"#board [data-card='{second}'][data-pick]").count() == 1  # either copy is clickable
    page.locator(f"#board [data-card='{second}']").dispatch_event("click")
    page.locator("#board [data-site='1'][data-pick]").dispatch_event("click")
    # the answer sent: the question gone (the line says "sent…", or that the table answers a lone one for them next)
    page.wait_for_function("document.body.dataset.asked !== '1' || !document.querySelector('#options button')",
                           timeout=5000)  # fmt: skip
    assert page.locator("#chooser:not([hidden]) button").count() == 0  # no chooser between look-alikes
    page.wait_for_selector("#log li:has-text('commits Kikimora face-down at Site 1')", timeout=10000)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "board-morana-copies.png"), full_page=True)
    committed = [m["event"]["card"] for f in frames for line in f.splitlines() if line
                 for m in [json.loads(line)] if m["type"] == "event" and m["event"]["kind"] == "Committed"
                 and m["event"]["player"] == 0]  # fmt: skip
    assert committed[:1] == [first], (committed, first, second)
    page.close()
