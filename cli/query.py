"""``annals tables``, ``annals report`` and ``annals sql``: what the database holds, named reports, read-only SQL."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Literal

import typer

from annals.cli.app import app, err, fail, out, reported
from annals.queries.names import MIN_GAMES
from annals.queries.reports.specs import REPORTS
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
    from annals.schemas.screen import columns  # at use: the command line's start imports only light modules

    return columns()


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
    from annals.ingest.schema import open_database
    from annals.queries.reports.catalog import relations
    from annals.queries.reports.output import render

    with reported():
        con = open_database(database(db), read_only=True)
        try:
            frame = relations(con)
        finally:
            con.close()
        emit(render(frame, fmt, output, width=width(), inputs=[database(db)]), output)


def _day(value: str | None, option: str) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        fail(f"{option} {value!r} is not a date; write it as YYYY-MM-DD", code=2)


def reports_listed() -> str:
    """Every report on a line with its title (its own, from ``REPORTS``), for ``annals report --help``."""
    width = max(map(len, REPORTS))
    return "\b\nReports:\n" + "\n".join(f"  {name:<{width}}  {spec.title}" for name, spec in REPORTS.items())


@app.command(epilog=reports_listed())
def report(
    name: str = typer.Argument(..., metavar="NAME", help="A report's name (listed below)."),
    ruleset: str | None = typer.Option(None, "--ruleset", help="Only games of this ruleset."),
    agent: str | None = typer.Option(None, "--agent", help="Only seats played by this agent (random, heuristic...)."),
    deck: str | None = typer.Option(None, "--deck", help="Only seats playing this deck."),
    seat: int | None = typer.Option(None, "--seat", help="Only this seat (0 or 1)."),
    event: str | None = typer.Option(
        None, "--event", help="Only games of this event: its id, its name, or its folder (as in annals event)."
    ),
    since: str | None = typer.Option(None, "--since", help="Only games recorded on or after this day (YYYY-MM-DD)."),
    until: str | None = typer.Option(None, "--until", help="Only games recorded on or before this day (YYYY-MM-DD)."),
    min_turns: int | None = typer.Option(None, "--min-turns", min=0, help="Only games lasting at least N turns."),
    by: str | None = typer.Option(
        None,
        "--by",
        help="Split rows by agent, deck, seat, play (on the play or draw) or matchup (deck vs deck), where offered.",
    ),
    pool: bool = typer.Option(
        False, "--pool", help="Pool the bot pairings (by default each pairing's games are a row of their own)."
    ),
    min_games: int | None = typer.Option(
        None,
        "--min-games",
        min=0,
        help=f"Hide rows with fewer games (default {MIN_GAMES}, an event report's 0; 0 shows every row).",
    ),
    db: Path | None = DbOpt,
    fmt: Format = FormatOpt,
    output: Path | None = OutputOpt,
    plot: Path | None = typer.Option(
        None, "--plot", help="Also draw the report's chart to this .svg, .png or .json file."
    ),
    spark: str | None = typer.Option(
        None, "--spark", metavar="MASTER", help="Run on Spark SQL over --lake (local[2], spark://host:7077)."
    ),
    lake: str | None = typer.Option(None, "--lake", help="The Parquet lake (annals export --spark) for --spark."),
) -> None:
    """Run a named report; it states its sample, filters and what it means first.

    Each report is SQL over the database finished with polars; win rates carry a Wilson 95% interval. Rows with
    fewer games than --min-games are hidden, and the sample line says how many. A report about seats compares like
    with like: each bot pairing (the `pairing` column, "agent vs opponent agent") is a row of its own, and its
    baseline is computed within it, unless --pool mixes them.

    Example: annals report card_metrics --ruleset miras9 --by agent --min-games 5 --db annals.duckdb -f csv -o cards.csv
    Example: annals report deck_matrix --db annals.duckdb --min-games 0 --plot decks.svg
    """
    from annals.ingest.schema import open_database
    from annals.queries.reports.filters import Filters
    from annals.queries.reports.matrix import table_for
    from annals.queries.reports.output import for_people, render
    from annals.queries.reports.run import run_report

    if plot is not None:
        from annals.queries.pictures.plots import CHARTS

        if plot.suffix.lower() not in (".svg", ".png", ".json"):
            fail(f"--plot {plot}: name the file .svg, .png or .json", code=2)
        if name not in CHARTS:
            fail(f"report {name!r} has no chart; charts exist for: {', '.join(CHARTS)}", code=2)
    filters = Filters(
        ruleset=ruleset, agent=agent, deck=deck, seat=seat, event=event, min_turns=min_turns, by=by,
        pool=pool or None, since=_day(since, "--since"), until=_day(until, "--until"),
    )  # fmt: skip
    if (spark is None) != (lake is None):
        fail("--spark and --lake go together: the lake is read on Spark", code=2)
    with reported():
        if spark is not None and lake is not None:
            from annals.spark.reports import report_on_spark

            result = report_on_spark(spark, name, lake, filters=filters, min_games=min_games)
            inputs: list[Path] = []  # the lake is read by Spark, which may be elsewhere
        else:
            path = database(db)
            inputs = [path]
            con = open_database(path, read_only=True)
            try:
                result = run_report(con, name, min_games=min_games, database=str(path), filters=filters)
            finally:
                con.close()
        if fmt == "table":
            out.print(f"{result.title}\n{result.description}\n{result.sample}", markup=False)
        elif fmt == "csv":
            err.print(f"{result.title}: {result.sample}", markup=False)
        if result.frame.height == 0 and fmt in ("table", "csv"):  # why, not an empty table (a file still gets one)
            (out if fmt == "table" else err).print(f"no rows: {result.empty}", markup=False)
            if output is None and fmt == "table":
                return
        layout = table_for(name)
        frame = for_people(result.frame) if fmt == "table" else result.frame  # cards by name; the files keep ids
        emit(render(frame, fmt, output, result.metadata(), width=width(), inputs=inputs, layout=layout), output)
        if plot is not None:
            from annals.queries.pictures.plots import write_plot

            out.print(f"chart written to {write_plot(result, plot)}", markup=False)


@app.command()
def sql(
    query: str = typer.Argument(..., metavar="QUERY", help="SQL to run; the connection is read-only."),
    db: Path | None = DbOpt,
    fmt: Format = FormatOpt,
    output: Path | None = OutputOpt,
    allow_files: list[Path] = typer.Option(
        [], "--allow-files", help="A folder the query may read and write files in (COPY, read_csv); repeatable."
    ),
) -> None:
    """Run SQL on a read-only connection to the database.

    `annals tables` lists what there is: the tables games, players, deck_cards, cards, events, decisions,
    card_facts, quarantine; views such as zone_moves, counter_changes, game_results; the macro
    "position"(game_id, n). A table too wide for the terminal is shown one record per row.

    The query reaches nothing but the database: no file is read or written (COPY, read_csv, glob, ATTACH),
    no extension installed or loaded, no setting changed, unless under a folder given with --allow-files.

    Example: annals sql "SELECT ruleset, count(*) FROM games GROUP BY ALL" --db annals.duckdb --format csv
    """
    from annals.queries.reports.output import render, run_sql

    with reported():
        path = database(db)
        frame = run_sql(path, query, allow_files=allow_files)
        emit(render(frame, fmt, output, width=width(), inputs=[path]), output)
