"""Benchmark of the filtered reports: ``python -m bench.reports [--events N] [--dir DIR]``.

Makes logs of N events (default 10 million: real games copied under new headers, as ``bench.ingest`` does),
ingests them, then times ``card_metrics`` (the 17lands card metrics: filters, the two selection tables, the
aggregation, Wilson intervals in polars) plain, split ``--by agent`` and ``--by matchup`` and filtered ``--agent
heuristic --min-turns 5``, each beside a ceiling measured right after it: the same aggregation as one bare SQL query
over ``card_games`` with no filters, no selection tables and no polars. Goal: every variant within 2x of the ceiling
and under 200 ms. The plain run reads the report's rows stored at ingest (``card_metrics_summary``:
``ingest.summary``); the other three sum the cells stored at ingest (``card_metrics_cells``), each line says which.

The selection step alone (``queries.reports.filters``: ``select.sql`` making ``sel_games``/``sel_seats``) is timed built
afresh, as every report paid before selections were kept, and taken from those kept on the read-only connection;
then every report on the games (not the event reports) on one fresh connection, twice: the first pass builds
one selection per set of rulesets read, the second builds none.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import duckdb

from annals.ingest.loader import ingest
from annals.ingest.schema import open_database
from annals.queries.reports import run as reports
from annals.queries.reports.filters import Filters, build, select
from annals.queries.reports.run import REPORTS, run_report
from bench.ingest import CARD_METRICS_CEILING, fresh_database, make_logs, percentiles
from bench.timing import Work, run_in_work_folder

CEILING = CARD_METRICS_CEILING


# Every stage at tiny sizes: what the test suite runs, so that a change which breaks the benchmark fails there.
QUICK = ["--events", "3000", "--seed-games", "1", "--workers", "1", "--samples", "2"]


def run(work: Work) -> None:
    folder, workers = work.folder, work.workers
    total = make_logs(folder, work.events, work.seed_games)
    db = fresh_database(folder / "bench.duckdb")
    report = ingest([folder / "real", folder / "copies"], db, workers=workers)
    assert report.reconciled and report.events_stored == total, report
    con = open_database(db, read_only=True)
    games, rows = con.execute("SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM card_games)").fetchall()[0]
    print(f"{total:,} events, {games:,} games, {rows:,} card_games rows")

    def samples(fn: object, runs: int = min(7, work.samples)) -> list[float]:
        out = []
        for _ in range(runs):
            start = time.perf_counter()
            fn()  # type: ignore[operator]
            out.append(time.perf_counter() - start)
        return out

    ceiling = samples(lambda: con.execute(CEILING).fetchall())
    best_ceiling = min(ceiling)
    print(f"ceiling (bare SQL aggregation of card_games): {percentiles(ceiling)}")
    cells = con.execute("SELECT count(*) FROM card_metrics_cells").fetchall()[0][0]
    print(f"card_metrics_cells: {cells:,} rows ({cells / max(rows, 1):.3f} of card_games)")
    for label, filters in [
        ("card_metrics", Filters()),
        ("card_metrics --by agent", Filters(by="agent")),
        ("card_metrics --agent heuristic --min-turns 5", Filters(agent="heuristic", min_turns=5)),
        ("card_metrics --by matchup", Filters(by="matchup")),
    ]:
        timed = samples(lambda f=filters: run_report(con, "card_metrics", filters=f, min_games=0))
        again = samples(lambda: con.execute(CEILING).fetchall())  # the ceiling beside each run, same conditions
        best_ceiling = min(best_ceiling, *again)
        print(f"{label} [{_reads(con, filters)}]: {percentiles(timed)}; best {min(timed) * 1e3:.1f} ms = "
              f"{min(timed) / min(again):.2f}x the ceiling measured beside it ({min(again) * 1e3:.1f} ms; "
              f"goal < 2x and < 200 ms)")  # fmt: skip
    for label, filters in [("plain", Filters()), ("--by agent", Filters(by="agent"))]:
        built = samples(lambda f=filters: build(con, f, None))
        select(con, filters, None)
        kept = samples(lambda f=filters: select(con, f, None))
        print(f"selection {label}: built afresh {percentiles(built)}; kept {percentiles(kept)}; best "
              f"{min(built) * 1e3:.1f} ms -> {min(kept) * 1e3:.3f} ms")  # fmt: skip
    con.close()
    names = [n for n, s in REPORTS.items() if not s.event_tables]
    con = open_database(db, read_only=True)
    for run_no in (1, 2):
        start = time.perf_counter()
        for name in names:
            run_report(con, name, min_games=0 if REPORTS[name].sample_column else None)
        print(f"all {len(names)} game reports on one connection, pass {run_no}: {time.perf_counter() - start:.2f} s")
    con.close()


def _reads(con: duckdb.DuckDBPyConnection, f: Filters) -> str:
    """Which table ``card_metrics`` read for ``f``: the stored rows, the cells, or card_games."""
    if reports._summary_answers(con, f, "card_metrics"):
        return "card_metrics_summary"
    return "card_metrics_cells" if reports._cells_answer(con, f) else "card_games"


def main(argv: Sequence[str] | None = None) -> None:
    run_in_work_folder(__doc__, run, argv)


if __name__ == "__main__":
    main()
