"""Printable pages of an event, as plain HTML with its CSS inline (``eventpages.html`` and ``eventpages.css``, package
data): pairings by name for the wall, pairings by table, result slips, and standings with the tiebreakers explained.
People by name everywhere; every text from the record is escaped."""

from __future__ import annotations

import html
from importlib.resources import files
from string import Template

from annals.engine.tournament.event import state_standings
from annals.engine.tournament.record import EventError, EventState
from annals.engine.tournament.store import EventStore
from annals.queries.tournament import pairings_frame, result_text

PAGES = ("wall", "tables", "slips", "standings")


def _text(name: str) -> str:
    return files("annals.queries").joinpath(name).read_text(encoding="utf-8")


def _cells(values: list[object], numeric: set[int] | None = None, tag: str = "td") -> str:
    numeric = numeric or set()
    return "".join(
        f"<{tag}{' class=num' if i in numeric else ''}>{html.escape(str(v))}</{tag}>" for i, v in enumerate(values)
    )


def _table(head: list[str], rows: list[list[object]], numeric: set[int] | None = None) -> str:
    body = "".join(f"<tr>{_cells(r, numeric)}</tr>" for r in rows)
    return f"<table><thead><tr>{_cells(list(head), numeric, 'th')}</tr></thead><tbody>{body}</tbody></table>"


def _round(state: EventState, number: int | None) -> int:
    if not state.rounds:
        raise EventError("no round is paired yet: pair round 1 with 'annals event pair'")
    return number or len(state.rounds)


def wall(store: EventStore, number: int | None) -> tuple[str, str]:
    number = _round(store.state(), number)
    frame = pairings_frame(store, number, "name")
    rows = [[r["player"], r["table"], r["opponent"]] for r in frame.iter_rows(named=True)]
    return f"Round {number}: pairings by name", _table(["Player", "Table", "Opponent"], rows, {1})


def tables(store: EventStore, number: int | None) -> tuple[str, str]:
    number = _round(store.state(), number)
    frame = pairings_frame(store, number, "table")
    rows: list[list[object]] = []
    for r in frame.iter_rows(named=True):
        theirs = "" if r["opponent_points"] is None else r["opponent_points"]
        rows.append([r["table"], r["player"], r["points"], r["opponent"], theirs, r["result"]])
    head = ["Table", "Player", "Points", "Opponent", "Points", "Result"]
    return f"Round {number}: pairings by table", _table(head, rows, {0, 2, 4})


def slips(store: EventStore, number: int | None) -> tuple[str, str]:
    state = store.state()
    number = _round(state, number)
    names = state.names()
    best_of = state.config.best_of
    out = []
    for p in state.rounds[number - 1].round.pairings:
        if not p.b:
            continue
        a, b = html.escape(names[p.a]), html.escape(names[p.b])
        out.append(
            f'<section class="slip"><h2>{html.escape(state.config.name)}: round {number}, table {p.table} '
            f"(best of {best_of})</h2>"
            f"<table><thead><tr><th>Player</th><th>Games won</th><th>Games drawn</th><th>Drop?</th></tr></thead>"
            f"<tbody><tr><td>{a}</td><td></td><td rowspan=2></td><td></td></tr>"
            f"<tr><td>{b}</td><td></td><td></td></tr></tbody></table>"
            f'<div class="sign"><span>{a}</span><span>{b}</span></div></section>'
        )
    return f"Round {number}: result slips", "".join(out)


EXPLAINED = """<section class="explain"><h2>How the standings are ordered</h2><dl>
<dt>Match points</dt><dd>3 for a match win, 1 for a draw, 0 for a loss. A bye is a match win, 2-0 in games. A double
loss is a loss for both players. A round a late entrant missed is a match loss, 0-2 in games, with no opponent.</dd>
<dt>OMW% (opponents' match-win percentage)</dt><dd>The average of each opponent's match-win percentage: their match
points divided by 3 for each match they played, at least 33%. A bye is no opponent.</dd>
<dt>GW% (game-win percentage)</dt><dd>The player's game points (3 a game won, 1 a game drawn) divided by 3 for each
game played, at least 33%.</dd>
<dt>OGW% (opponents' game-win percentage)</dt><dd>The average of each opponent's game-win percentage, each at least
33%.</dd>
<dt>Level on all four</dt><dd>A lot drawn from the event's seed, the same every time the standings are printed.</dd>
</dl></section>"""


def standings(store: EventStore, number: int | None) -> tuple[str, str]:
    state = store.state()
    names = {p.id: p for p in state.players()}
    rows = []
    for s in state_standings(state):
        p = names[s.player]
        name = p.name + (" (dropped)" if p.dropped_after >= 0 else "")
        rows.append([s.rank, name, p.deck_name, s.points, f"{s.wins}-{s.losses}-{s.draws}",
                     f"{100 * s.omw:.2f}", f"{100 * s.gw:.2f}", f"{100 * s.ogw:.2f}"])  # fmt: skip
    head = ["Rank", "Player", "Deck", "Points", "Won-lost-drawn", "OMW%", "GW%", "OGW%"]
    done = len(state.rounds)
    return f"Standings after round {done}", _table(head, rows, {0, 3, 5, 6, 7}) + EXPLAINED


RENDER = {"wall": wall, "tables": tables, "slips": slips, "standings": standings}


def page_html(store: EventStore, page: str, number: int | None = None) -> str:
    """The page as a whole HTML document (its CSS inline: a file to print or mail as it is)."""
    title, body = RENDER[page](store, number)
    config = store.state().config
    subtitle = f"{config.name} ({config.ruleset}, best of {config.best_of})"
    return Template(_text("eventpages.html")).substitute(
        title=html.escape(title), subtitle=html.escape(subtitle), css=_text("eventpages.css"), page=page, body=body
    )


__all__ = ["PAGES", "page_html", "result_text"]
