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

Last, what a user waits for: each command (``annals report card_metrics --by agent`` and the others above,
``card_winrate`` plain and split, and ``annals position GAME_ID --at 500 -f json`` from the database) run whole in a
fresh process, its wall and CPU time (the child's, from the operating system), beside its ceiling run the same way:
a fresh Python process that opens the database and runs the bare aggregation of the report's table (``CEILING`` or
``CARD_WINRATE_CEILING``), or for the position the bare point query of its rows (``bench.ingest``'s), so both pay
the start of a process and a cold database. ``fresh_commands(db)`` runs this part alone over a database already
built (``python -c "from bench.reports import fresh_commands; ..."``), for any installed ``annals``.
"""

from __future__ import annotations

import json
import os
import statistics
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
from bench.ingest import (
    BARE_POINT_QUERY,
    CARD_METRICS_CEILING,
    CARD_WINRATE_CEILING,
    fresh_database,
    make_logs,
    percentiles,
)
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


def fresh_commands(db: Path, runs: int = 5, annals: Path | None = None) -> None:
    """Each of ``COMMANDS`` as a user runs it (``annals report ... --db DB``, a fresh process each time) and one
    position from the database (``annals position GAME_ID --at 500 -f json``), each beside its ceiling run in a
    fresh process too, interleaved: best and median wall and CPU of ``runs`` each. ``annals``: the program to run
    (default: the one beside this Python, as ``pip install`` puts it)."""
    program = str(annals if annals is not None else Path(sys.executable).with_name("annals"))
    bare = [sys.executable, "-c", "import duckdb, json, sys; duckdb.connect(sys.argv[1], read_only=True)"
            ".execute(sys.argv[2], json.loads(sys.argv[3]) or None).fetchall()", str(db)]  # fmt: skip
    runs_of = [
        ([program, "report", *words, "--db", str(db), "--min-games", "0", "-f", "csv"], [*bare, ceiling, "[]"])
        for words, ceiling in COMMANDS
    ]
    con = duckdb.connect(str(db), read_only=True)
    found = con.execute(POSITION_GAME, [POSITION_AT]).fetchall()
    con.close()
    if found:  # the position's rows fetched by a bare point query (bench.ingest's ceiling of position_from_db)
        game, game_id = found[0]
        position = [program, "position", game_id, "--db", str(db), "--at", str(POSITION_AT), "-f", "json"]
        runs_of.append((position, [*bare, BARE_POINT_QUERY, json.dumps([game, POSITION_AT])]))
    print(f"fresh processes ({program}), {runs} runs each, load average {_load()}:")
    for command, ceiling in runs_of:
        timed, again = [], []
        for _ in range(runs):
            timed.append(_child(command))
            again.append(_child(ceiling))
        at = command.index("--db")
        print(f"  annals {' '.join(command[1:at])}: "
              f"{_best_median(timed)}; ceiling {_best_median(again)}: best CPU "
              f"{min(t[1] for t in timed) / min(t[1] for t in again):.2f}x, median CPU "
              f"{statistics.median(t[1] for t in timed) / statistics.median(t[1] for t in again):.2f}x")  # fmt: skip
    print(f"  load average after: {_load()}")


# The position a fresh ``annals position`` rebuilds from the database: event 500 of the first Miras 9 game as long.
POSITION_AT = 500
POSITION_GAME = "SELECT game, game_id FROM games WHERE ruleset = 'miras9' AND events > ? ORDER BY game LIMIT 1"


def _best_median(samples: list[tuple[float, float]]) -> str:
    wall, cpu = [t[0] * 1e3 for t in samples], [t[1] * 1e3 for t in samples]
    return (f"CPU best {min(cpu):.0f} / median {statistics.median(cpu):.0f} ms, wall best {min(wall):.0f} / median "
            f"{statistics.median(wall):.0f} ms")  # fmt: skip


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def _reads(con: duckdb.DuckDBPyConnection, f: Filters) -> str:
    """Which table ``card_metrics`` read for ``f``: the stored rows, the cells, or card_games."""
    if reports._summary_answers(con, f, "card_metrics"):
        return "card_metrics_summary"
    return "card_metrics_cells" if reports._cells_answer(con, f) else "card_games"


def main(argv: Sequence[str] | None = None) -> None:
    run_in_work_folder(__doc__, run, argv)


if __name__ == "__main__":
    main()
