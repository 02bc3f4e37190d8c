"""The replay page's Turns list tells no turn before it is reached (headless Chromium): watched from the start it
names every turn, each a place to jump to, but a turn's line in words (who played what, the damage, the Slava, the
game's end) shows only once the position shown has passed the turn's last event. It listed every turn's line at
once: the end of the game, read before the first event, a spoiler for a commentator or a player rewatching."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from annals.queries.pictures.viewer import viewer_data, write_viewer
from annals.schemas.logfile import GameLog
from tests.queries.pictures.browser import Page
from tests.queries.pictures.test_viewer_browser import opened

POSITION = "() => window.annalsViewer.position()"


def _head(turn: int) -> str:
    return f"Turn {turn}" if turn else "Setup"


def _told(p: Any) -> list[str]:
    return list(p.locator("#turns li").all_inner_texts())


@pytest.mark.parametrize("ruleset", ["miras9", "morana"])
def test_the_turns_list_tells_a_turn_only_once_the_position_has_passed_it_M9_011_MOR_07(
    games: dict[str, list[GameLog]], page: Page, tmp_path: Path, ruleset: str
) -> None:
    """[M9-011] [MOR-07]: the page shows what the view has seen so far, and no more, the turn list included."""
    log = games[ruleset][1]
    data = viewer_data(log, "spectator")
    lines = [line for _, _, line in data.turns]
    heads = [_head(turn) for turn, _, _ in data.turns]
    assert len(lines) >= 4 and all(line.startswith(head + " — ") for line, head in zip(lines, heads, strict=True))
    path = tmp_path / "game.html"
    write_viewer(log, path, "spectator")
    p = opened(page, path)
    assert p.evaluate(POSITION) == 0
    first = _told(p)
    assert first[1:] == heads[1:], first  # every turn listed, nothing of what it holds
    assert first[0] in (heads[0], heads[0] + " — under way")

    # after the last event of turn k, turns up to k are told word for word, the rest named only
    k = 2
    end_of_k = data.turns[k + 1][1] - 1
    p.evaluate(f"() => window.annalsViewer.go({end_of_k})")
    assert _told(p) == lines[: k + 1] + heads[k + 1 :], _told(p)
    p.keyboard.press("ArrowRight")  # turn k+1 begins: under way, not told
    assert _told(p)[k + 1] == heads[k + 1] + " — under way"
    assert _told(p)[k + 2 :] == heads[k + 2 :]

    # jumping ahead to a turn not reached is still one click; back at the start, nothing stays told
    p.locator("#turns li").last.click()
    assert p.evaluate(POSITION) == data.turns[-1][1]
    assert _told(p)[:-1] == lines[:-1] and _told(p)[-1] == heads[-1] + " — under way"
    p.keyboard.press("End")
    assert _told(p) == lines  # the last turn, and the game's end, once the end is reached
    p.keyboard.press("Home")
    assert _told(p)[1:] == heads[1:]


def _result(p: Any) -> tuple[bool, str, bool]:
    """The header's result (shown, its text) and whether the "show the result" button is offered."""
    box, ask = p.locator("#result"), p.locator("#show-result")
    return box.is_visible(), box.inner_text() if box.is_visible() else "", ask.is_visible()


@pytest.mark.parametrize("ruleset", ["miras9", "morana"])
def test_the_header_tells_the_result_at_the_games_end_or_when_asked_M9_011_MOR_07(
    games: dict[str, list[GameLog]], page: Page, tmp_path: Path, ruleset: str
) -> None:
    """[M9-011] [MOR-07]: the header said the game's result from the first event. It is told once the position shown
    reaches the end (End, or a jump there), or when the person clicks "show the result"; the page holds it."""
    log = games[ruleset][1]
    data = viewer_data(log, "spectator")
    result = data.game["result"]
    assert result, "a finished game has a result to hide"
    path = tmp_path / "game.html"
    write_viewer(log, path, "spectator")
    p = opened(page, path)
    n = p.evaluate("() => window.annalsViewer.N")
    assert _result(p) == (False, "", True)  # the start: only the offer
    assert result not in p.locator("header").inner_text()
    p.evaluate(f"() => window.annalsViewer.go({n - 1})")  # one event before the end: still not told
    assert _result(p) == (False, "", True)
    p.keyboard.press("End")
    assert _result(p) == (True, result, False)
    p.keyboard.press("Home")  # back at the start, the result is not shown again
    assert _result(p) == (False, "", True)

    p.locator("#turns li").last.click()  # jumping to the last turn is not the end
    assert _result(p)[0] is False
    p.locator("#show-result").click()  # asked: told at once, and it holds wherever the position goes
    assert _result(p) == (True, result, False)
    p.keyboard.press("Home")
    assert _result(p) == (True, result, False)

    again = tmp_path / "again.html"  # a fresh page opened at the end (a link to #end): told
    again.write_bytes(path.read_bytes())
    p = opened(page, again, "end")
    assert p.evaluate(POSITION) == n and _result(p) == (True, result, False)
