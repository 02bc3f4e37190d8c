"""``annals demo``: the first command to run: simulate, ingest, report, rebuild a position."""

from __future__ import annotations

import time
from pathlib import Path

import typer

from annals.cli.app import app, out, reported
from annals.cli.ingest import summary
from annals.cli.position import render_board
from annals.queries.demo import run_demo
from annals.queries.output import render


@app.command()
def demo(
    folder: Path = typer.Option(Path("annals-demo"), "--dir", help="Where the logs and the database go."),
    games: int = typer.Option(8, "--games", "-n", min=1, help="Games per deck pairing."),
    seed: int = typer.Option(1, "--seed", help="Seed of the first game."),
) -> None:
    """Simulate a small tournament of both games, ingest it, print reports and one rebuilt position.

    Example: annals demo --games 8 --dir annals-demo
    """
    start = time.perf_counter()
    folder.mkdir(parents=True, exist_ok=True)
    with reported():
        result = run_demo(folder, games=games, seed=seed, on_step=lambda msg: out.print(msg, markup=False))
    for line in summary(result.ingest, result.database, result.ingest_seconds)[:-1]:
        out.print(line, markup=False)
    for r in result.reports:
        out.print(f"\n== {r.title} ({r.name})\n{r.sample}", markup=False)
        out.print(render(r.frame.head(12), "table", None) or "", markup=False)
    out.print("")
    out.print(render_board(result.board))
    if result.pictures:
        out.print("\ncharts and replay pages (open in a browser):", markup=False)
        for path in result.pictures:
            out.print(f"  {path}", markup=False)
    out.print(
        f"\ndatabase: {result.database.resolve()}  (logs in {result.logs}; took {time.perf_counter() - start:.1f}s)\n"
        f'try: annals sql "SELECT * FROM games LIMIT 5" --db {result.database}\n'
        f"     annals report card_winrate --db {result.database}\n"
        f"     annals position {result.board.game_id} --db {result.database} --at turn:3/attack --view player0\n"
        f"     annals view {result.board.game_id} --db {result.database} --view player0 --output game.html\n"
        f"     annals report deck_matrix --db {result.database} --plot decks.svg",
        markup=False,
    )
