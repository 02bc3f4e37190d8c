"""``annals report`` and ``annals sql``: named reports and read-only SQL over the database."""

from __future__ import annotations

from pathlib import Path

import typer

from annals.cli.app import app, out, reported
from annals.ingest.schema import DEFAULT_DB, open_database
from annals.queries.output import FORMATS, render, run_sql
from annals.queries.reports import REPORTS, run_report

DbOpt = typer.Option(Path(DEFAULT_DB), "--db", help="The DuckDB file written by `annals ingest`.")
FormatOpt = typer.Option("table", "--format", "-f", help=f"One of: {', '.join(FORMATS)}.")
OutputOpt = typer.Option(None, "--output", "-o", help="Write to this file instead of the terminal.")


def _emit(text: str | None, output: Path | None) -> None:
    if text is not None:
        out.print(text, markup=False)
    elif output is not None:
        out.print(f"written to {output}", markup=False)


@app.command()
def report(
    name: str = typer.Argument(..., help=f"One of: {', '.join(REPORTS)}."),
    ruleset: str = typer.Option(None, "--ruleset", help="Only games of this ruleset."),
    min_games: int = typer.Option(0, "--min-games", min=0, help="Drop rows with fewer games."),
    db: Path = DbOpt,
    fmt: str = FormatOpt,
    output: Path = OutputOpt,
) -> None:
    """Run a named report (polars over DuckDB); it states its sample first.

    Example: annals report card_winrate --ruleset miras9 --min-games 20 --format csv --output cards.csv
    """
    with reported():
        con = open_database(db, read_only=True)
        try:
            result = run_report(con, name, ruleset=ruleset, min_games=min_games, database=str(db))
        finally:
            con.close()
        if fmt == "table":
            out.print(f"{result.title}\n{result.sample}", markup=False)
        _emit(render(result.frame, fmt, output, inputs=[db]), output)


@app.command()
def sql(
    query: str = typer.Argument(..., help="SQL to run; the connection is read-only."),
    db: Path = DbOpt,
    fmt: str = FormatOpt,
    output: Path = OutputOpt,
    allow_files: list[Path] = typer.Option(
        [], "--allow-files", help="A folder the query may read and write files in (COPY, read_csv); repeatable."
    ),
) -> None:
    """Run SQL on a read-only connection (tables: games, players, deck_cards, cards, events, decisions,
    quarantine; views: zone_moves, counter_changes, game_results, ...; macro "position"(game_id, n)).

    The query reaches nothing but the database: no file is read or written (COPY, read_csv, glob, ATTACH),
    no extension installed or loaded, no setting changed, unless under a folder given with --allow-files.

    Example: annals sql "SELECT ruleset, count(*) FROM games GROUP BY ALL" --format csv
    """
    with reported():
        _emit(render(run_sql(db, query, allow_files=allow_files), fmt, output, inputs=[db]), output)
