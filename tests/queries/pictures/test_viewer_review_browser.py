"""The decision review in the replay page, in headless Chromium: the winning-chance graph above the timeline with a
mark per inaccuracy, mistake and blunder; "next mistake" (the button, M) jumps to the marked decision and the page
says the choice made and the better choice in words; Shift+M goes back; a mark says its decision on hover and on
focus; at 1000 px the legend folds so the page fits, and unfolds on a click."""

from __future__ import annotations

from pathlib import Path

from annals.queries.pictures.viewer import write_viewer
from annals.schemas.logfile import GameLog
from annals.schemas.review import ReviewFile, read_review, review_path
from tests.queries.pictures.browser import Page
from tests.queries.pictures.test_viewer_browser import opened

MARKED = ("inaccuracy", "mistake", "blunder")
POSITION = "() => window.annalsViewer.position()"


def test_next_mistake_jumps_to_the_marked_decision_and_says_the_better_choice(
    reviewed: tuple[Path, GameLog], page: Page, tmp_path: Path
) -> None:
    path, log = reviewed
    review = read_review(review_path(path))
    marked = [r for r in review.decisions if r.verdict in MARKED]
    at = sorted({r.at for r in marked})
    assert len(at) >= 2
    html = tmp_path / "game.html"
    write_viewer(log, html, "omniscient", review=review)
    p = opened(page, html)
    # the graph above the timeline: drawn, as wide as the timeline, one mark per marked decision, each its class
    graph, timeline = p.locator("#graph").bounding_box(), p.locator("#timeline").bounding_box()
    assert graph is not None and timeline is not None
    assert graph["height"] >= 50 and graph["y"] + graph["height"] <= timeline["y"]
    assert abs(graph["x"] - timeline["x"]) < 2 and abs(graph["width"] - timeline["width"]) < 2
    assert p.locator("#graph-svg path.line").count() == 1  # drawn as the position moves (test_viewer_review_spoiler)
    marks = p.locator("#graph-marks button")
    assert marks.count() == len(marked)
    assert sorted(marks.evaluate_all("bs => bs.map(b => b.className)")) == sorted(r.verdict for r in marked)
    assert p.get_attribute("#next-mistake", "aria-keyshortcuts") == "M"
    page.shot("viewer-review-start.png")
    # "next mistake" by its key: the viewer stands at the first marked decision and says it in words
    p.keyboard.press("m")
    assert p.evaluate(POSITION) == at[0]
    assert p.locator("#graph-svg path.line").get_attribute("d")  # the graph up to the decision
    first = next(r for r in marked if r.at == at[0])
    said = p.inner_text("#review-box")
    assert first.made in said and f"better: {first.best}" in said and "points of winning chance lost" in said
    assert p.get_attribute("#review-box", "aria-live") == "polite"
    assert p.locator("#graph-marks button.now").count() >= 1
    assert p.get_attribute("#graph-marks button.now", "data-at") == str(at[0])
    page.shot("viewer-review-first-mistake.png")
    # the button goes on to the next; Shift+M comes back; B goes back to before the jumps
    p.click("#next-mistake")
    assert p.evaluate(POSITION) == at[1]
    second = next(r for r in marked if r.at == at[1])
    assert second.best in p.inner_text("#review-box")
    p.keyboard.press("Shift+M")
    assert p.evaluate(POSITION) == at[0]
    p.keyboard.press("ArrowRight")  # off the decision: the box no longer says it
    assert first.made not in p.inner_text("#review-box")
    # a mark says its decision on hover and on keyboard focus, and a click goes there
    last = marks.nth(marks.count() - 1)
    last.hover()
    assert p.is_visible("#review-tip")
    assert p.inner_text("#review-tip") == last.get_attribute("aria-label")
    page.shot("viewer-review-hover.png")
    p.mouse.move(2, 2)
    assert not p.is_visible("#review-tip")
    # a click on the graph away from the marks goes to that moment, as the timeline does
    p.mouse.click(graph["x"] + graph["width"] / 2, graph["y"] + 3)
    assert abs(p.evaluate(POSITION) - len(log.events) / 2) <= 2
    marks.nth(0).focus()
    assert p.is_visible("#review-tip")
    marks.nth(0).press("Enter")
    assert p.evaluate(POSITION) == int(marks.nth(0).get_attribute("data-at") or -1)


def test_a_players_page_marks_only_its_own_decisions_and_the_legend_fits_at_1000_px(
    reviewed: tuple[Path, GameLog], browser: object, tmp_path: Path
) -> None:
    path, log = reviewed
    review = read_review(review_path(path))
    html = tmp_path / "player1.html"
    write_viewer(log, html, "player1", review=review)
    context = browser.new_context(viewport={"width": 1000, "height": 800})  # type: ignore[attr-defined]
    page = Page(context.new_page())
    try:
        p = opened(page, html)
        mine = [r for r in review.decisions if r.seat == 1 and r.verdict in MARKED]
        assert p.locator("#graph-marks button").count() == len(mine)
        name = log.header.players[1].name
        assert p.inner_text("#review-said").startswith(f"{name}'s winning chance")
        # the legend folds to its title at this width: the page is no wider than the window, and the legend's
        # title is on the page without scrolling sideways; a click opens it, with the review's marks explained
        assert p.evaluate("() => document.getElementById('legend').open") is False
        assert p.evaluate("() => document.documentElement.scrollWidth") <= 1000
        p.keyboard.press("m")
        page.shot("viewer-review-1000px.png")
        p.click("#legend summary")
        legend = p.inner_text("#legend")
        assert "a blunder (??)" in legend and "a mistake (?)" in legend and "an inaccuracy (?!)" in legend
        assert p.evaluate("() => document.documentElement.scrollWidth") <= 1000
        p.locator("#legend").scroll_into_view_if_needed()
        page.shot("viewer-review-1000px-legend.png")
        assert not page.errors, page.errors
    finally:
        context.close()


def test_a_coach_with_a_review_of_the_second_player_only_sees_that_players_chance_and_mistakes(
    reviewed: tuple[Path, GameLog], page: Page, tmp_path: Path
) -> None:
    """`annals review LOG --seat 1 --save`, then the omniscient page: the sentence and the graph are the second
    player's (not the first player's read upside down from the second's view), M goes to that player's first
    marked decision and says the better choice."""
    path, log = reviewed
    review = read_review(review_path(path))
    only = ReviewFile(log.header.game_id, log.digest, "morana", review.iterations, review.thresholds, [1],
                      [r for r in review.decisions if r.seat == 1])  # fmt: skip
    marked = [r for r in only.decisions if r.verdict in MARKED]
    assert marked
    html = tmp_path / "coach.html"
    write_viewer(log, html, "omniscient", review=only)
    p = opened(page, html)
    name = log.header.players[1].name
    assert p.inner_text("#review-said").startswith(f"{name}'s winning chance")
    assert f"from {name}'s own view" in p.inner_text("#review-said")
    assert p.locator("#graph-marks button").count() == len(marked)
    p.keyboard.press("m")
    first = min(marked, key=lambda r: (r.at, r.decision))
    assert p.evaluate(POSITION) == first.at
    said = p.inner_text("#review-box")
    assert f"{name}'s {first.verdict}" in said and f"better: {first.best}" in said
    assert not page.errors, page.errors


def test_past_the_last_mistake_the_button_is_off_and_the_key_says_there_is_none(
    reviewed: tuple[Path, GameLog], page: Page, tmp_path: Path
) -> None:
    """M at the last marked decision did nothing and the button stayed on: a coach could not tell the end of the
    mistakes from a broken key. Now "mistake ▶" is off with no mark ahead ("◀ mistake" with none behind), and the
    key says there is none."""
    path, log = reviewed
    review = read_review(review_path(path))
    at = sorted({r.at for r in review.decisions if r.verdict in MARKED})
    html = tmp_path / "game.html"
    write_viewer(log, html, "omniscient", review=review)
    p = opened(page, html)
    assert p.is_disabled("#prev-mistake") and p.is_enabled("#next-mistake")  # at the start, nothing behind
    p.keyboard.press("Shift+M")
    assert p.evaluate(POSITION) == 0 and "No marked decision before this moment" in p.inner_text("#review-box")
    for _ in at:
        p.click("#next-mistake")
    assert p.evaluate(POSITION) == at[-1]
    assert p.is_disabled("#next-mistake") and p.is_enabled("#prev-mistake")
    p.keyboard.press("m")
    assert p.evaluate(POSITION) == at[-1]
    assert "No marked decision after this moment: Shift+M goes back" in p.inner_text("#review-box")
    p.keyboard.press("Shift+M")  # and back it goes, saying that decision again
    assert p.evaluate(POSITION) == at[-2] and "better:" in p.inner_text("#review-box")
    p.keyboard.press("Home")
    assert p.is_disabled("#prev-mistake") and p.is_enabled("#next-mistake")
    assert not page.errors, page.errors
