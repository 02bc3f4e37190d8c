"""The page's incremental moves in headless Chromium: a move keeps, patches or adds the board's elements and marks
one row of the event list (whose far blocks the browser skips), so after any sequence of jumps and steps the board
in the page must be exactly the board drawn fresh at that position, and the current event's row marked and in
sight. Fresh means the Python renderer's SVG for the view's fold, parsed by the same browser."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from annals.queries.pictures.svgboard import render_svg
from annals.queries.pictures.viewer import write_viewer
from annals.queries.positions.viewstate import ViewState
from annals.schemas.logfile import GameLog
from tests.queries.pictures.browser import Page
from tests.queries.pictures.test_viewer_browser import opened

# Each move in turn (a jump by script, or the step buttons for "next"/"prev"), then the board as the page shows it
# and as the browser parses the fresh SVG: the root's attributes and each element child's markup (whitespace text
# between elements is not drawn and not compared; nor is the tabindex the page gives each card, for the keyboard).
MOVES = """([moves, fresh]) => {
  // fresh: the SVG text per move, or null to take the file's own text for that position (V.boardText)
  const V = window.annalsViewer, board = document.getElementById('board');
  const shape = (svg) => [[...svg.attributes].map(a => a.name + '=' + a.value).sort().join(' '),
                          ...[...svg.children].map(c => c.outerHTML.replaceAll(' tabindex="0"', ''))];
  const scratch = document.createElement('div'), out = [];
  moves.forEach((m, k) => {
    if (m === 'next' || m === 'prev') document.getElementById(m).click(); else V.go(m);
    scratch.innerHTML = fresh ? fresh[k] : V.boardText(V.position());
    const same = JSON.stringify(shape(board.firstElementChild)) === JSON.stringify(shape(scratch.firstElementChild));
    out.push([V.position(), same,
              document.querySelectorAll('#events li.now').length,
              (document.querySelector('#events li.now') || {dataset: {n: null}}).dataset.n]);
  });
  return out;
}"""
# After the frame that follows a move: is the current event's row inside the list's visible box?
ROW_IN_SIGHT = """async () => {
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const row = document.querySelector('#events li.now'), side = document.getElementById('side');
  if (!row) return null;
  const a = row.getBoundingClientRect(), b = side.getBoundingClientRect();
  return a.height > 0 && a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
}"""


def fresh_boards(log: GameLog, view: int) -> list[str]:
    """The renderer's SVG at every position of ``log`` for ``view``, from the view's own fold."""
    seen = ViewState(log.header, view)
    players = [p.name for p in log.header.players]
    out = [render_svg(log.header.ruleset, seen.state, view, players=players)]
    for event in log.events:
        seen.apply(event)
        out.append(render_svg(log.header.ruleset, seen.state, view, players=players))
    return out


@pytest.fixture(scope="module")
def pages(games: dict[str, list[GameLog]], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Per ruleset: the player0 file of a game, its fresh boards and its number of events."""
    root = tmp_path_factory.mktemp("moves")
    out: dict[str, Any] = {}
    for ruleset, logs in games.items():
        path = root / f"{ruleset}.html"
        write_viewer(logs[0], path, "player0")
        out[ruleset] = (path, fresh_boards(logs[0], 0), len(logs[0].events))
    return out


def check(p: Any, moves: list[int | str], fresh: list[str] | None, n: int, start: int) -> None:
    where = start
    expected = []
    for m in moves:
        where = min(n, where + 1) if m == "next" else max(0, where - 1) if m == "prev" else int(m)
        expected.append(where)
    shown = p.evaluate(MOVES, [moves, [fresh[c] for c in expected] if fresh is not None else None])
    for (position, same, marked, row), want in zip(shown, expected, strict=True):
        assert position == want
        assert same, f"the board after {moves} differs from the board drawn fresh at position {want}"
        assert (marked, row) == ((1, str(want - 1)) if want > 0 else (0, None))


@pytest.mark.parametrize("ruleset", ["miras9", "morana"])
def test_the_board_after_random_jumps_is_the_board_drawn_fresh(
    pages: dict[str, Any], page: Page, tmp_path: Path, ruleset: str
) -> None:
    path, fresh, n = pages[ruleset]
    p = opened(page, path)

    @settings(max_examples=12, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.lists(st.one_of(st.integers(0, n), st.sampled_from(["next", "prev"])), min_size=1, max_size=30))
    def moves_match(moves: list[int | str]) -> None:
        check(p, moves, fresh, n, p.evaluate("() => window.annalsViewer.position()"))

    moves_match()
    # the whole game forwards in single steps, 80 steps back, then from each end to the other, against the
    # file's own board text at each position (which test_viewer_file checks is the renderer's at every position)
    p.evaluate("() => window.annalsViewer.go(0)")
    check(p, ["next"] * n + ["prev"] * 80 + [n, 0, n], None, n, 0)


@pytest.mark.parametrize("ruleset", ["miras9", "morana"])
def test_after_a_jump_the_current_event_is_marked_and_in_sight(pages: dict[str, Any], page: Page, ruleset: str) -> None:
    """The list's far blocks are skipped by the browser until needed: a jump anywhere still brings its row into the
    list's visible box in the next frame, and a click on a row goes to that event."""
    path, _, n = pages[ruleset]
    p = opened(page, path)
    for target in [n, 1, n // 2, n - 3, 7, n // 3, n]:
        p.evaluate("c => window.annalsViewer.go(c)", target)
        assert p.evaluate(ROW_IN_SIGHT) is True, target
        assert p.evaluate("() => document.querySelector('#events li.now').dataset.n") == str(target - 1)
    row = p.locator("#events li").nth(n // 4)
    row.scroll_into_view_if_needed()
    row.click()
    assert p.evaluate("() => window.annalsViewer.position()") == n // 4 + 1
