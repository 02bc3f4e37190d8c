"""``annals tables``, ``annals report`` and ``annals sql``: what the database holds, named reports, read-only SQL."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Literal

import typer

from annals.cli.app import app, fail, out, reported
from annals.ingest.schema import open_database
from annals.queries.catalog import relations
from annals.queries.output import render, run_sql
from annals.queries.reports import REPORTS, run_report
from annals.schemas.files import default_database

Format = Literal["table", "csv", "json", "parquet"]
DbOpt = typer.Option(
    None, "--db", help="The DuckDB file written by `annals ingest` (default: ANNALS_HOME/annals.duckdb)."
)
FormatOpt = typer.Option("table", "--format", "-f", help="A table fitted to the terminal, csv, json or parquet.")
OutputOpt = typer.Option(None, "--output", "-o", help="Write to this file instead of the terminal.")


def database(db: Path | None) -> Path:
    return db if db is not None else default_database()


def width() -> int:
    """The terminal's width (``COLUMNS`` when set; 100 when there is no terminal)."""
    return shutil.get_terminal_size((100, 24)).columns


def emit(text: str | None, output: Path | None) -> None:
    """Text as it is (it ends with one newline), or where it was written."""
    if text is not None:
        typer.echo(text, nl=False)
    elif output is not None:
        out.print(f"written to {output}", markup=False)


@app.command()
def tables(db: Path | None = DbOpt, fmt: Format = FormatOpt, output: Path | None = OutputOpt) -> None:
    """List the tables and views with their row counts.

    Then the table macros (position, position_at) with their parameters.

    Example: annals tables --db annals.duckdb
    """
    with reported():
        con = open_database(database(db), read_only=True)
        try:
            frame = relations(con)
        finally:
            con.close()
        emit(render(frame, fmt, output, width=width()), output)


@app.command()
def report(
    name: str = typer.Argument(..., metavar="NAME", help=f"One of: {', '.join(REPORTS)}."),
    ruleset: str | None = typer.Option(None, "--ruleset", help="Only games of this ruleset."),
    min_games: int = typer.Option(0, "--min-games", min=0, help="Drop rows with fewer games."),
    db: Path | None = DbOpt,
    fmt: Format = FormatOpt,
    output: Path | None = OutputOpt,
    plot: Path | None = typer.Option(
        None, "--plot", help="Also draw the report's chart to this .svg, .png or .json file."
    ),
) -> None:
    """Run a named report; it states its sample first.

    Each report is SQL over the database finished with polars; win rates carry a Wilson 95% interval.

    Example: annals report card_winrate --ruleset miras9 --min-games 20 --db annals.duckdb -f csv -o cards.csv
    Example: annals report deck_matrix --db annals.duckdb --plot decks.svg
    """
    if plot is not None:
        from annals.queries.plots import CHARTS

        if plot.suffix.lower() not in (".svg", ".png", ".json"):
            fail(f"--plot {plot}: name the file .svg, .png or .json", code=2)
        if name not in CHARTS:
            fail(f"report {name!r} has no chart; charts exist for: {', '.join(CHARTS)}", code=2)
    with reported():
        path = database(db)
        con = open_database(path, read_only=True)
        try:
            result = run_report(con, name, ruleset=ruleset, min_games=min_games, database=str(path))
        finally:
            con.close()
        if fmt == "table":
            out.print(f"{result.title}\n{result.sample}", markup=False)
        emit(render(result.frame, fmt, output, width=width()), output)
        if plot is not None:
            from annals.queries.plots import write_plot

            out.print(f"chart written to {write_plot(result, plot)}", markup=False)


@app.command()
def sql(
    query: str = typer.Argument(..., metavar="QUERY", help="SQL to run; the connection is read-only."),
    db: Path | None = DbOpt,
    fmt: Format = FormatOpt,
    output: Path | None = OutputOpt,
) -> None:
    """Run SQL on a read-only connection to the database.

    `annals tables` lists what there is: the tables games, players, deck_cards, cards, events, decisions,
    card_facts, quarantine; views such as zone_moves, counter_changes, game_results; the macro
    "position"(game_id, n). A table too wide for the terminal is shown one record per row.

    Example: annals sql "SELECT ruleset, count(*) FROM games GROUP BY ALL" --db annals.duckdb --format csv
    """
    with reported():
        emit(render(run_sql(database(db), query), fmt, output, width=width()), output)
