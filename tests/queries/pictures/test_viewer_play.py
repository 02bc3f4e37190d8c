"""The replay page as a commentator uses it, in headless Chromium: autoplay (the button, the speed, the keys) runs to
the end and stops there; the turn list has one line in words per turn and jumps to it; the legend explains the
marks the board and the timeline draw; a card's full text shows on hover and on keyboard focus."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from annals.queries.pictures.viewer import viewer_data, write_viewer
from annals.schemas.logfile import GameLog
from tests.queries.pictures.browser import Page
from tests.queries.pictures.test_viewer_browser import opened

POSITION = "() => window.annalsViewer.position()"


@pytest.mark.parametrize("ruleset", ["miras9", "morana"])
def test_autoplay_runs_to_the_end_and_stops(
    games: dict[str, list[GameLog]], page: Page, tmp_path: Path, ruleset: str
) -> None:
    log = games[ruleset][0]
    n = len(log.events)
    path = tmp_path / "game.html"
    write_viewer(log, path, "spectator")
    p = opened(page, path, f"event:{n - 40}")
    start = p.evaluate(POSITION)
    p.select_option("#speed", "60")
    p.click("#play")
    assert p.get_attribute("#play", "aria-pressed") == "true" and p.evaluate("() => window.annalsViewer.playing()")
    p.wait_for_function(f"() => window.annalsViewer.position() > {start + 5}", timeout=5000)
    p.wait_for_function(f"() => window.annalsViewer.position() === {n}", timeout=10000)
    p.wait_for_function("() => !window.annalsViewer.playing()", timeout=2000)  # it stops at the end
    assert p.get_attribute("#play", "aria-pressed") == "false" and "play" in p.inner_text("#play")
    p.wait_for_timeout(200)
    assert p.evaluate(POSITION) == n
    # the keys: Space plays from the start again (at the end), Space pauses; - and + change the speed
    p.locator("#board").click(position={"x": 5, "y": 5})
    p.keyboard.press("Space")
    p.wait_for_function("() => window.annalsViewer.position() > 0", timeout=5000)
    assert p.evaluate("() => window.annalsViewer.playing()")
    p.keyboard.press("Space")
    assert not p.evaluate("() => window.annalsViewer.playing()")
    paused = p.evaluate(POSITION)
    p.wait_for_timeout(200)
    assert p.evaluate(POSITION) == paused < n
    p.keyboard.press("-")
    assert p.input_value("#speed") == "25"
    p.keyboard.press("+")
    p.keyboard.press("+")
    assert p.input_value("#speed") == "turn"
    # a turn at a time
    p.select_option("#speed", "turn")
    turns = [i + 1 for i, e in enumerate(log.events) if type(e).__name__ == "TurnBegan"]
    p.click("#play")
    p.wait_for_function(f"() => window.annalsViewer.position() > {paused}", timeout=5000)
    p.click("#play")
    assert p.evaluate(POSITION) in [*turns, n]


@pytest.mark.parametrize("ruleset", ["miras9", "morana"])
def test_turn_list_legend_and_card_text(
    games: dict[str, list[GameLog]], page: Page, tmp_path: Path, ruleset: str
) -> None:
    log = games[ruleset][1]
    data = viewer_data(log, "omniscient")
    names = [p.name for p in log.header.players]
    path = tmp_path / "game.html"
    write_viewer(log, path, "omniscient")
    p = opened(page, path, "end")  # at the end every turn is told (test_viewer_no_spoilers: not before)
    # one line per turn (and the setup), each in words, naming the players
    rows = p.locator("#turns li")
    turns = [e.turn for e in log.events if type(e).__name__ == "TurnBegan"]
    assert rows.count() == len(data.turns) and [t for t, _, _ in data.turns if t] == turns
    lines = rows.all_inner_texts()
    assert all(re.match(r"(Setup|Turn \d+) — \S", line) for line in lines), lines[:3]
    assert any(name in line for line in lines for name in names)
    if ruleset == "miras9":
        assert any(" played " in line for line in lines) and any("Battle Damage to" in line for line in lines)
    else:
        assert any("revealed" in line for line in lines) and any("Slava:" in line for line in lines)
    # a click jumps to the turn and marks it (under way: its line is told once it is over); Enter on a focused line
    k = min(4, len(data.turns) - 1)
    rows.nth(k).click()
    assert p.evaluate(POSITION) == data.turns[k][1]
    assert p.locator("#turns li.now").inner_text() == lines[k].split(" — ")[0] + " — under way"
    rows.nth(k + 1).focus()
    p.keyboard.press("Enter")
    assert p.evaluate(POSITION) == data.turns[k + 1][1]
    p.keyboard.press("ArrowRight")  # a step inside the turn keeps the turn marked
    assert p.locator("#turns li.now").inner_text().startswith(lines[k + 1].split(" — ")[0] + " — ")
    # the legend: every board mark and every timeline mark drawn in this game is explained
    legend = p.inner_text("#legend")
    assert "Legend" in legend and all(name in legend for name in names)
    explained = {s[5:] for s, _ in data.legend if s.startswith("mark:")}
    drawn = set(p.evaluate("() => [...document.querySelectorAll('#marks span')].map(s => s.className)"))
    assert drawn <= explained, drawn - explained
    assert p.locator("#legend-list li").count() == len(data.legend) >= 10
    # a card's text: on hover, then on keyboard focus
    card = p.locator("#board [data-card]").first
    name = card.get_attribute("data-name")
    assert data.cards.get(name)
    card.hover()
    assert p.is_visible("#card-tip")
    assert p.inner_text("#card-name") == name and p.inner_text("#card-text") == data.cards[name]
    page.shot(f"viewer-{ruleset}-hover.png")
    p.mouse.move(2, 2)
    assert not p.is_visible("#card-tip")
    other = p.locator("#board [data-card]").nth(1)
    other.focus()
    assert p.is_visible("#card-tip") and p.inner_text("#card-name") == other.get_attribute("data-name")
    p.keyboard.press("Escape")
    assert not p.is_visible("#card-tip")
    page.page.screenshot(path=str(tmp_path / f"viewer-{ruleset}-full.png"), full_page=True)


@pytest.mark.parametrize(
    ("view", "sealed"),
    [
        ("spectator", ""),  # a spectator has no face-down card of its own: every one is a back to it
        ("player0", "your own face-down (committed) card"),
        ("omniscient", "a face-down (committed) card, dashed until the flip (its owner's opponent and spectators"),
    ],
)
def test_the_legend_speaks_to_the_person_looking(
    games: dict[str, list[GameLog]], page: Page, tmp_path: Path, view: str, sealed: str
) -> None:
    """[MOR-07] The spectator's legend said "your own face-down card": the dashed face-down tile is explained to
    whoever is shown one (a player their own, the all-seeing view every one), and a spectator only the back."""
    log = games["morana"][1]
    path = tmp_path / "game.html"
    write_viewer(log, path, view)
    p = opened(page, path)
    legend = p.inner_text("#legend")
    assert "a card this view may not see (face-down, or in a hidden hand)" in legend
    assert "your own" not in legend if view == "spectator" else sealed in legend
    assert ("face-down (committed)" in legend) == bool(sealed)
    if view == "spectator":
        page.shot("viewer-morana-spectator-legend.png")
