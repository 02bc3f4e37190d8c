"""``annals demo``: the first command to run: simulate, ingest, report, rebuild a position."""

from __future__ import annotations

import textwrap
import time
from pathlib import Path

import typer

from annals.cli.app import app, out, reported
from annals.cli.ingest import summary
from annals.cli.position import render_board
from annals.cli.query import width
from annals.schemas import screen
from annals.schemas.commandline import quoted
from annals.schemas.files import annals_home

DEMO_ROWS = 12  # rows shown of each report but a matrix (the deck matrix), which is shown whole


@app.command()
def demo(
    folder: Path | None = typer.Option(
        None, "--dir", help="Where the logs and the database go (default: ANNALS_HOME/demo)."
    ),
    games: int = typer.Option(8, "--games", "-n", min=1, help="Games per deck pairing."),
    seed: int = typer.Option(1, "--seed", help="Seed of the first game."),
) -> None:
    """Simulate both games, ingest them and print reports.

    A small round robin of each game's decks; the last part rebuilds one position as a board. The folder's
    earlier demo logs and database are replaced.

    Example: annals demo --games 8 --dir demo
    """
    from annals.queries.demo import run_demo
    from annals.queries.reports.compact import compact_table
    from annals.queries.reports.matrix import table_for
    from annals.queries.reports.output import for_people

    start = time.perf_counter()
    where = folder if folder is not None else annals_home() / "demo"
    with reported():
        result = run_demo(where, games=games, seed=seed, on_step=lambda msg: out.print(msg, markup=False))
    for line in summary(result.ingest, result.database, result.ingest_seconds)[:-1]:
        out.print(line, markup=False)
    cols = width()
    db = quoted(result.database)  # in the commands below, to be copied
    for r in result.reports:
        out.print(f"\n== {r.title} ({r.name})\n" + "\n".join(textwrap.wrap(r.sample, max(cols, 40))), markup=False)
        layout = table_for(r.name)
        whole = layout is not None or r.frame.height <= DEMO_ROWS
        frame = for_people(r.frame)  # cards by their printed names
        shown = (layout or compact_table)(frame if whole else frame.head(DEMO_ROWS), cols)
        out.print(shown, markup=False)
        if not whole:
            lead = f"(the first {DEMO_ROWS} of {r.frame.height} rows; all of them: "
            screen.command(out, lead, f"annals report {r.name} --db {db}", ")")
    out.print("")
    out.print(render_board(result.board))
    if result.pictures:
        out.print("\ncharts and replay pages (open in a browser):", markup=False)
        for path in result.pictures:
            out.print(f"  {path}", markup=False, soft_wrap=True)  # a path to copy: never broken at its spaces
    out.print(
        f"\ndatabase: {result.database.resolve()}  (logs in {result.logs}; took {time.perf_counter() - start:.1f}s)",
        markup=False,
    )
    game = result.board.game_id
    for lead, line in [
        ("try: ", f'annals sql "SELECT * FROM games LIMIT 5" --db {db}'),
        ("     ", f"annals report card_winrate --db {db}"),
        ("     ", f"annals position {game} --db {db} --at turn:3/attack --view player0"),
        ("     ", f"annals view {game} --db {db} --view player0 --output game.html"),
        ("     ", f"annals report deck_matrix --db {db} --plot decks.svg"),
    ]:
        screen.command(out, lead, line)
