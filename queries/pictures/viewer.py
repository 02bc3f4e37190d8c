"""The replay viewer: one self-contained HTML file per game and view that opens from disk with no network.

What the file holds is computed from the events as ``Ruleset.redact`` shows them to the view, folded by the one
reducer (``queries.positions.viewstate``): the board drawn after every event (``queries.pictures.svgboard``), the events
in words with the names of the cards they show, the coordinates' turns, steps and kinds, the timeline's key moments and
the notes that view shows. A player's file therefore contains nothing that player could not see: the opponent's hidden
cards are not hidden in the page, they are absent from the file (no instance, no name, no deck list).

Size: each board is one SVG whose top-level elements are one per line (``queries.pictures.svgkit``); the file keeps each
distinct line once and, per position, the list of line numbers, written as the difference from the previous
position's list (lines kept, lines added), every 32nd position's list whole. The page rebuilds every position's
list once when it opens; a move then keeps the elements of the lines both boards share, patches in place the
element of a line that draws the same card, pile, counter or panel as a line going away, and copies the other new
lines from their one parse (``web/viewer.js``), so it costs what changed, not the whole board.

Coordinates in the page are those of ``annals position`` (``queries.positions.timeline``), resolved over the events as
the view saw them: in a player's file the opponent's sealed MORANA Commit is ``Sealed`` events, not ``Committed``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import msgspec

from annals.engine.registry import ruleset_for
from annals.engine.views import viewer_of
from annals.engine.words import Words, printed_for
from annals.queries.pictures.annotations import Note, placed
from annals.queries.pictures.eventtext import describe
from annals.queries.pictures.legend import card_texts, legend, legend_style
from annals.queries.pictures.reviewgraph import ReviewShown, review_legend, review_shown
from annals.queries.pictures.svgboard import board_lines
from annals.queries.pictures.svgkit import said
from annals.queries.pictures.turns import turn_summaries
from annals.queries.positions.timeline import Timeline, aliases
from annals.queries.positions.viewstate import ViewState
from annals.schemas.logfile import GameLog
from annals.schemas.records import CARDS_PER_PLAYER, LEADER_INDEX
from annals.schemas.review import ReviewFile

WEB = Path(__file__).with_name("web")
KEYFRAME_EVERY = 32

# Timeline marks: event kind -> mark (MORANA Dusk and Rite are the StepBegan of those steps).
MARKS: dict[str, dict[str, str]] = {
    "miras9": {
        "TurnBegan": "turn",
        "WaveDeclared": "wave",
        "StackResolved": "resolve",
        "BattleDamagePaid": "damage",
        "GameOver": "end",
    },
    "morana": {"TurnBegan": "turn", "GameEnded": "end"},
}
STEP_MARKS = {"morana": {"dusk": "dusk", "rite": "rite"}}
# Jump buttons: a name and the event kinds whose positions it visits ("phase": wherever the step changes).
JUMPS: dict[str, list[tuple[str, list[str]]]] = {
    "miras9": [
        ("wave step", ["WaveStep"]),
        ("stack item", ["StackPushed", "StackResolved"]),
        ("Battle Damage", ["BattleDamagePaid"]),
    ],
    "morana": [("Site", ["SiteResolutionBegan"]), ("flip", ["Flipped"]), ("Rite", ["SiteScored"])],
}


class ViewerData(msgspec.Struct):
    """What the page's script reads (``web/viewer.js``)."""

    game: dict[str, Any]
    lines: list[str]
    boards: list[list[int]]  # per position: a keyframe (line numbers) or a diff [-kept..., +added...]; see _diff
    events: list[tuple[int, int, int, int, str]]  # turn, step index, kind index, player, words
    steps: list[str]
    kinds: list[str]
    aliases: dict[str, str]
    marks: list[tuple[int, str, str]]  # position, mark, label
    jumps: dict[str, list[int]]
    notes: list[tuple[int, str, str, str]]  # position, coordinate, author, text
    turns: list[tuple[int, int, str]] = []  # turn, position of its first event, the turn in one line
    cards: dict[str, str] = {}  # each card name the board shows -> its type, cost, numbers and rules text
    step_words: list[str] = []  # steps (as ``steps``) in words
    # per position (0: the start): the step the game is in there (an index into ``steps``), as the board says it;
    # an event's own step (in ``events``) is the one it was recorded in, which for an event that begins a phase
    # is the phase before (logs keep it so), and which coordinates (turn:5/attack) are resolved by
    step_at: list[int] = []
    legend: list[tuple[str, str]] = []  # a mark of the board or the timeline (a CSS class, see web/) -> its meaning
    keyframe_every: int = KEYFRAME_EVERY
    review: ReviewShown | None = None  # the decision review this view may show (queries.pictures.reviewgraph)


def _namer(ruleset: str, state: Any) -> Any:
    if ruleset == "miras9":
        from annals.engine.miras9.board import defn

        def m9(card: int) -> str:
            cs = state.cards.get(card)
            return defn(state, cs).name if cs is not None else "a hidden card"

        return m9
    if ruleset == "morana":
        from annals.queries.pictures.svgmorana import card_name

        def mor(card: int) -> str:
            if card < 0:
                return "a hidden card"
            if card % 1000 == 999:
                name: str = state.pool.wardens[state.wardens[card // 1000 - 1]].name
                return name
            return card_name(state, card)

        return mor
    return lambda card: "a hidden card"


def _card_id(state: Any) -> Callable[[int], str]:
    """A MORANA view's card id of an instance ("" for one the viewer has not seen: its view blanks the id)."""

    def card_id(card: int) -> str:
        player, index = card // CARDS_PER_PLAYER - 1, card % CARDS_PER_PLAYER
        if not 0 <= player < len(state.wardens):
            return ""
        if index == LEADER_INDEX:
            return str(state.wardens[player])
        ids = state.ids[player]
        return str(ids[index]) if index < len(ids) else ""

    return card_id


def _diff(prev: list[int], cur: list[int]) -> list[int]:
    """``cur`` as edits of ``prev``: ``[drops..., -1, (index, line)...]``: the positions in ``prev`` to drop, then
    each added line with its index in ``cur`` (ascending, so inserting them in order rebuilds ``cur``)."""
    keep = set(cur)
    drops = [i for i, line in enumerate(prev) if line not in keep]
    kept = [line for line in prev if line in keep]
    out = [*drops, -1]
    # cur is kept lines in their order with new lines inserted: record each insertion (index in cur, line).
    j = 0
    for i, line in enumerate(cur):
        if j < len(kept) and kept[j] == line:
            j += 1
        else:
            out += [i, line]
    return out


def viewer_data(
    log: GameLog, view: str = "omniscient", notes: Sequence[Note] = (), review: ReviewFile | None = None
) -> ViewerData:
    viewer = viewer_of(view)
    header = log.header
    ruleset = header.ruleset
    seen = ViewState(header, viewer)
    players = [p.name for p in header.players]
    name = _namer(ruleset, seen.state)
    printed = printed_for(ruleset_for(header), _card_id(seen.state))  # MORANA's: where a Clash's 3 comes from
    table: dict[str, int] = {}
    lines: list[str] = []
    boards: list[list[int]] = []
    prev: list[int] = []

    def board(count: int) -> None:
        nonlocal prev
        cur = []  # the board's own title (turn and step) changes seldom; the page says which event it is
        for line in board_lines(ruleset, seen.state, viewer, players=players):
            i = table.get(line)
            if i is None:
                i = table[line] = len(lines)
                lines.append(line)
            cur.append(i)
        boards.append(cur if count % KEYFRAME_EVERY == 0 else _diff(prev, cur))
        prev = cur

    steps: dict[str, int] = {}
    kinds: dict[str, int] = {}
    events: list[tuple[int, int, int, int, str]] = []
    marks: list[tuple[int, str, str]] = []
    mark_of, step_mark = MARKS.get(ruleset, {}), STEP_MARKS.get(ruleset, {})
    jump_kinds = {k: label for label, ks in JUMPS.get(ruleset, []) for k in ks}
    jumps: dict[str, list[int]] = {"turn": [], "phase": [], **{label: [] for label, _ in JUMPS.get(ruleset, [])}}
    board(0)
    step_at = [steps.setdefault(seen.state.step, len(steps))]
    last_step = ""
    shown_events: list[Any] = []
    for count, event in enumerate(log.events, start=1):
        shown = seen.apply(event)
        shown_events.append(shown)
        kind = type(shown).__name__
        words = describe(ruleset, shown, name, players, printed)
        events.append((shown.turn, steps.setdefault(shown.step, len(steps)), kinds.setdefault(kind, len(kinds)),
                       shown.player, words))  # fmt: skip
        mark = mark_of.get(kind) or (step_mark.get(shown.step) if kind == "StepBegan" else None)
        if mark:
            marks.append((count, mark, words))
        if kind == "TurnBegan":
            jumps["turn"].append(count)
        if shown.step != last_step:
            jumps["phase"].append(count)
            last_step = shown.step
        if kind in jump_kinds:
            jumps[jump_kinds[kind]].append(count)
        board(count)
        step_at.append(steps.setdefault(seen.state.step, len(steps)))
    timeline = Timeline(log)
    shown_notes = [(count, n.at, n.author, n.text) for count, n in placed(list(notes), timeline, view)]
    for count, at, _, text in shown_notes:
        marks.append((count, "note", f"note at {at}: {text}"))
    marks.sort(key=lambda m: m[0])
    say = Words(ruleset, name, players)
    game = {
        "game_id": header.game_id,
        "ruleset": ruleset,
        "view": view,
        "players": [say.who(i) for i in range(len(players))],
        "result": say.ending(log.close.winner, log.close.end_reason) if log.close is not None else None,
    }
    reviewed = None
    keys = legend(ruleset, game["players"], viewer)
    if review is not None:
        winner = log.close.winner if log.close is not None else None
        reviewed = review_shown(review, view, game["players"], winner)
        keys += review_legend(reviewed, game["players"], review.thresholds)
    return ViewerData(game, lines, boards, events, list(steps), list(kinds), dict(aliases(ruleset)), marks,
                      jumps, shown_notes, turns=turn_summaries(ruleset, shown_events, say),
                      cards=card_texts(ruleset, lines), step_words=[said(s) for s in steps],
                      legend=keys, review=reviewed, step_at=step_at)  # fmt: skip


def viewer_html(
    log: GameLog, view: str = "omniscient", notes: Sequence[Note] = (), review: ReviewFile | None = None
) -> str:
    """The whole page: the template with its style, script and the game's data inlined."""
    data = msgspec.json.encode(viewer_data(log, view, notes, review)).replace(b"</", b"<\\/").decode()
    template = (WEB / "viewer.html").read_text(encoding="utf-8")
    title = f"{log.header.ruleset} game {log.header.game_id} · {view}"
    return (
        template.replace("{{TITLE}}", title)
        .replace("/*{{STYLE}}*/", (WEB / "viewer.css").read_text(encoding="utf-8"))
        .replace("/*{{SCRIPT}}*/", (WEB / "viewer.js").read_text(encoding="utf-8"))
        .replace("{{LEGEND_STYLE}}", legend_style())
        .replace("{{DATA}}", data)
    )


def write_viewer(
    log: GameLog,
    out: str | os.PathLike[str],
    view: str = "omniscient",
    notes: Sequence[Note] = (),
    review: ReviewFile | None = None,
) -> int:
    """Write the page to ``out``; returns its size in bytes."""
    page = viewer_html(log, view, notes, review).encode("utf-8")
    Path(out).write_bytes(page)
    return len(page)
