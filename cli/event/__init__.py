"""``annals event``: an event (a tournament) run round by round on its own signed record, in its own folder.

The commands, by what they do: ``field`` (the event made, its players registered, renamed, given a bye, dropped;
``run`` plays it with bots), ``rounds`` (pairing, the round clock, results and their corrections) and ``pages``
(players, standings, placings, printouts, verify). Each command is one call of the library (``engine.tournament``:
``event``, ``rounds``, ``play``, ``verify``; ``queries.tournament`` and ``queries.eventpages`` for what is printed).
docs/organiser.md walks through an event.
"""

from __future__ import annotations

from pathlib import Path

import typer

from annals.cli.app import app, out

event_app = typer.Typer(
    help="Run an event round by round: registration with deck lists, pairings, results, corrections, the round "
    "clock, a top cut, standings and printouts, all on the event's signed record.\n\n"
    "Example: annals event new spring --ruleset miras9 --rounds 3 --best-of 3 --top 2 --seed 7",
    no_args_is_help=True,
)
app.add_typer(event_app, name="event")

FOLDER = typer.Argument(..., metavar="EVENT", help="The event's folder.")
FORMAT = typer.Option("table", "--format", help="table, csv or json.")
OUTPUT = typer.Option(None, "--output", "-o", help="Write to this file instead.")
JUDGE = typer.Option("", "--judge", help="The judge's name.")
REASON = typer.Option("", "--reason", help="Why.")


def width() -> int:
    from annals.schemas.screen import columns  # at use: the command line's start imports only light modules

    return columns()


def show(frame_text: str | None) -> None:
    if frame_text is not None:
        out.print(frame_text, markup=False, end="", soft_wrap=True)  # a table fitted already, or CSV/JSON: as it is


def emit(frame: object, fmt: str, output: Path | None, title: str = "") -> None:
    import polars as pl

    from annals.queries.reports.output import render
    from annals.queries.tournament import terminal_table

    assert isinstance(frame, pl.DataFrame)
    if fmt == "table" and output is None:
        show(terminal_table(frame, width(), title))
        return
    text = render(frame, fmt, output, width=width())
    show(text)
    if text is None and output is not None:
        out.print(f"written to {output}", markup=False)


# importing registers the commands, in the order the help lists them: the field, the rounds, what is printed
# isort: off
from annals.cli.event import field, rounds, pages  # noqa: E402, F401
# isort: on
