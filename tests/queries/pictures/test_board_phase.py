"""The Miras 9 board's Turn panel says the phase and step of the position it draws: at the event that begins a
turn, Awaken [M9-031] (the engine's own ``phase`` field still holds the last turn's until Awaken begins), and at
every other position the phase its step belongs to."""

from __future__ import annotations

import html
import re

from annals.queries.pictures.svgboard import board_lines
from annals.queries.pictures.svgkit import said
from annals.queries.positions.viewstate import ViewState
from annals.schemas.logfile import GameLog

TEXT = re.compile(r">([^<>]+)<")


def phase_line(lines: list[str]) -> str:
    return next(t for line in lines for t in map(html.unescape, TEXT.findall(line)) if t.startswith("Phase "))


def test_the_panel_says_the_phase_of_the_position(games: dict[str, list[GameLog]]) -> None:
    begun = checked = 0
    for log in games["miras9"]:
        seen = ViewState(log.header, None)
        for i, event in enumerate(log.events):
            shown = seen.apply(event)
            if type(shown).__name__ == "TurnBegan":
                assert phase_line(board_lines("miras9", seen.state, None)) == "Phase awaken", shown
                begun += 1
            elif i % 25 == 0:  # a sample of the rest: the step's own phase
                phase, _, step = seen.state.step.partition(".")
                line = phase_line(board_lines("miras9", seen.state, None))
                assert line.startswith(f"Phase {said(phase)}") and (not step or line.endswith(said(step))), line
                checked += 1
    assert begun > 20 and checked > 20
