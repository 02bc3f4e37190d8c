"""``annals review``: every decision of a game rated by the search bot from its seat's view (``queries.review``)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import typer

from annals.cli.app import app, err, fail, out, reported
from annals.engine.names import MAX_SEARCH_ITERATIONS
from annals.engine.names import SEARCH_ITERATIONS as ITERATIONS

DAMAGED = (
    "a review replays the log's decisions, so it needs the whole log as annals wrote it: copy it again from where "
    "it was played, or see what is intact with `annals verify LOG`"
)

if TYPE_CHECKING:
    from rich.console import Console


@contextmanager
def review_progress(label: str, console: Console | None = None) -> Iterator[Callable[[int, int], None]]:
    """A line on stderr while a game is reviewed, at a terminal only (a pipe or a file gets nothing): the decisions
    reviewed of all, the time gone and the time left, erased when done. A whole game at the default budget takes a
    minute or more, and a silent terminal for that long reads as a hang."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from annals.schemas import screen

    shown = console if console is not None else screen.console(sys.stderr)
    with Progress(
        TextColumn(label, markup=False), BarColumn(), MofNCompleteColumn(), TextColumn("decisions"),
        TimeElapsedColumn(), TextColumn("gone,"), TimeRemainingColumn(), TextColumn("left"),
        console=shown, transient=True, disable=not shown.is_terminal,
    ) as bar:  # fmt: skip
        task = bar.add_task(label, total=None)

        def step(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield step


@app.command()
def review(
    log: list[Path] = typer.Argument(
        ..., help="Log files written by annals, or folders of them (Miras 9 and MORANA games: each has a search bot)."
    ),
    seat: list[int] = typer.Option([], "--seat", help="Review only this seat (0 or 1; repeatable). Default: both."),
    fmt: Literal["table", "csv", "json"] = typer.Option("table", "--format", "-f", help="table, csv or json."),
    iterations: int = typer.Option(
        ITERATIONS, "--iterations", min=1, max=MAX_SEARCH_ITERATIONS, help="The search budget per decision."
    ),
    inaccuracy: float = typer.Option(
        0.05, "--inaccuracy", help="Loss of winning chance from which a choice is an inaccuracy."
    ),
    mistake: float = typer.Option(0.10, "--mistake", help="... a mistake."),
    blunder: float = typer.Option(0.20, "--blunder", help="... a blunder."),
    jobs: int = typer.Option(
        1, "--jobs", "-j", min=1, help="Processes to search in (a game's decisions shared among them; same review)."
    ),
    notes: bool = typer.Option(False, "--notes", help="Also write inaccuracies and worse as notes beside the log."),
    save: bool = typer.Option(
        False,
        "--save",
        help="Write the review beside the log as LOG.review.json, for `annals ingest` to load (with --seat, the "
        "other seat's saved review of the same budget and thresholds is kept).",
    ),
) -> None:
    """Rate each decision from its seat's view: the winning chance before it, after the choice made and after the
    best choice found, the loss and its class (best, good, inaccuracy, mistake, blunder), each seat's accuracy.
    The log is never changed; --notes writes LOG.notes.json beside it, --save LOG.review.json (which `annals
    ingest` loads into the decision_reviews table). Several logs or a folder: one line per game (a game that
    cannot be reviewed is named, and the others go on; one of a ruleset with no search bot is passed over).

    Example: annals simulate morana --seed 7 --out g && annals review g/morana-00000007-*.log --iterations 20
    """
    # the rules and the search: imported when the command runs (tests/test_cli_startup.py)
    from annals.queries.review import ReviewError, Thresholds, review_game, review_logs, save_review, write_notes
    from annals.queries.reviewtext import WHOLE, review_csv, review_json, review_summary, review_table
    from annals.schemas.errors import (
        AnnalsError,
        BadArgumentError,
        CorruptLogError,
        NotALogError,
        TruncatedLogError,
    )
    from annals.schemas.logfile import read_log
    from annals.schemas.screen import columns, is_terminal

    if not 0 < inaccuracy <= mistake <= blunder <= 1:  # NaN fails too: every choice would be 'good'
        fail(
            f"--inaccuracy {inaccuracy:g}, --mistake {mistake:g}, --blunder {blunder:g}: give losses of winning "
            "chance with 0 < inaccuracy <= mistake <= blunder <= 1",
            code=2,
        )
    thresholds = Thresholds(inaccuracy, mistake, blunder)
    seats = seat or [0, 1]
    with reported():
        logs = review_logs(log)
        many = len(logs) != 1 or any(p.is_dir() for p in log)
        if many and fmt != "table":
            raise BadArgumentError(f"--format {fmt} reviews one log; with several, use --save and `annals ingest`")
        failed = 0
        for path in logs:
            try:
                game = read_log(path)
                with review_progress(f"review {path.name}") as step:
                    reviews = review_game(
                        game, seats=seats, iterations=iterations, thresholds=thresholds, jobs=jobs, on_progress=step
                    )
            except BadArgumentError:
                raise
            except AnnalsError as exc:
                if not many and isinstance(exc, (NotALogError, CorruptLogError, TruncatedLogError)) and path.is_file():
                    fail(str(exc), hint=DAMAGED)  # not a game annals can replay: say what the person can do
                if not many:
                    raise
                if isinstance(exc, ReviewError):  # a ruleset with no search bot: passed over, not a failure
                    out.print(f"{path}: skipped: {exc}", markup=False)
                    continue
                failed += 1
                out.print(f"{path}: not reviewed: {type(exc).__name__}: {exc}", markup=False)
                continue
            saved = (
                save_review(path, game, reviews, seats=seats, iterations=iterations, thresholds=thresholds)
                if save
                else None
            )
            noted = write_notes(path, reviews) if notes else None
            if many:
                written = f" -> {saved}" if saved is not None else ""
                out.print(f"{path}: {review_summary(reviews)}{written}", markup=False)
                continue
            if fmt == "table":
                width = columns() if is_terminal(sys.stdout) else WHOLE  # a pipe: one line a decision, for grep
                players = [p.name for p in game.header.players]
                for line in review_table(
                    reviews, players=players, iterations=iterations, thresholds=thresholds, width=width
                ):
                    out.print(line, markup=False)
            elif fmt == "csv":
                sys.stdout.write(review_csv(reviews))
            else:
                doc = review_json(reviews, iterations=iterations, thresholds=thresholds)
                sys.stdout.write(doc.decode() + "\n")
            if noted is not None:
                err.print(f"notes written to {noted} (the log {path} is unchanged)", markup=False)
            if saved is not None:
                err.print(f"review written to {saved} (the log {path} is unchanged)", markup=False)
        if many and not logs:
            raise BadArgumentError(f"no *.log files under {', '.join(map(str, log))}")
        if failed:
            raise typer.Exit(1)
