"""``annals position``: the board at any coordinate of a game, from its log or by game id from the database."""

from __future__ import annotations

from pathlib import Path

import msgspec
import typer
from rich.table import Table

from cli.app import app, out, reported
from ingest.schema import DEFAULT_DB, open_database
from queries.board import Board, board
from queries.positions import VIEWS, CoordinateError, Timeline


def log_for(source: str, db: Path) -> Path:
    """A log path, or the file a game id was ingested from."""
    path = Path(source)
    if path.exists():
        return path
    con = open_database(db, read_only=True)
    try:
        rows = con.execute("SELECT file FROM games WHERE game_id = ?", [source]).fetchall()
    finally:
        con.close()
    if not rows:
        raise CoordinateError(f"{source!r} is neither a log file nor a game id in {db}")
    return Path(rows[0][0])


def render_board(b: Board) -> Table:
    status = f"over, winner p{b.winner}" if b.over and b.winner >= 0 else ("over, no winner" if b.over else "")
    title = (
        f"{b.ruleset} game {b.game_id} at {b.coordinate or 'event'} (after event {b.events_applied - 1}): "
        f"turn {b.turn}, step {b.step} — {b.view} view {status}"
    )
    table = Table(title=title, show_lines=True)
    table.add_column("zone", style="bold")
    sides = sorted({side for zone in b.zones.values() for side in zone})
    for side in sides:
        table.add_column(side)
    for zone, by_side in b.zones.items():
        table.add_row(zone, *(" ".join(by_side.get(side, [])) for side in sides))
    if b.counters:
        table.add_row("counters", *["" for _ in sides])
        for key, value in b.counters.items():
            table.add_row(f"  {key}", str(value), *["" for _ in sides[1:]])
    if b.hidden:
        table.caption = f"{b.hidden} card(s) hidden from this view"
    return table


@app.command()
def position(
    source: str = typer.Argument(..., help="A log file, or a game id in the database."),
    at: str = typer.Option("end", "--at", help="event:N, turn:T, turn:T/STEP, step:S, KIND:K, start or end."),
    view: str = typer.Option("omniscient", "--view", help=f"One of: {', '.join(VIEWS)}."),
    fmt: str = typer.Option("board", "--format", "-f", help="board or json."),
    db: Path = typer.Option(Path(DEFAULT_DB), "--db", help="Where to look a game id up."),
) -> None:
    """Rebuild the position at a coordinate and show it as a board or JSON.

    Example: annals position games/miras9-00000001-3f2a.log --at turn:5/attack.declare --view player0
    """
    with reported():
        timeline = Timeline.from_file(log_for(source, db))
        count = timeline.resolve(at)
        b = board(timeline, count, view, at)
    if fmt == "json":
        out.print(msgspec.json.format(msgspec.json.encode(b)).decode(), markup=False)
    else:
        out.print(render_board(b))
