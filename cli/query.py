"""``annals report`` and ``annals sql``: named reports and read-only SQL over the database."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import typer

from annals.cli.app import app, err, fail, out, reported
from annals.ingest.schema import DEFAULT_DB, open_database
from annals.queries.filters import Filters, NotApplicableError, UnknownValueError
from annals.queries.output import FORMATS, render, run_sql
from annals.queries.reports import MIN_GAMES, REPORTS, UnknownReportError, run_report

DbOpt = typer.Option(Path(DEFAULT_DB), "--db", help="The DuckDB file written by `annals ingest`.")
FormatOpt = typer.Option("table", "--format", "-f", help=f"One of: {', '.join(FORMATS)}.")
OutputOpt = typer.Option(None, "--output", "-o", help="Write to this file instead of the terminal.")


def _emit(text: str | None, output: Path | None) -> None:
    if text is not None:
        out.print(text, markup=False)
    elif output is not None:
        out.print(f"written to {output}", markup=False)


def _day(value: str | None, option: str) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        fail(f"{option} {value!r} is not a date; write it as YYYY-MM-DD", code=2)


@app.command()
def report(
    name: str = typer.Argument(..., help=f"One of: {', '.join(REPORTS)}."),
    ruleset: str = typer.Option(None, "--ruleset", help="Only games of this ruleset."),
    agent: str = typer.Option(None, "--agent", help="Only seats played by this agent (random, heuristic, ...)."),
    deck: str = typer.Option(None, "--deck", help="Only seats playing this deck."),
    seat: int = typer.Option(None, "--seat", help="Only this seat (0 or 1)."),
    event: str = typer.Option(None, "--event", help="Only games of this tournament event (the header's)."),
    since: str = typer.Option(None, "--since", help="Only games recorded on or after this day (YYYY-MM-DD)."),
    until: str = typer.Option(None, "--until", help="Only games recorded on or before this day (YYYY-MM-DD)."),
    min_turns: int = typer.Option(None, "--min-turns", min=0, help="Only games lasting at least N turns."),
    by: str = typer.Option(None, "--by", help="Split rows by agent, deck or seat (where the report offers it)."),
    min_games: int = typer.Option(
        None, "--min-games", min=0, help=f"Hide rows with fewer games (default {MIN_GAMES}; 0 shows every row)."
    ),
    db: Path = DbOpt,
    fmt: str = FormatOpt,
    output: Path = OutputOpt,
) -> None:
    """Run a named report (polars over DuckDB); it states its sample, filters and what it means first.

    Example: annals report card_metrics --ruleset miras9 --by agent --min-games 20 --format csv --output cards.csv
    """
    days = {"since": _day(since, "--since"), "until": _day(until, "--until")}
    filters = Filters(
        ruleset=ruleset, agent=agent, deck=deck, seat=seat, event=event, min_turns=min_turns, by=by, **days
    )
    with reported():
        con = open_database(db, read_only=True)
        try:
            result = run_report(con, name, min_games=min_games, database=str(db), filters=filters)
        except (UnknownReportError, UnknownValueError, NotApplicableError) as exc:
            fail(f"{type(exc).__name__}: {exc}", code=2)  # a usage error: the command line asked for it
        finally:
            con.close()
        if fmt == "table":
            out.print(f"{result.title}\n{result.description}\n{result.sample}", markup=False)
        elif fmt == "csv":
            err.print(f"{result.title}: {result.sample}", markup=False)
        _emit(render(result.frame, fmt, output, result.metadata()), output)


@app.command()
def sql(
    query: str = typer.Argument(..., help="SQL to run; the connection is read-only."),
    db: Path = DbOpt,
    fmt: str = FormatOpt,
    output: Path = OutputOpt,
) -> None:
    """Run SQL on a read-only connection (tables: games, players, deck_cards, cards, events, decisions,
    quarantine; views: zone_moves, counter_changes, game_results, ...; macro "position"(game_id, n)).

    Example: annals sql "SELECT ruleset, count(*) FROM games GROUP BY ALL" --format csv
    """
    with reported():
        _emit(render(run_sql(db, query), fmt, output), output)
