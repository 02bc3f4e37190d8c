"""``annals ingest``: log files and folders into the DuckDB database."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from annals.cli.app import app, fail, out, reported

if TYPE_CHECKING:
    from annals.ingest.loader import IngestReport
from annals.schemas.files import default_database, default_games, expand


def summary(report: IngestReport, db: Path, seconds: float) -> list[str]:
    rate = report.events_read / seconds if seconds > 0 else 0.0
    lines = [
        f"{report.files} files: {report.games_added} games added, {report.games_skipped} already stored, "
        f"{report.files_quarantined} quarantined ({report.batches} batches, {rate:,.0f} events/s)",
        f"events read {report.events_read} = stored {report.events_stored} + already stored "
        f"{report.events_skipped} + in quarantined files {report.events_quarantined}"
        + ("" if report.reconciled else "  (DOES NOT RECONCILE)"),
    ]
    if report.games_superseded:
        lines.append(
            f"{report.games_superseded} stored games superseded by their logs grown since (judge's records, a "
            "signature or a resumed game appended); what they said is in game_history"
        )
    if report.games_withdrawn:
        lines.append(
            f"{report.games_withdrawn} stored games ({report.events_withdrawn} events) withdrawn: another log claims "
            "the same game id with other contents"
        )
    lines += [f"quarantined: {line}" for line in report.quarantined]
    if report.reviews_loaded or report.reviews_skipped:
        lines.append(
            f"decision reviews: {report.reviews_loaded} loaded ({report.review_rows} decisions, replacing any stored "
            f"for those games), {len(report.reviews_skipped)} skipped"
        )
    lines += [f"review skipped: {line}" for line in report.reviews_skipped]
    lines.append(f"database: {db}")
    return lines


@app.command()
def ingest(
    paths: list[Path] | None = typer.Argument(
        None,
        metavar="PATH",
        help="Log files, glob patterns, folders searched recursively for *.log, or event folders (their games "
        "and tournament tables); default: ANNALS_HOME/games.",
        show_default=False,
    ),
    db: Path | None = typer.Option(
        None, "--db", help="The DuckDB file, created when missing (default: ANNALS_HOME/annals.duckdb)."
    ),
    strict: bool = typer.Option(False, "--strict", help="Stop at the first bad file instead of quarantining it."),
    workers: int = typer.Option(2, "--workers", min=1, help="Threads (processes without the C code) decoding logs."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    replay: bool = typer.Option(
        False,
        "--replay",
        help="Also re-run every game as verify does (several times slower); quarantine any that differ.",
    ),
) -> None:
    """Ingest logs into the DuckDB database.

    Idempotent (a game already stored is skipped), one transaction per batch, a bad file quarantined with the
    reason.

    Every log is checked as it is read (checksums, chain, header, numbering, and its closing record against its
    events); --replay also re-runs each game, so that ingest stores exactly what verify accepts.

    A decision review saved beside a log (`annals review LOG --save`: LOG.review.json) is loaded into the
    decision_reviews table, replacing that game's rows; one that cannot be loaded is named and skipped.

    Example: annals ingest games/ --db annals.duckdb
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from annals.ingest.events import ingest_events, split_paths
    from annals.ingest.loader import ingest as run_ingest
    from annals.ingest.schema import open_database

    with reported():
        sources, events = split_paths(expand(paths) if paths else [default_games()])
    target = db if db is not None else default_database()
    start = time.perf_counter()
    with reported(), Progress(
        TextColumn("ingest"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(), disable=quiet or not out.is_terminal, transient=True,
    ) as progress:  # fmt: skip
        task = progress.add_task("files", total=None, rate="")

        def files(total: int) -> None:
            progress.update(task, total=total)

        def step(done: int, events: int) -> None:
            elapsed = max(time.perf_counter() - start, 1e-9)
            progress.update(task, completed=done, rate=f"{events:,} events, {events / elapsed:,.0f}/s")

        if db is None:
            target.parent.mkdir(parents=True, exist_ok=True)
        report = run_ingest(
            sources, target, strict=strict, workers=workers, on_progress=step, on_files=files, replay=replay
        )
        if events:
            con = open_database(target)
            try:
                ingest_events(con, events)
            finally:
                con.close()
    for line in summary(report, target, time.perf_counter() - start):
        out.print(line, markup=False)
    for store in events:
        out.print(f"event {store.config().event_id}: tournament tables written from {store.folder}", markup=False)
    if not report.reconciled:
        fail("event counts do not reconcile; this is a bug in annals, please report it")
