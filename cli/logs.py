"""``annals show`` and ``annals verify``: reading one log."""

from __future__ import annotations

from pathlib import Path

import typer

from annals.cli.app import app, out, reported
from annals.engine.replay import verify_log
from annals.engine.views import view_log, viewer_of
from annals.schemas.logfile import read_log
from annals.schemas.text import render_log

LogArg = typer.Argument(..., help="A log file written by annals.", exists=False, dir_okay=False)


@app.command()
def show(
    log: Path = LogArg,
    view: str = typer.Option(
        "omniscient", "--view", help="omniscient, player0, player1 or spectator: what that seat could see."
    ),
) -> None:
    """Print a log as readable text: the header, then one line per event with its coordinates.

    Example: annals show games/miras9-00000001-3f2a.log --view player1
    """
    with reported():
        game = view_log(read_log(log), viewer_of(view))
    for line in render_log(game):
        out.print(line, markup=False)


@app.command()
def verify(log: Path = LogArg) -> None:
    """Prove a log whole and its game legal: checksums and chain, the records' consistency, then a re-run of its
    decisions that must give every event, the end and the result. It does not prove who recorded the game: only a
    signature does.

    Example: annals verify games/miras9-00000001-3f2a.log
    """
    with reported():
        verified = verify_log(log)
    for line in verified.lines():
        out.print(line, markup=False)
