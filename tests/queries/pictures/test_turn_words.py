"""The replay viewer's turn summaries say places as words, as the rules name them ([M9-025]: each side's
Exterior, Interior and Space lane; a Site and its lane are one board column): ``attacked Bo's Interior``, not the
board's capitals (``INTERIOR Site``)."""

from __future__ import annotations

import re

from annals.engine.words import Words
from annals.queries.pictures.turns import turn_summaries
from annals.queries.pictures.viewer import _namer
from annals.queries.positions.viewstate import ViewState
from annals.schemas.logfile import GameLog

CAPITALS = re.compile(r"\b(EXTERIOR|INTERIOR|SPACE)\b")


def test_an_attack_is_said_at_the_side_and_lane_it_names(games: dict[str, list[GameLog]]) -> None:
    """Each wave declared [M9-074] appears in its turn's line as ``attacked <defender>'s <Lane>``."""
    waves = 0
    for log in games["miras9"]:
        seen = ViewState(log.header, None)
        players = [p.name for p in log.header.players]
        shown = [seen.apply(e) for e in log.events]
        lines = {
            turn: line
            for turn, _, line in turn_summaries("miras9", shown, Words("miras9", _namer("miras9", seen.state), players))
        }
        for e in shown:
            if type(e).__name__ != "WaveDeclared":
                continue
            kind, side, lane = e.site.split(":")
            said = f"attacked {players[int(side)]}'s {lane.capitalize()}"
            assert kind == "site" and said in lines[e.turn], (e, lines[e.turn])
            waves += 1
    assert waves > 5


def test_no_turn_line_says_a_place_in_capitals(games: dict[str, list[GameLog]]) -> None:
    for ruleset, logs in games.items():
        for log in logs:
            seen = ViewState(log.header, None)
            shown = [seen.apply(e) for e in log.events]
            words = Words(ruleset, _namer(ruleset, seen.state), [p.name for p in log.header.players])
            for _, _, line in turn_summaries(ruleset, shown, words):
                assert not CAPITALS.search(line), line
