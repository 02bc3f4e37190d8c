"""The printable pages, opened in Chromium at an A4 page's width: pairings by name for the wall, by table, the result
slips and the standings with the tiebreakers explained; people by name (never an id or a seat), nothing wider
than the page, and screenshots to look at (test-artifacts/pictures/event-*.png)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.decks import write_deck_list
from annals.engine.registry import get_ruleset
from annals.engine.tournament import event as lib
from annals.engine.tournament import rounds as loop
from annals.engine.tournament.store import EventStore
from annals.schemas.event import Outcome
from tests.queries.pictures.browser import Page

runner = CliRunner()
NAMES = ["Ada Lovelace", "Bo Chen", "Cy Young", "Di Prima", "Ed Norton", "Fay Wray", "Gus Grissom", "Hal Clement",
         "Ida B. Wells-Barnett", "Jo <March> & Co"]  # fmt: skip
A4 = {"width": 794, "height": 1123}  # CSS pixels of an A4 page at 96 dpi


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> EventStore:
    """Ten people (one name with markup in it), round 1 played with a draw and a double loss, round 2 paired."""
    folder = tmp_path_factory.mktemp("pages") / "club"
    lib.new_event(folder, "club-night", "morana", rounds=3, best_of=3, seed=9)
    store = EventStore.open(folder)
    deck = folder.parent / "deck.txt"
    deck.write_text(write_deck_list(get_ruleset("morana").decks()["glory"], "morana"))
    for k, name in enumerate(NAMES):
        lib.register(store, f"id{k:02d}", name, deck)
    loop.pair_next(store)
    draw, double = Outcome(0, 0, 0, "intentional_draw"), Outcome(0, 0, 0, "double_loss")
    results = [Outcome(2, 1, 0), draw, Outcome(1, 2, 0), double, Outcome(2, 0, 0)]
    for table, o in enumerate(results, start=1):
        loop.report(store, 1, table, o)
    loop.pair_next(store)
    return store


@pytest.mark.parametrize("which", ["wall", "tables", "slips", "standings"])
def test_each_page_prints_names_fits_the_page_and_is_looked_at(event: EventStore, which: str, page: Page,
                                                               tmp_path: Path) -> None:  # fmt: skip
    out = tmp_path / f"{which}.html"
    done = runner.invoke(app, ["event", "print", str(event.folder), which, "--output", str(out)])
    assert done.exit_code == 0, done.output
    page.page.set_viewport_size(A4)
    page.page.goto(out.as_uri())
    page.shot(f"event-{which}.png")
    text = page.page.inner_text("body")
    for name in NAMES:
        assert name in text, (which, name)  # escaped in the source, read as typed
    assert "<March>" not in out.read_text() and "&lt;March&gt;" in out.read_text()
    assert not any(f"id{k:02d}" in text for k in range(len(NAMES)))  # people by name, never by id
    assert "seat" not in text.casefold()
    width = page.page.evaluate("document.documentElement.scrollWidth")
    assert width <= A4["width"], (which, width)  # nothing wider than the page
    state = event.state()
    if which == "slips":
        tables = [p for p in state.rounds[-1].round.pairings if p.b]
        assert page.page.locator(".slip").count() == len(tables)
    if which == "standings":
        assert "OMW%" in text and "at least 33%" in text and "A bye is no opponent" in text
    if which == "tables":
        assert page.page.locator("tbody tr").count() == len(state.rounds[-1].round.pairings)


def test_pages_of_round_1_show_its_results_by_table(event: EventStore, tmp_path: Path) -> None:
    out = tmp_path / "r1.html"
    done = runner.invoke(app, ["event", "print", str(event.folder), "tables", "--round", "1", "-o", str(out)])
    assert done.exit_code == 0, done.output
    html = out.read_text()
    assert "intentional draw" in html and "double loss" in html and "2-1" in html
    bad = runner.invoke(app, ["event", "print", str(event.folder), "poster", "-o", str(out)])
    assert bad.exit_code == 2 and "choose one of: wall, tables, slips, standings" in bad.stderr
