"""Benchmark of simulation on every core, on Spark, and of the lake: ``python -m bench.scale [--games G]
[--events N] [--master local[2]]``.

Prints, all measured in the same run:

* local simulate with ``--jobs 2`` against ``--jobs 1`` over G MORANA games (default 400), archives of 50 (goal:
  at least 1.8x; this machine has 2 cores shared with other work, so the figure is a floor);
* the same games on Spark (``simulate_on_spark``, ``--master``), the session already started, and its ratio to
  the local ``--jobs 2`` run (Spark's overhead per task: scheduling, a Python worker, results over a socket);
* export of archives holding N events (default 10 million) to the lake on Spark, events/s, and its ratio to a raw
  pyarrow Parquet write of the same rows (every lake table read back into Arrow, then written; goal: at least 50%),
  after a first export of the two smallest archives into another lake, so that the executors' Python workers have
  imported the lake's code (once per worker, as the session start is once per run: neither is counted);
* where one task's time goes (the largest archive, in this process): reading, checking and flattening its logs,
  the card tables' SQL, and writing its files (``spark.lake.export_shard``'s stages).

The archives for the export are made as ``bench.ingest`` makes logs: a few dozen real games, copied under new
game ids until there are N events, then packed into archives of 1,000 games.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import pyarrow.dataset as ds
import pyarrow.parquet as pq

from annals.engine.simulate import simulate
from annals.queries.export import PLAYED
from annals.schemas.archive import ArchiveWriter
from annals.schemas.logfile import LogReader
from bench.ingest import make_logs
from bench.timing import BenchFolderError

GAMES_PER_ARCHIVE = 1000
# Every stage at tiny sizes, for tests; the master the Spark tests start (``local[2,2]``), so that a test run of
# the whole suite reuses their session.
QUICK = ["--games", "4", "--events", "2000", "--seed-games", "1", "--master", "local[2,2]"]


def _timed_simulation(folder: Path, games: int, jobs: int) -> float:
    shutil.rmtree(folder, ignore_errors=True)
    start = time.perf_counter()
    list(simulate("morana", games, 1, None, ["random", "heuristic"], folder, jobs=jobs, shard_size=50))
    return time.perf_counter() - start


def bench_simulate(folder: Path, games: int, master: str) -> None:
    one = _timed_simulation(folder / "jobs1", games, 1)
    two = _timed_simulation(folder / "jobs2", games, 2)
    print(f"simulate {games} games: --jobs 1 {one:.2f}s ({games / one:.0f} games/s), --jobs 2 {two:.2f}s "
          f"({games / two:.0f} games/s): {one / two:.2f}x (goal >= 1.8x)")  # fmt: skip
    from annals.spark.session import session
    from annals.spark.simulate import simulate_on_spark

    start = time.perf_counter()
    session(master)
    started = time.perf_counter() - start
    simulate_on_spark(master, "morana", 10, 1, None, ["random", "heuristic"], folder / "warm", shard_size=5)
    start = time.perf_counter()
    simulate_on_spark(master, "morana", games, 1, None, ["random", "heuristic"], folder / "spark", shard_size=50)
    spark = time.perf_counter() - start
    same = all((folder / "spark" / p.name).read_bytes() == p.read_bytes() for p in sorted((folder / "jobs2").iterdir()))
    print(f"simulate on Spark {master}: {spark:.2f}s ({games / spark:.0f} games/s), {spark / two:.2f}x the local "
          f"--jobs 2 time (session start {started:.1f}s not counted); archives identical: {same}")  # fmt: skip


# What bench_lake writes beside the logs: cleared before each run, so a reused --dir keeps only the logs.
LAKE_OUTPUTS = ("shards", "warm", "lake", "one", "raw-*.parquet")


def make_archives(folder: Path, events: int, seed_games: int) -> int:
    """Archives of the logs ``make_logs`` makes (or an earlier run made for the same sizes, ``--dir``)."""
    for pattern in LAKE_OUTPUTS:
        for old in folder.glob(pattern) if folder.is_dir() else ():
            shutil.rmtree(old) if old.is_dir() else old.unlink()
    total = make_logs(folder, events, seed_games)
    logs = sorted((folder / "copies").glob("*.log")) + sorted((folder / "real").rglob("*.log"))
    shards = folder / "shards"
    shards.mkdir()
    for k in range(0, len(logs), GAMES_PER_ARCHIVE):
        with ArchiveWriter(shards / f"bench-{k // GAMES_PER_ARCHIVE:05d}.shard") as archive:
            for log in logs[k : k + GAMES_PER_ARCHIVE]:
                data = log.read_bytes()
                with LogReader(log) as reader:
                    archive.add(reader.header.game_id, data, data[-16:].hex())  # the chain digest ends the log
    return total  # the logs are kept: a run with the same --dir and sizes reuses them


def bench_lake(folder: Path, events: int, master: str, seed_games: int) -> None:
    from annals.spark.lake import export_to_lake

    total = make_archives(folder, events, seed_games)
    smallest = sorted((folder / "shards").iterdir(), key=lambda p: p.stat().st_size)[:2]
    start = time.perf_counter()
    export_to_lake(master, smallest, folder / "warm")  # the executors' Python workers import the lake's code
    warm = time.perf_counter() - start
    start = time.perf_counter()
    done = export_to_lake(master, [folder / "shards"], folder / "lake")
    seconds = time.perf_counter() - start
    stored = done.manifest["tables"]["events"]["rows"]
    raw = 0.0
    for table in PLAYED:
        rows = ds.dataset(folder / "lake" / table, format="parquet", partitioning="hive").to_table()
        begin = time.perf_counter()
        pq.write_table(rows, folder / f"raw-{table}.parquet")
        raw += time.perf_counter() - begin
    print(f"export to the lake on Spark {master}: {stored:,} of {total:,} events in {seconds:.1f}s "
          f"({stored / seconds:,.0f} events/s); a raw pyarrow write of the same rows {raw:.1f}s: "
          f"{raw / seconds:.0%} of the ceiling (goal >= 50%); a first export of two archives, the workers "
          f"importing, took {warm:.1f}s before, not counted")  # fmt: skip
    one_task(max((folder / "shards").iterdir(), key=lambda p: p.stat().st_size), folder / "one")


def one_task(shard: Path, lake: Path) -> None:
    """Where one task's time goes, for the largest archive, in this process: ``export_shard``'s three stages, each
    timed, the fastest of three runs."""
    from annals.ingest.tables import column_types, ingest_tables, staged
    from annals.spark.lake import write_tables

    types = column_types()
    runs = []
    for _ in range(3):
        shutil.rmtree(lake, ignore_errors=True)
        start = time.perf_counter()
        ingested = ingest_tables([shard])
        flattened = time.perf_counter()
        con = staged(ingested, types, threads=1)
        derived = time.perf_counter()
        write_tables(con, ingested, lake, shard.stem, 1, types)
        con.close()
        runs.append((flattened - start, derived - flattened, time.perf_counter() - derived))
    parts = min(runs, key=sum)
    events = ingested.report.events_stored
    print(f"one task, {shard.name} ({events:,} events), in this process: reading, checking and flattening "
          f"{parts[0]:.2f}s, the card tables' SQL {parts[1]:.2f}s, writing the files {parts[2]:.2f}s "
          f"({events / sum(parts):,.0f} events/s on one core)")  # fmt: skip


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--events", type=int, default=10_000_000)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--seed-games", type=int, default=24, help="real games per ruleset and deck pair")
    parser.add_argument("--dir", type=Path, default=None, help="Work folder (default: a temporary one, removed).")
    args = parser.parse_args(argv)
    folder = args.dir or Path(tempfile.mkdtemp(prefix="annals-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        shutil.rmtree(folder / "sim", ignore_errors=True)  # timed simulations write anew each run
        bench_simulate(folder / "sim", args.games, args.master)
        bench_lake(folder / "lake", args.events, args.master, args.seed_games)
    except BenchFolderError as e:
        parser.error(str(e))
    finally:
        if args.dir is None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
