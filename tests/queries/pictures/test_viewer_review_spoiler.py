"""The review's winning-chance graph keeps the result back as the viewer's header does: until the position shown
reaches the end, or the person clicks "show the result", the graph is drawn up to the position shown and no further
(its last point, 100% or 0% at the end, said who won, [MOR-05]'s winner); the marks of decisions ahead stay, so M
still jumps to them, but on the middle line and in words without a chance."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from annals.queries.pictures.viewer import write_viewer
from annals.schemas.logfile import GameLog
from annals.schemas.review import read_review, review_path
from tests.queries.pictures.browser import Page
from tests.queries.pictures.test_viewer_browser import opened

MARKED = ("inaccuracy", "mistake", "blunder")


def drawn(p: Any) -> list[tuple[float, float]]:
    """The graph line's points, in the graph's units (x: the position, y: 6..94 for a chance of 100%..0%)."""
    d = p.get_attribute("#graph-svg path.line", "d") or ""
    return [(float(x), float(y)) for x, y in re.findall(r"[ML](-?[\d.]+) (-?[\d.]+)", d)]


def tops(p: Any) -> list[str]:
    return p.locator("#graph-marks button").evaluate_all("bs => bs.map(b => b.style.top)")  # type: ignore[no-any-return]


def test_the_graph_is_drawn_up_to_the_position_shown_until_the_result_is_shown_MOR_05(
    reviewed: tuple[Path, GameLog], page: Page, tmp_path: Path
) -> None:
    path, log = reviewed
    n = len(log.events)
    review = read_review(review_path(path))
    marked = sorted({r.at for r in review.decisions if r.verdict in MARKED})
    assert len(marked) >= 2 and n > marked[-1]
    html = tmp_path / "game.html"
    write_viewer(log, html, "omniscient", review=review)
    p = opened(page, html)
    assert not p.is_visible("#result") and p.is_visible("#show-result")
    # at the start: no reviewed decision reached, nothing drawn; every mark on the middle line, without a chance
    assert drawn(p) == []
    assert set(tops(p)) == {"50%"}
    labels = p.locator("#graph-marks button").evaluate_all("bs => bs.map(b => b.getAttribute('aria-label'))")
    assert all("%" not in label and "ahead" in label for label in labels), labels
    assert "% at the end" not in (p.get_attribute("#graph-svg", "aria-label") or "")
    page.shot("viewer-review-graph-start.png")
    # M goes to a marked decision ahead as before; the line then ends there, level, nothing of later decisions
    p.keyboard.press("m")
    at = p.evaluate("() => window.annalsViewer.position()")
    assert at == marked[0]
    points = drawn(p)
    assert points and max(x for x, _ in points) == at and points[-1][0] == at, points
    here = p.locator(f'#graph-marks button[data-at="{at}"]').first
    assert "%" in (here.get_attribute("aria-label") or "")  # reached: its words in full
    ahead = p.locator(f'#graph-marks button[data-at="{marked[-1]}"]').first
    assert ahead.evaluate("b => b.style.top") == "50%"
    # a step back before the end and the graph still stops at the position shown
    p.evaluate(f"() => window.annalsViewer.go({n - 1})")
    assert max(x for x, _ in drawn(p)) == n - 1 and not p.is_visible("#result")
    page.shot("viewer-review-graph-middle.png")
    # "show the result": the whole graph, to the result at the end (the first player's 100% or 0%, 50% a draw)
    p.evaluate(f"() => window.annalsViewer.go({marked[0]})")
    p.click("#show-result")
    points = drawn(p)
    end = p.evaluate("() => JSON.parse(document.getElementById('annals-data').textContent).review.end")
    assert end in (0, 0.5, 1) and points[-1] == (n, 6 + 88 * (1 - end)), points[-3:]
    chances = [r.chance_before if r.seat == 0 else 1 - r.chance_before for r in sorted(
        (r for r in review.decisions if r.verdict in MARKED), key=lambda r: (r.at, r.decision))]  # fmt: skip
    heights = [float(top.rstrip("%")) for top in tops(p)]  # each mark back at its chance, the first player's
    assert heights == [pytest.approx(6 + 88 * (1 - c), abs=0.01) for c in chances], heights
    assert "% at the end" in (p.get_attribute("#graph-svg", "aria-label") or "")
    page.shot("viewer-review-graph-told.png")


def test_reaching_the_end_draws_the_whole_graph(reviewed: tuple[Path, GameLog], page: Page, tmp_path: Path) -> None:
    path, log = reviewed
    review = read_review(review_path(path))
    html = tmp_path / "game.html"
    write_viewer(log, html, "omniscient", review=review)
    p = opened(page, html)
    p.keyboard.press("End")
    assert p.is_visible("#result")
    assert drawn(p)[-1][0] == len(log.events)
    p.keyboard.press("Home")  # back to the start: the result is held back again, as the header holds it
    assert not p.is_visible("#result") and drawn(p) == []
