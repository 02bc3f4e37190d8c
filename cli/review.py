"""``annals review``: every decision of a game rated by the search bot from its seat's view (``queries.review``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Literal

import typer

from annals.cli.app import app, err, out, reported
from annals.engine.names import SEARCH_ITERATIONS as ITERATIONS


@app.command()
def review(
    log: Path = typer.Argument(..., help="A log file written by annals (MORANA: the only ruleset with a search bot)."),
    seat: list[int] = typer.Option([], "--seat", help="Review only this seat (0 or 1; repeatable). Default: both."),
    fmt: Literal["table", "csv", "json"] = typer.Option("table", "--format", "-f", help="table, csv or json."),
    iterations: int = typer.Option(ITERATIONS, "--iterations", min=1, help="The search budget per decision."),
    inaccuracy: float = typer.Option(
        0.05, "--inaccuracy", help="Loss of winning chance from which a choice is an inaccuracy."
    ),
    mistake: float = typer.Option(0.10, "--mistake", help="... a mistake."),
    blunder: float = typer.Option(0.20, "--blunder", help="... a blunder."),
    notes: bool = typer.Option(False, "--notes", help="Also write inaccuracies and worse as notes beside the log."),
) -> None:
    """Rate each decision from its seat's view: the winning chance before it, after the choice made and after the
    best choice found, the loss and its class (best, good, inaccuracy, mistake, blunder), each seat's accuracy.
    The log is never changed; --notes writes LOG.notes.json beside it.

    Example: annals simulate morana --seed 7 --out g && annals review g/morana-00000007-*.log --iterations 20
    """
    # the rules and the search: imported when the command runs (tests/test_cli_startup.py)
    from annals.queries.review import Thresholds, review_csv, review_game, review_json, review_table, write_notes
    from annals.schemas.logfile import read_log

    with reported():
        game = read_log(log)
        reviews = review_game(
            game, seats=seat or (0, 1), iterations=iterations, thresholds=Thresholds(inaccuracy, mistake, blunder)
        )
        if fmt == "table":
            for line in review_table(reviews):
                out.print(line, markup=False)
        elif fmt == "csv":
            sys.stdout.write(review_csv(reviews))
        else:
            sys.stdout.write(review_json(reviews).decode() + "\n")
        if notes:
            path = write_notes(log, reviews)
            err.print(f"notes written to {path} (the log {log} is unchanged)", markup=False)
