"""``annals show`` and ``annals verify``: reading logs."""

from __future__ import annotations

from typing import Literal

import typer

from annals.cli.app import app, err, fail, out, reported
from annals.engine.replay import rerun
from annals.engine.views import view_log, viewer_of
from annals.schemas.errors import AnnalsError, one_line
from annals.schemas.files import expand
from annals.schemas.logfile import read_log
from annals.schemas.text import render_jsonl, render_log

LogsArg = typer.Argument(
    ..., metavar="LOG", help="Log files written by annals, or glob patterns (quoted or not): games/*.log."
)


@app.command()
def show(
    logs: list[str] = LogsArg,
    view: str = typer.Option(
        "omniscient", "--view", help="omniscient, player0, player1 or spectator: what that seat could see."
    ),
    fmt: Literal["text", "json"] = typer.Option("text", "--format", "-f", help="json: one JSON record per line."),
) -> None:
    """Print logs as text, one line per event, the result last.

    Each event line has its coordinates (event number, turn, step, player) and its fields, card instances named
    (char-recruit#1003). With --format json each line is one JSON record: the header, every event and decision,
    and the result.

    Example: annals show games/miras9-00000001-*.log --view player1
    """
    with reported():
        paths = expand(logs)
        viewer = viewer_of(view)
        for i, path in enumerate(paths):
            game = view_log(read_log(path), viewer)
            if len(paths) > 1 and fmt == "text":
                out.print(f"{'' if i == 0 else chr(10)}== {path}", markup=False)
            lines = render_jsonl(game) if fmt == "json" else render_log(game, named=True)
            for line in lines:
                out.print(line, markup=False)


@app.command()
def verify(logs: list[str] = LogsArg) -> None:
    """Check logs' checksums and chain, then re-run their decisions.

    Every event the re-run emits is compared with the logged one; the first difference is named. With many logs,
    each gets its line and the command fails if any does.

    Example: annals verify games/miras9-0000000*.log
    """
    with reported():
        paths = expand(logs)
    failed = 0
    for path in paths:
        try:
            game = read_log(path)
            report = rerun(game)
        except AnnalsError as exc:
            failed += 1
            err.print(f"error: {one_line(str(exc))}", markup=False)
            continue
        if not report.ok:
            failed += 1
            detail = f"event {report.first_difference}: {report.reason}"
            if report.expected or report.actual:
                detail += f" (logged {report.expected}; re-run {report.actual})"
            err.print(f"error: {one_line(f'{path}: re-run differs at {detail}')}", markup=False)
            continue
        out.print(f"{path}: ok ({report.events_checked} events re-run identically, digest {game.digest})", markup=False)
    if failed and len(paths) > 1:
        fail(f"{failed} of {len(paths)} logs failed verification", hint="each is named above")
    if failed:
        raise typer.Exit(1)
