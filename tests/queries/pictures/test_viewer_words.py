"""[DESIGN 14] People read words: every text the replay viewer shows a person, over every game of both rulesets
and several views, holds no raw token: no Python value (True, False, None), no -1 sentinel, no snake_case field or
dotted step identifier, and no p0-style seat label where the log names the players. The texts are those the page
shows: the title, the result, each event's line and its step, the turn summaries, the timeline marks' labels, the
legend, the card texts, the decision review's sentence and lines, and the words drawn on the board at every
position."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import pytest

from annals.queries.pictures.viewer import ViewerData, viewer_data
from annals.schemas.logfile import GameLog

RAW = {
    "a Python value": re.compile(r"\b(True|False|None)\b"),
    "a -1 sentinel": re.compile(r"(?<![\w+-])-1\b(?! (ATK|GRIT|ECHO|Power|Embers|Slava|Echo)\b)"),
    "a snake_case name": re.compile(r"\b[a-z]+_[a-z0-9_]+\b"),
    "a dotted identifier": re.compile(r"\b[a-z]+\.[a-z]+\b"),
    "a seat label": re.compile(r"\bp[01]\b"),
}
BOARD_TEXT = re.compile(r">([^<>]+)<")
VIEWS = ("omniscient", "player0", "spectator")


def texts(d: ViewerData) -> Iterator[tuple[str, str]]:
    """(where, text) for every text the page shows a person."""
    g = d.game
    yield "players", " vs ".join(g["players"])
    if g["result"]:
        yield "result", g["result"]
    for i, step in enumerate(d.step_words):
        yield f"step {i}", step
    for i, e in enumerate(d.events):
        yield f"event {i}", e[4]
    for turn, _, line in d.turns:
        yield f"turn {turn}", line
    for pos, _, label in d.marks:
        yield f"mark at {pos}", label
    for _, meaning in d.legend:
        yield "legend", meaning
    if d.review is not None:
        yield "review", d.review.said
        for point in d.review.points:
            yield f"review at {point.at}", point.line
    for name, text in d.cards.items():
        yield f"card {name}", f"{name}: {text}"
    for i, line in enumerate(d.lines):
        if line.startswith("<style"):
            continue
        for said in BOARD_TEXT.findall(line):
            yield f"board line {i}", html.unescape(said)


@pytest.mark.parametrize("ruleset", ["miras9", "morana"])
def test_no_raw_token_reaches_a_person(games: dict[str, list[GameLog]], ruleset: str) -> None:
    seen = 0
    for log in games[ruleset]:
        assert all(p.name for p in log.header.players)  # names are known: no seat label may stand for one
        for view in VIEWS:
            d = viewer_data(log, view)
            found = [
                f"{where}: {what} {m.group(0)!r} in {text!r}"
                for where, text in texts(d)
                for what, pattern in RAW.items()
                if (m := pattern.search(text))
            ]
            assert not found, f"{log.header.game_id} {view}:\n" + "\n".join(found[:20])
            seen += sum(1 for _ in texts(d))
    assert seen > 10_000  # the scan read the games' texts, not an empty page


def test_the_scan_catches_raw_tokens() -> None:
    """The patterns catch what they are for, and pass sentences and printed numbers."""
    bad = ["p0 plays Raider", "blocked: None", "winner -1", "end_reason battle_damage", "step attack.declare", "True"]
    good = ["Ann plays Raider", "Bo takes 3 Battle Damage", "random-1 wins", "gets -1 ATK", "Wave 2 at Bo's Site"]
    assert all(any(p.search(t) for p in RAW.values()) for t in bad)
    assert not any(p.search(t) for p in RAW.values() for t in good)


@pytest.mark.parametrize("ruleset", ["miras9", "morana"])
def test_a_turn_begins_in_the_step_its_event_names(games: dict[str, list[GameLog]], ruleset: str) -> None:
    """At an event that begins a turn the board's own title and the page's position line say the same step: the
    fold takes TurnBegan's step (Miras 9's turn begins in Awaken [M9-031], MORANA's at Dawn), in every view (a
    player's view folds the redacted events with the same reducer)."""
    from annals.engine.views import viewer_of
    from annals.queries.pictures.svgboard import board_lines
    from annals.queries.pictures.svgkit import said
    from annals.queries.positions.viewstate import ViewState

    begun = 0
    for log in games[ruleset]:
        for view in VIEWS:
            seen = ViewState(log.header, viewer_of(view))
            for event in log.events:
                shown = seen.apply(event)
                if type(shown).__name__ != "TurnBegan":
                    continue
                begun += 1
                assert seen.state.step == shown.step, (log.header.game_id, view, shown.turn)
                lines = board_lines(ruleset, seen.state, viewer_of(view))
                drawn = [t for line in lines if not line.startswith("<style") for t in BOARD_TEXT.findall(line)]
                assert f"turn {shown.turn} · {said(shown.step)}" in drawn[0], drawn[:2]  # the board's title
    assert begun > 20
