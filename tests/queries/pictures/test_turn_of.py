"""A board says "Turn N of M" only where M is the rules' own length: MORANA's 8 turns [MOR-05] tell nothing of the
game shown, but a Miras 9 game ends when a player loses ([M9-023], [M9-024]) at no fixed turn, so its board says
"Turn N" alone: "of" its own last turn would tell a commentator or a player rewatching how long the game goes on.
Every turn's last board, the end's among them, as the SVG board draws it (the viewer's, the player's page's)."""

from __future__ import annotations

import re

import pytest

from annals.engine.morana.state import LAST_TURN
from annals.queries.pictures.svgboard import render_svg
from annals.queries.positions.timeline import Timeline
from annals.schemas.logfile import GameLog

TURN_SAID = re.compile(r"\bTurn (\d+)( of (\d+))?", re.IGNORECASE)


def _boards(log: GameLog) -> list[tuple[int, str]]:
    """(the turn, the SVG board's text) at each turn's last event and at the end."""
    t = Timeline(log)
    states = [t.state_after(c) for c in range(len(log.events) + 1)]
    last = [s for s, after in zip(states, [*states[1:], None], strict=True) if after is None or after.turn != s.turn]
    return [(s.turn, render_svg(log.header.ruleset, s, None)) for s in last]


@pytest.mark.parametrize("ruleset", ["miras9", "morana"])
def test_a_board_says_the_rules_length_of_a_game_and_never_its_own_M9_023_M9_024_MOR_05(
    games: dict[str, list[GameLog]], ruleset: str
) -> None:
    seen = 0
    for log in games[ruleset]:
        boards = _boards(log)
        last = boards[-1][0]
        for turn, svg in boards:
            if not turn:
                continue
            said = TURN_SAID.findall(svg)
            assert said, svg[:2000]
            assert {int(number) for number, _, _ in said} == {turn}, said
            lengths = {of for _, _, of in said if of}
            assert lengths == (set() if ruleset == "miras9" else {str(LAST_TURN)}), (ruleset, turn, last, said)
            seen += 1
    assert seen >= 2 * len(games[ruleset])
