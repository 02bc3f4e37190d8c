"""``annals view`` (a self-contained HTML replay) and ``annals annotate`` (notes in a side file of a log)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from annals.cli.app import app, err, out, reported
from annals.engine.names import MAX_SEARCH_ITERATIONS, VIEW_HELP, view_named
from annals.engine.names import SEARCH_ITERATIONS as ITERATIONS
from annals.schemas.files import default_database, output_file

if TYPE_CHECKING:
    from annals.schemas.logfile import GameLog
    from annals.schemas.review import ReviewFile


@app.command()
def view(
    source: str = typer.Argument(
        ..., help="A log file, or a game id in the database (its log rebuilt from the database if the file is gone)."
    ),
    output: Path = typer.Option(..., "--output", "-o", help="The HTML file to write."),
    view_name: str = typer.Option("spectator", "--view", help=f"One of: {VIEW_HELP}."),
    db: Path | None = typer.Option(
        None, "--db", help="Where to look a game id up (default: ANNALS_HOME/annals.duckdb)."
    ),
    review: bool | None = typer.Option(
        None,
        "--review/--no-review",
        help="The winning-chance graph of the decision review saved beside the log (LOG.review.json) is shown "
        "whenever there is one; --review makes and saves the review first if there is none, or adds the view's "
        "seat to one of the other seat only; "
        "--no-review leaves it out.",
    ),
    iterations: int = typer.Option(
        ITERATIONS,
        "--iterations",
        min=1,
        max=MAX_SEARCH_ITERATIONS,
        help="The search budget per decision of a review --review makes.",
    ),
) -> None:
    """Write a replay viewer: one HTML file that opens from disk with no network, with the board at every event,
    a timeline, jumps by turn, phase and key moment, the events in words and the log's notes.

    A player's or the spectator's file holds only what that view could see. With a decision review (`annals
    review LOG --save`, or --review here), a graph of the winning chance sits above the timeline, with marks at
    inaccuracies, mistakes and blunders and the better choice in words: every seat's in the omniscient view, a
    player's own in theirs, none in the spectators' (the review names cards in the players' hands).

    Example: annals view games/miras9-00000007-*.log --view p0 --output game.html
    """
    from annals.engine.views import viewer_of
    from annals.queries.pictures.annotations import load_notes
    from annals.queries.pictures.viewer import write_viewer
    from annals.queries.positions.gamelog import game_log

    with reported():
        view_name = view_named(view_name)
        viewer_of(view_name)
        output_file(output, inputs=[source], what="--output")  # never over a file, as every command
        database = db if db is not None else default_database()
        started = time.perf_counter()
        found = game_log(source, database)
        log = found.log
        notes = load_notes(found.path, log.header.game_id)
        reviewed, said = _review(found.path, log, review, iterations, view_name)
        size = write_viewer(log, output, view_name, notes, reviewed)
    if found.rebuilt:
        err.print(found.note(database), markup=False)
    ms = (time.perf_counter() - started) * 1000
    out.print(
        f"{output}: {log.header.ruleset} game {log.header.game_id}, {len(log.events)} events, {view_name} view, "
        f"{len(notes)} note(s) in the log's notes file, {size / 1024:.0f} KiB in {ms:.0f} ms",
        markup=False,
    )
    if said:
        err.print(said, markup=False)


def _review(path: Path, log: GameLog, wanted: bool | None, iterations: int, view: str) -> tuple[ReviewFile | None, str]:
    """The review the page shows (``wanted``: None the saved one if any, True made and saved if none, or if the
    saved one rates none of the seats ``view`` shows, False none), and a line to say about it."""
    from annals.queries.pictures.reviewgraph import StaleReviewError, saved_review, seats_shown

    if wanted is False:
        return None, ""
    try:
        found = saved_review(path, log.header.game_id, log.digest)
    except StaleReviewError as exc:
        if not wanted:
            return None, f"note: {exc}; the page has no review"
        found = None
    missing = [s for s in seats_shown(view) if found is None or s not in found.seats]
    if not wanted or (found is not None and not missing):
        return found, ""
    from annals.cli.review import review_progress
    from annals.queries.review import ReviewError, Thresholds, review_game, save_review
    from annals.schemas.review import ReviewFile

    seats = [0, 1] if found is None else missing  # the saved review's other seat is kept, at its own budget
    budget, thresholds = (iterations, Thresholds()) if found is None else (found.iterations, found.thresholds)
    started = time.perf_counter()
    try:
        with review_progress(f"review {path.name}") as step:
            reviews = review_game(log, seats=seats, iterations=budget, thresholds=thresholds, on_progress=step)
    except ReviewError as exc:  # a ruleset with no search bot yet: the page, without a review
        return None, f"note: {exc}; the page has no review"
    kept = [] if found is None else [r for r in found.decisions if r.seat not in seats]
    seats_made = sorted(set(seats) | {r.seat for r in kept})
    decisions = sorted([*kept, *reviews], key=lambda r: r.decision)
    made = ReviewFile(log.header.game_id, log.digest, log.header.ruleset, budget, thresholds, seats_made, decisions)
    ms = (time.perf_counter() - started) * 1000
    if found is None:
        said = f"review of {len(reviews)} decisions ({budget} iterations each) made in {ms:.0f} ms"
    else:
        whose = " and ".join(f"seat {s}" for s in seats)
        had = " and ".join(f"seat {s}" for s in found.seats) or "no seat"
        said = (
            f"review of {whose}'s {len(reviews)} decisions ({budget} iterations each, as the saved review of {had})"
            f" made in {ms:.0f} ms"
        )
    if not path.is_file():  # a log rebuilt from the database: nowhere beside it to keep the review
        return made, said
    saved = save_review(path, log, reviews, seats=seats, iterations=budget, thresholds=thresholds)
    return made, f"{said}, {'written to' if found is None else 'added to'} {saved} (the log {path} is unchanged)"


@app.command()
def annotate(
    log: Path = typer.Argument(..., help="A log file; the notes go to LOG.notes.json beside it."),
    text: str = typer.Argument(..., help="The note."),
    at: str = typer.Option(..., "--at", help="The coordinate: event:N, turn:T/STEP, damage:K, ... (as position)."),
    author: str = typer.Option("", "--author", help="Who wrote the note."),
    only: str = typer.Option("", "--only", help="Show it only in these views (comma-separated); default: all."),
) -> None:
    """Add a note at a coordinate of a game, in a side file next to the log (the log is never modified); the
    replay viewer shows it at its moment and as a mark on the timeline.

    Example: annals annotate games/miras9-00000007-*.log --at turn:5/attack "The wave that decides it."
    """
    from annals.queries.pictures.annotations import annotate as add_note

    views = [v.strip() for v in only.split(",") if v.strip()]
    with reported():
        path = add_note(log, at, text, author=author, views=views)
    out.print(f"note at {at} added to {path} (the log {log} is unchanged)", markup=False)


__all__ = ["annotate", "view"]
