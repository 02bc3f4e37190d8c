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

Last, what a user waits for: each command (``annals report card_metrics --by agent`` and the others above, and
``card_winrate`` plain and split) run whole in a fresh process, its wall and CPU time (the child's, from the
operating system), beside its ceiling run the same way: a fresh Python process that opens the database and runs the
bare aggregation of the report's table (``CEILING`` or ``CARD_WINRATE_CEILING``), so both pay the start of a process
and a cold database. ``fresh_commands(db)`` runs this part alone over a database already built.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import duckdb

from annals.ingest.loader import ingest
from annals.ingest.schema import open_database
from annals.queries.reports import run as reports
from annals.queries.reports.filters import Filters, build, select
from annals.queries.reports.run import REPORTS, run_report
from bench.ingest import CARD_METRICS_CEILING, CARD_WINRATE_CEILING, fresh_database, make_logs, percentiles
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
    fresh_commands(db, min(5, work.samples))


# What a user types (after ``annals report``), each with the bare aggregation of the table its full query reads.
COMMANDS = [
    (["card_metrics"], CEILING),
    (["card_metrics", "--by", "agent"], CEILING),
    (["card_metrics", "--by", "matchup"], CEILING),
    (["card_metrics", "--agent", "heuristic", "--min-turns", "5"], CEILING),
    (["card_winrate"], CARD_WINRATE_CEILING),
    (["card_winrate", "--by", "agent"], CARD_WINRATE_CEILING),
]


def _child(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system, from the operating system) of ``argv`` run to the end in a new process."""
    before = os.times()
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = os.times()
    return wall, (after.children_user - before.children_user) + (after.children_system - before.children_system)


def fresh_commands(db: Path, runs: int = 5) -> None:
    """Each of ``COMMANDS`` as a user runs it (``annals report ... --db DB``, a fresh process each time) beside its
    ceiling run in a fresh process too, interleaved; best wall and CPU of ``runs`` each."""
    annals = str(Path(sys.executable).with_name("annals"))
    for words, ceiling in COMMANDS:
        command = [annals, "report", *words, "--db", str(db), "--min-games", "0", "-f", "csv"]
        bare = [sys.executable, "-c", "import duckdb, sys; duckdb.connect(sys.argv[1], read_only=True)"
                ".execute(sys.argv[2]).fetchall()", str(db), ceiling]  # fmt: skip
        timed, again = [], []
        for _ in range(runs):
            timed.append(_child(command))
            again.append(_child(bare))
        wall, cpu = min(t[0] for t in timed), min(t[1] for t in timed)
        bare_wall, bare_cpu = min(t[0] for t in again), min(t[1] for t in again)
        print(f"fresh process: annals report {' '.join(words)}: best {wall * 1e3:.0f} ms wall, {cpu * 1e3:.0f} ms CPU; "
              f"ceiling (fresh process, bare SQL) {bare_wall * 1e3:.0f} ms wall, {bare_cpu * 1e3:.0f} ms CPU: "
              f"{wall / bare_wall:.2f}x wall, {cpu / bare_cpu:.2f}x CPU")  # fmt: skip


def _reads(con: duckdb.DuckDBPyConnection, f: Filters) -> str:
    """Which table ``card_metrics`` read for ``f``: the stored rows, the cells, or card_games."""
    if reports._summary_answers(con, f, "card_metrics"):
        return "card_metrics_summary"
    return "card_metrics_cells" if reports._cells_answer(con, f) else "card_games"


def main(argv: Sequence[str] | None = None) -> None:
    run_in_work_folder(__doc__, run, argv)


if __name__ == "__main__":
    main()
