"""An event's standings, placings, pairings and players as frames (for CSV, JSON and pages), and as tables that fit
the terminal. People by name everywhere (the id beside it where two people could share a name)."""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

import polars as pl
from rich.console import Console
from rich.table import Table

from annals.engine.names import plural
from annals.engine.tournament.event import placings, results, state_standings
from annals.engine.tournament.record import EventError, EventState
from annals.engine.tournament.standings import match_points
from annals.engine.tournament.store import EventStore
from annals.schemas.event import DOUBLE_LOSS, INTENTIONAL_DRAW, NO_SHOW

BY = ("table", "name")


def standings_frame(store: EventStore) -> pl.DataFrame:
    """The Swiss standings: rank, player, match points, record and the three tiebreakers (percent, 2 places)."""
    state = store.state()
    names = {p.id: p for p in state.players()}
    rows = state_standings(state)
    return pl.DataFrame(
        {
            "rank": [s.rank for s in rows],
            "player": [s.player for s in rows],
            "name": [names[s.player].name for s in rows],
            "deck": [names[s.player].deck_name for s in rows],
            "points": [s.points for s in rows],
            "record": [f"{s.wins}-{s.losses}-{s.draws}" for s in rows],
            "omw_pct": [round(100 * s.omw, 2) for s in rows],
            "gw_pct": [round(100 * s.gw, 2) for s in rows],
            "ogw_pct": [round(100 * s.ogw, 2) for s in rows],
            "dropped": [names[s.player].dropped_after >= 0 for s in rows],
        },
        schema_overrides={"rank": pl.Int32, "points": pl.Int32},
    )


def placings_frame(store: EventStore) -> pl.DataFrame:
    names = {p.id: p for p in store.players()}
    rows = placings(store)
    return pl.DataFrame(
        {
            "place": [place for place, _ in rows],
            "player": [p for _, p in rows],
            "name": [names[p].name for _, p in rows],
            "deck": [names[p].deck_name for _, p in rows],
        },
        schema_overrides={"place": pl.Int32},
    )


def result_text(state: EventState, number: int, table: int) -> str:
    """A table's result as people read it: ``2-1``, ``2-1-1``, ``bye``, ``intentional draw``, ``2-0, Bo did not
    come`` ... or "" while open."""
    score, note = result_parts(state, number, table)
    return f"{score}, {note}" if note else score


def result_parts(state: EventState, number: int, table: int) -> tuple[str, str]:
    """``result_text`` in two: the result, and who did not come for a no-show ("" otherwise)."""
    m = state.match(number, table)
    if m is None:
        return "", ""
    if not m.b:
        return "bye", ""
    o = m.override
    kind = o.kind if o is not None else m.ended
    wa, wb, d = (o.wins_a, o.wins_b, o.draws) if o is not None else (m.wins_a, m.wins_b, m.draws)
    score = f"{wa}-{wb}" + (f"-{d}" if d else "")
    named = {INTENTIONAL_DRAW: "intentional draw", DOUBLE_LOSS: f"double loss {score}"}
    text = named.get(kind, score) + (" (corrected)" if o is not None else "")
    absent = state.names()[m.a if wb > wa else m.b] if kind == NO_SHOW else ""  # the no-show loses 0-2
    return text, f"{absent} did not come" if absent else ""


def points_before(state: EventState, number: int) -> dict[str, int]:
    """Each player's match points going into round ``number``, what its pairings were made on: the Swiss results of
    the rounds before it (a bye among them; a round missed by a late entry scores nothing). A bye of this round is
    not counted yet, as a table's result is not: the pairings showed the bye player 3 points ahead of everyone in
    round 1."""
    earlier = [m for m in state.matches() if m.round < number]
    return match_points(list(state.registered), results(earlier))


def pairings_frame(
    store: EventStore, number: int | None = None, by: str = "table", links: Mapping[str, str] | None = None
) -> pl.DataFrame:
    """A round's pairings (the last paired by default): by table (one row a table), or by name (one row a
    player, alphabetical, with their table and opponent: what the wall shows); ``links`` (player id -> their
    personal link at the server, by name only) adds a ``link`` column. By table, ``points`` and ``opponent_points``
    are the match points each player brought into the round (``points_before``), as Swiss pairings show them."""
    state = store.state()
    if not state.rounds:
        raise EventError("no round is paired yet: pair round 1 with 'annals event pair'")
    number = number or len(state.rounds)
    if not 1 <= number <= len(state.rounds):
        raise EventError(f"round {number} is not paired (rounds paired: {len(state.rounds)})")
    rnd = state.rounds[number - 1].round
    names = state.names()
    points = points_before(state, number)
    if by == "table":
        return pl.DataFrame(
            {
                "table": [p.table for p in rnd.pairings],
                "player": [names[p.a] for p in rnd.pairings],
                "points": [points.get(p.a, 0) for p in rnd.pairings],
                "opponent": [names[p.b] if p.b else "(bye)" for p in rnd.pairings],
                "opponent_points": [points.get(p.b, 0) if p.b else None for p in rnd.pairings],
                "result": [result_text(state, number, p.table) for p in rnd.pairings],
            },
            schema_overrides={"table": pl.Int32, "points": pl.Int32, "opponent_points": pl.Int32},
        )
    rows = []
    for p in rnd.pairings:
        rows.append((names[p.a], p.table, names[p.b] if p.b else "(bye)", p.a))
        if p.b:
            rows.append((names[p.b], p.table, names[p.a], p.b))
    rows.sort(key=lambda r: (r[0].casefold(), r[3]))
    columns: dict[str, list[Any]] = {"player": [r[0] for r in rows], "table": [r[1] for r in rows],
                                     "opponent": [r[2] for r in rows]}  # fmt: skip
    if links is not None:
        columns["link"] = [links.get(r[3], "") for r in rows]
    return pl.DataFrame(columns, schema_overrides={"table": pl.Int32})


def players_frame(store: EventStore) -> pl.DataFrame:
    state = store.state()
    status = []
    for p in state.players():
        missed = state.registered[p.id].missed
        if p.dropped_after == 0:
            status.append("withdrew before round 1")
        elif p.dropped_after > 0:
            status.append(f"dropped after round {p.dropped_after}")
        else:
            # short: a long status pushed the id and the deck out of an 80-column table
            status.append(f"late entry: {plural(missed, 'round')} lost" if missed else "active")
    players = state.players()
    return pl.DataFrame(
        {
            "name": [p.name for p in players],
            "id": [p.id for p in players],
            "deck": [p.deck_name for p in players],
            "plays": [p.agent or "person" for p in players],
            "status": status,
        }
    )


# the tiebreakers as the standings' footnote and every organiser write them (the CSV and JSON keep the field names)
HEADINGS = {"omw_pct": "OMW%", "gw_pct": "GW%", "ogw_pct": "OGW%"}


def _heading(column: str) -> str:
    return HEADINGS.get(column, column.replace("_", " "))


OPTIONAL = ("dropped", "deck", "player", "id", "record", "plays", "opponent_points")  # left out first when narrow
BESIDE = {"player": "name"}  # "player" is an id beside "name" (standings), or the name itself (pairings): kept


def _cell(v: object) -> str:
    """A cell as a person reads it: a flag as "yes" or nothing (never Python's True/False), 2 decimals."""
    if isinstance(v, bool):
        return "yes" if v else ""
    return "" if v is None else f"{v:.2f}" if isinstance(v, float) else str(v)


def terminal_table(frame: pl.DataFrame, width: int, title: str = "") -> str:
    """The frame as a rich table no wider than ``width``: one line a row when it fits; narrower, the columns of
    ``OPTIONAL`` are left out in turn (names stay whole; a player's name is never left out), and last of all cells
    wrap."""

    def needed(f: pl.DataFrame) -> int:
        widths = [max([len(_heading(c))] + [len(_cell(v)) for v in f[c]]) for c in f.columns]
        return sum(widths) + 3 * len(widths) + 1

    for name in OPTIONAL:
        if needed(frame) <= width:
            break
        if name in frame.columns and BESIDE.get(name, name) in frame.columns:
            frame = frame.drop(name)
    table = Table(title=title or None, expand=False, title_justify="left")
    for name, dtype in zip(frame.columns, frame.dtypes, strict=True):
        numeric = dtype.is_numeric()
        table.add_column(_heading(name), justify="right" if numeric else "left", overflow="fold")
    for row in frame.iter_rows():
        table.add_row(*(_cell(v) for v in row))
    buffer = io.StringIO()
    Console(file=buffer, width=width, no_color=True, highlight=False, emoji=False).print(table)
    return buffer.getvalue()
