"""The replay page in headless Chromium, opened from disk: it steps through every event (buttons and keys), its
board shows the cards of the position at sampled events, a coordinate in the address opens that moment, the
timeline scrubs, jumps go and come back, notes show at their moment; no console errors (see ``browser.page``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from annals.queries.pictures.annotations import Note
from annals.queries.pictures.svgboard import render_svg
from annals.queries.pictures.viewer import write_viewer
from annals.queries.positions.timeline import Timeline
from annals.queries.positions.viewstate import ViewState
from annals.schemas.logfile import GameLog
from tests.queries.pictures.boards import drawn
from tests.queries.pictures.browser import Page
from tests.queries.pictures.test_svgboard import CHECKS, VIEWERS

SAMPLE_EVERY = 23
BOARD = "() => document.getElementById('board').innerHTML"
# Every event in the page, alternating the step button and the right-arrow key; the board at sampled positions.
STEP_ALL = """every => {
  const V = window.annalsViewer, out = [];
  for (let i = 1; i <= V.N; i++) {
    if (i % 2) document.getElementById('next').click();
    else document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
    if (V.position() !== i) throw new Error(`after ${i} steps the page is at ${V.position()}`);
    if (i % every === 0 || i === V.N)
      out.push([i, document.getElementById('board').innerHTML, document.querySelector('#events li.now').dataset.n]);
  }
  return out;
}"""


def opened(page: Page, path: Path, coordinate: str = "") -> Any:
    page.page.goto(path.as_uri() + (f"#{coordinate}" if coordinate else ""))
    page.page.wait_for_function("() => window.annalsViewer !== undefined")
    return page.page


@pytest.mark.parametrize("ruleset", ["miras9", "morana"])
@pytest.mark.parametrize("view", ["omniscient", "player0"])
def test_stepping_through_every_event_shows_the_positions_cards(
    games: dict[str, list[GameLog]], page: Page, tmp_path: Path, ruleset: str, view: str
) -> None:
    """[M9-011], [MOR-07]: at sampled events the page's board draws the cards the view may see, where the fold puts
    them, and the same elements as the Python renderer; every event is visited by the step button or the key."""
    log = games[ruleset][0]
    path = tmp_path / "game.html"
    write_viewer(log, path, view)
    p = opened(page, path)
    n = len(log.events)
    assert p.evaluate("() => [window.annalsViewer.N, window.annalsViewer.position()]") == [n, 0]
    for _ in range(3):  # real key presses, then the page's own loop over every event
        p.keyboard.press("ArrowRight")
    p.keyboard.press("ArrowLeft")
    assert p.evaluate("() => window.annalsViewer.position()") == 2
    p.keyboard.press("Home")
    steps = p.evaluate(STEP_ALL, SAMPLE_EVERY)
    assert [c for c, _, _ in steps] == [c for c in range(1, n + 1) if c % SAMPLE_EVERY == 0 or c == n]
    viewer = VIEWERS[view]
    truth, seen = ViewState(log.header, None), ViewState(log.header, viewer)
    embers: dict[int, int] = {}
    samples = iter(steps)
    count, board, current = next(samples)
    for i, event in enumerate(log.events, start=1):
        truth.apply(event)
        shown = seen.apply(event)
        if getattr(shown, "counter", "") == "embers":
            embers[shown.holder] = shown.value
        if type(shown).__name__ == "Flipped" and shown.embers:  # the Embers paid behind the screen [MOR-16]
            embers.update(enumerate(shown.embers))
        if i == count:
            in_page = drawn(board)
            CHECKS[ruleset](in_page, truth.state, viewer, embers)
            assert in_page == drawn(render_svg(ruleset, seen.state, viewer))
            assert current == str(count - 1)  # the event list marks the event just applied
            count, board, current = next(samples, (0, "", ""))
    page.shot(f"viewer-{ruleset}-{view}-end.png")
    p.keyboard.press("ArrowRight")  # past the end: stays there
    assert p.evaluate("() => window.annalsViewer.position()") == n


@pytest.mark.parametrize("ruleset", ["miras9", "morana"])
def test_a_coordinate_in_the_address_opens_that_moment(
    games: dict[str, list[GameLog]], page: Page, tmp_path: Path, ruleset: str
) -> None:
    """The page resolves coordinates as ``annals position`` does (queries.positions.timeline), from the address, the
    field and in script; a bad one is named and moves nothing."""
    log = games[ruleset][1]
    timeline = Timeline(log)
    path = tmp_path / "game.html"
    write_viewer(log, path, "omniscient")
    damage_turn = next((e.turn for e in log.events if type(e).__name__ == "BattleDamagePaid"), 0)
    coords = {
        "miras9": ["turn:5/attack", "wave:2", "wavestep:3", "stack:1", "resolve:1", "damage:1"],
        "morana": ["turn:3/dusk", "commit:2", "flip:1", "site:4", "rite:2", "turn:4/site:2", "step:rite"],
    }[ruleset] + ["start", "end", "event:17", "turn:2", "CardPlayed:1" if ruleset == "miras9" else "Drew:9"]
    if ruleset == "miras9":
        coords.append(f"turn:{damage_turn}/damage:1")
    p = opened(page, path, coords[0])
    assert p.evaluate("() => window.annalsViewer.position()") == timeline.resolve(coords[0])
    assert p.evaluate("() => location.hash") == f"#{coords[0]}"
    page.shot(f"viewer-{ruleset}-at-{coords[0].replace('/', '-').replace(':', '')}.png")
    for c in coords:
        assert p.evaluate("c => window.annalsViewer.resolve(c)", c) == timeline.resolve(c), c
    p.fill("#coord", coords[1])
    p.press("#coord", "Enter")
    assert p.evaluate("() => window.annalsViewer.position()") == timeline.resolve(coords[1])
    # the address follows in the next frame (once per frame however many moves came before it)
    p.wait_for_function("h => location.hash === h", arg=f"#{coords[1]}", timeout=5000)
    p.click("#next")
    p.wait_for_function("h => location.hash === h", arg=f"#event:{timeline.resolve(coords[1])}", timeout=5000)
    p.press("#coord", "Enter")
    p.wait_for_function("h => location.hash === h", arg=f"#{coords[1]}", timeout=5000)
    before = p.evaluate("() => window.annalsViewer.position()")
    p.fill("#coord", "turn:999")
    p.press("#coord", "Enter")
    assert "turn 999 does not occur" in p.inner_text("#coord-error")
    assert p.evaluate("() => window.annalsViewer.position()") == before
    p.evaluate("() => { location.hash = '#event:3'; }")
    p.wait_for_function("() => window.annalsViewer.position() === 4")


def test_timeline_scrubbing_jumps_and_back(games: dict[str, list[GameLog]], page: Page, tmp_path: Path) -> None:
    """Click and drag on the timeline, next/previous turn and key moment, and back to where I was."""
    log = games["miras9"][0]
    n = len(log.events)
    turns = [i + 1 for i, e in enumerate(log.events) if type(e).__name__ == "TurnBegan"]
    path = tmp_path / "game.html"
    write_viewer(log, path, "spectator")
    p = opened(page, path, "event:9")
    box = p.locator("#timeline").bounding_box()
    y = box["y"] + box["height"] / 2
    p.mouse.move(box["x"] + box["width"] * 0.25, y)
    p.mouse.down()
    p.mouse.move(box["x"] + box["width"] * 0.5, y, steps=5)
    mid = p.evaluate("() => window.annalsViewer.position()")
    p.mouse.move(box["x"] + box["width"] * 0.75, y, steps=5)
    p.mouse.up()
    last = p.evaluate("() => window.annalsViewer.position()")
    assert abs(mid - n * 0.5) <= n * 0.02 and abs(last - n * 0.75) <= n * 0.02 and mid < last
    p.click("#back")  # the drag was one jump: back to where it started
    assert p.evaluate("() => window.annalsViewer.position()") == 10
    p.keyboard.press("ArrowDown")  # next turn
    assert p.evaluate("() => window.annalsViewer.position()") == next(t for t in turns if t > 10)
    p.click("#next-turn")
    after = [t for t in turns if t > 10]
    assert p.evaluate("() => window.annalsViewer.position()") == after[1]
    p.click("#prev-turn")
    assert p.evaluate("() => window.annalsViewer.position()") == after[0]
    p.keyboard.press("Shift+ArrowRight")  # next key moment: a mark after this turn's start
    key = p.evaluate("() => window.annalsViewer.position()")
    assert key > after[0]
    p.keyboard.press("b")
    p.keyboard.press("b")
    assert p.evaluate("() => window.annalsViewer.position()") == after[1]
    p.click("#jumps button[title='next Battle Damage']")
    damage = [i + 1 for i, e in enumerate(log.events) if type(e).__name__ == "BattleDamagePaid"]
    first_damage = next(c for c in damage if c > after[1])
    assert p.evaluate("() => window.annalsViewer.position()") == first_damage
    marks = p.evaluate("() => [...document.querySelectorAll('#marks span')].map(s => s.className)")
    assert {"turn", "wave", "damage", "end"} <= set(marks)
    page.shot("viewer-miras9-timeline.png")


def test_notes_show_at_their_moment_and_only_in_their_views(
    games: dict[str, list[GameLog]], page: Page, tmp_path: Path
) -> None:
    log = games["morana"][0]
    timeline = Timeline(log)
    notes = [Note("turn:2/dusk", "Both flip into Site 1.", "judge"), Note("rite:1", "Judges only", "", ["omniscient"])]
    path = tmp_path / "notes.html"
    write_viewer(log, path, "player1", notes)
    text = path.read_text()
    assert "Both flip into Site 1." in text and "Judges only" not in text
    p = opened(page, path, "turn:2/dusk")
    assert p.evaluate("() => window.annalsViewer.position()") == timeline.resolve("turn:2/dusk")
    assert "Both flip into Site 1." in p.inner_text("#note-box") and p.is_visible("#note-box")
    assert p.locator("#marks span.note").count() == 1
    page.shot("viewer-morana-note.png")
    p.keyboard.press("ArrowRight")
    assert not p.is_visible("#note-box")
    marks = p.evaluate("() => [...document.querySelectorAll('#marks span')].map(s => s.className)")
    assert {"turn", "dusk", "rite", "end"} <= set(marks)
