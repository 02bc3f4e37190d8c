"""Benchmark of the analysis layer: ``python -m bench.ingest [--events N] [--dir DIR]``.

Prints, all measured in the same run:

* ingest events/s over N events (default 10 million) and its ratio to a raw Arrow → DuckDB insert of the same rows
  into a fresh file database (the ceiling; goal ≥ 60%, issue 31);
* position rebuild latency from a log (snapshot seek + fold, goal < 1 ms) and from the database (the SQL
  ``position()`` macro under ``queries.positions.timeline.point_queries``: one thread, fewer optimizer passes; goal < 5
  ms), median and 99th percentile over random events of random games;
* the card reports' latency, wall and CPU clock (goal < 200 ms, and within 2x of their ceilings, the same counts as
  one bare aggregation of the report's table): ``card_metrics`` beside ``CARD_METRICS_CEILING`` over ``card_games``
  (the report, run with no filter as here, reads its own rows derived after ingest, ``card_metrics_summary``:
  ``ingest.summary``), ``card_winrate`` beside ``CARD_WINRATE_CEILING`` over ``card_facts`` (the report
  reads ``card_summary``, its counts per seat context derived after ingest, whenever its filters allow:
  ``ingest.summary``; so does this run).

The logs are made quickly: a few dozen real Miras 9 and MORANA games are simulated, then copied frame for frame
under new headers (new seeds, their derived game ids) until there are N events. Ingest reads, verifies, validates
and stores every copy as it would any log (its checks hold: the records agree with each other; only a re-run, which
ingest makes with --replay alone, would see that the events are not the new seed's); the position timings use the
simulated games.
"""

from __future__ import annotations

import os
import shutil
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import duckdb
import msgspec

from annals.engine.rng import Rng
from annals.engine.simulate import simulate
from annals.ingest import columnar
from annals.ingest.loader import ingest
from annals.ingest.schema import open_database
from annals.queries.positions.timeline import Timeline, point_queries, position_from_db, position_from_macro
from annals.queries.reports.run import run_report
from annals.schemas.header import LogClose, game_id_of
from annals.schemas.logfile import LogReader, LogWriter
from bench.timing import BenchFolderError, Work, run_in_work_folder

BARE_POINT_QUERY = "SELECT n, card, cards, dst, counter, holder, value FROM events WHERE game = ? AND n <= ?"
CARD_WINRATE_CEILING = """
SELECT g.ruleset, f.card_id,
       count(*) FILTER (WHERE f.opening_hand), count(*) FILTER (WHERE f.opening_hand AND g.winner = f.seat),
       count(*) FILTER (WHERE f.drawn), count(*) FILTER (WHERE f.drawn AND g.winner = f.seat),
       count(*) FILTER (WHERE f.played), count(*) FILTER (WHERE f.played AND g.winner = f.seat),
       count(*), count(*) FILTER (WHERE g.winner = f.seat), avg(g.turns)
FROM card_facts f JOIN games g USING (game) WHERE g.winner >= 0 GROUP BY ALL
"""
# The same counts as card_metrics' main ones, as one bare aggregation of card_games (bench.reports' ceiling too).
CARD_METRICS_CEILING = """
SELECT g.ruleset, c.card_id, count(*), count(*) FILTER (WHERE g.winner = c.seat),
       count(*) FILTER (WHERE c.opening_hand), count(*) FILTER (WHERE c.drawn),
       count(*) FILTER (WHERE c.opening_hand OR c.drawn), count(*) FILTER (WHERE c.played),
       count(*) FILTER (WHERE c.used)
FROM card_games c JOIN games g USING (game) WHERE g.winner >= 0 GROUP BY ALL
"""
SEED_DECKS = {"miras9": ["bastion", "tempest", "vanguard", "wayfarer"], "morana": ["clash", "glory"]}
# Every stage at tiny sizes: what the test suite runs, so that a change which breaks the benchmark fails there.
QUICK = ["--events", "3000", "--seed-games", "1", "--workers", "1", "--samples", "20"]


def _batches(path: Path) -> tuple[Any, list[tuple[list[Any], list[Any]]], LogClose]:
    with LogReader(path) as reader:
        frames = [(b.events, b.decisions) for b in reader.batches()]
        assert reader.close_record is not None
        return reader.header, frames, reader.close_record


LOGS_MADE = "logs.json"  # written once the logs are complete: what they were made for, and their event count
# What a run of bench.ingest or bench.reports leaves in its folder (cleared before logs are made anew).
OUR_ENTRIES = ("real", "copies", LOGS_MADE, "bench.duckdb*", "raw-*.duckdb*")


def _reusable_logs(folder: Path, events: int, seed_games: int) -> int | None:
    """The event count of logs a previous run left in ``folder`` for the same ``events`` and ``seed_games``, else
    ``None`` (after clearing what such a run left; a folder holding anything else is refused)."""
    if not folder.exists() or not any(folder.iterdir()):
        return None
    try:
        made = msgspec.json.decode((folder / LOGS_MADE).read_bytes())
        if made["events"] == events and made["seed_games"] == seed_games and (folder / "copies").is_dir():
            print(f"reusing the logs in {folder} ({made['total']:,} events, made by an earlier run)")
            return int(made["total"])
    except (OSError, msgspec.DecodeError, KeyError, TypeError):
        pass
    foreign = [p.name for p in folder.iterdir() if not any(p.match(pattern) for pattern in OUR_ENTRIES)]
    if foreign:
        raise BenchFolderError(
            f"--dir {folder} holds files a benchmark run did not make ({', '.join(sorted(foreign)[:5])}): "
            "give a new or empty folder, or one an earlier bench.ingest or bench.reports run used"
        )
    print(f"clearing {folder}: an earlier run's logs for other sizes (or unfinished) are made anew")
    for entry in folder.iterdir():
        if entry.is_dir():
            shutil.rmtree(entry)
        else:
            entry.unlink()
    return None


def fresh_database(path: Path) -> Path:
    """``path`` with no database there (an earlier run's, in a reused folder, is removed with its WAL)."""
    for old in (path, path.with_name(path.name + ".wal")):
        old.unlink(missing_ok=True)
    return path


def make_logs(folder: Path, events: int, seed_games: int = 24) -> int:
    """Simulate a few real games of each ruleset (``seed_games`` per deck pair), then write copies of them under
    new game ids (same frames, new header) until the logs hold at least ``events`` events; return the exact
    count. Logs an earlier run made in ``folder`` for the same arguments are reused (``--dir``)."""
    reused = _reusable_logs(folder, events, seed_games)
    if reused is not None:
        return reused
    real = folder / "real"
    for name, decks in SEED_DECKS.items():
        list(simulate(name, seed_games, 1, decks[:2], ["heuristic", "random"], real / name))
        if len(decks) > 2:
            list(simulate(name, seed_games, 101, decks[2:4], ["random", "heuristic"], real / name))
    seeds = [_batches(p) for p in sorted(real.rglob("*.log"))]
    synth = folder / "copies"
    synth.mkdir()
    total = sum(close.events for _, _, close in seeds)
    i = 0
    while total < events:
        header, frames, close = seeds[i % len(seeds)]
        header = msgspec.structs.replace(header, seed=10_000 + i, game_id="")
        header = msgspec.structs.replace(header, game_id=game_id_of(header))  # ingest checks the id
        writer = LogWriter(synth / f"{header.ruleset}-{header.game_id}.log", header)
        for batch_events, batch_decisions in frames:
            writer.write_batch(batch_events, batch_decisions)
        writer.close(close)
        total += close.events
        i += 1
    made = {"events": events, "seed_games": seed_games, "total": total}
    (folder / LOGS_MADE).write_bytes(msgspec.json.encode(made))
    return total


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def percentiles(samples: list[float]) -> str:
    samples = sorted(samples)
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    return f"median {statistics.median(samples) * 1e3:.3f} ms, p99 {p99 * 1e3:.3f} ms"


def raw_insert_seconds(db: Path, folder: Path, name: str) -> tuple[tuple[float, float], int]:
    """The ceiling: the same rows of table ``name``, already in Arrow, inserted into a fresh file database; its wall
    and CPU seconds, and the row count."""
    con = duckdb.connect(str(db), read_only=True)
    table = con.sql(f"SELECT * FROM {name}").to_arrow_table()
    con.close()
    raw = duckdb.connect(str(fresh_database(folder / f"raw-{name}.duckdb")))
    raw.register("rows_in", table)
    raw.execute(f"CREATE TABLE {name} AS SELECT * FROM rows_in LIMIT 0")
    start, cpu = time.perf_counter(), time.process_time()
    raw.execute("BEGIN TRANSACTION")
    raw.execute(f"INSERT INTO {name} SELECT * FROM rows_in")
    raw.execute("COMMIT")
    raw.execute("CHECKPOINT")
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    raw.close()
    return (seconds, cpu), table.num_rows


def main(argv: Sequence[str] | None = None) -> None:
    run_in_work_folder(__doc__, run, argv)


def run(work: Work) -> None:
    folder, events, workers = work.folder, work.events, work.workers
    samples = work.samples
    print(f"benchmark folder: {folder}")
    seconds, total = timed(lambda: make_logs(folder, events, work.seed_games))
    print(f"wrote logs with {total:,} events in {seconds:.1f}s")
    os.sync()  # the logs just written are flushed now, not by the kernel while ingest is being timed
    db = fresh_database(folder / "bench.duckdb")

    def checkpointed() -> Any:
        report = ingest([folder / "real", folder / "copies"], db, workers=workers)
        con = duckdb.connect(str(db))
        con.execute("CHECKPOINT")
        con.close()
        return report

    cpu_start = time.process_time()  # every thread of this process: ingest's and DuckDB's
    ingest_s, report = timed(checkpointed)
    ingest_cpu = time.process_time() - cpu_start
    assert report.reconciled and report.events_stored == total, report
    os.sync()
    (raw_s, raw_cpu), rows = raw_insert_seconds(db, folder, "events")
    (raw_d, _), decisions = raw_insert_seconds(db, folder, "decisions")
    ingest_rate, raw_rate = total / ingest_s, rows / raw_s
    how = "threads over the C parser" if columnar.enabled() else "worker processes, pure Python"
    print(f"ingest: {total:,} events in {ingest_s:.1f}s = {ingest_rate:,.0f} events/s ({workers} {how})")
    print(f"raw Arrow -> DuckDB insert of the same {rows:,} event rows: {raw_s:.2f}s = {raw_rate:,.0f} rows/s")
    print(f"ingest / raw insert: {ingest_rate / raw_rate:.1%} (goal >= 60%); on the CPU clock (all threads) "
          f"ingest {ingest_cpu:.1f}s, raw insert {raw_cpu:.1f}s: {raw_cpu / ingest_cpu:.1%}")  # fmt: skip
    print(
        f"  (ingest also stores {decisions:,} decision rows, whose raw insert takes {raw_d:.2f}s more: against "
        f"the raw insert of every event and decision row, ingest runs at {(raw_s + raw_d) / ingest_s:.1%})"
    )

    rng = Rng(7)
    timelines = [Timeline.from_file(p) for p in sorted((folder / "real").rglob("*.log"))]
    log_samples = []
    for _ in range(samples):
        t = timelines[rng.below(len(timelines))]
        count = rng.below(len(t.events) + 1)
        start = time.perf_counter()
        t.position(count)
        log_samples.append(time.perf_counter() - start)
    print(f"position from a log (snapshot every {timelines[0].every} events + fold): {percentiles(log_samples)} "
          "(goal < 1 ms)")  # fmt: skip

    con = open_database(db, read_only=True)
    games = con.execute("SELECT game, game_id, events FROM games ORDER BY game").fetchall()

    # Random (game, event) pairs: the first query on a game's row group also reads its blocks from the file (~0.7
    # ms more), and with 18,888 games in ~80 row groups about one query in 25 of these is such a first read. Each
    # pair is asked two ways, in a random order (the first to touch a row group pays its read): the ceiling, a bare
    # point query of the rows the position is folded from, by game number; and position_from_db, or in a run of
    # its own the macro (whose scans, interleaved, slow the other two).
    def ceiling(game: int, _: str, n: int) -> Any:
        return con.execute(BARE_POINT_QUERY, [game, n]).fetchall()

    runs: dict[str, Callable[[int, str, int], Any]] = {
        "position_from_db": lambda _, game_id, n: position_from_db(con, game_id, n),
        "macro": lambda _, game_id, n: position_from_macro(con, game_id, n),
    }
    print(f"position from the database ({len(games):,} games, {total:,} events, point-query settings, load "
          f"{os.getloadavg()[0]:.1f}):")  # fmt: skip
    with point_queries(con):
        for name, way in runs.items():
            ways = {"ceiling": ceiling, name: way}
            for _ in range(samples):  # untimed: the first lookups read the game_id index from the file, slowly
                game, game_id, n_events = games[rng.below(len(games))]
                for fn in ways.values():
                    fn(game, game_id, rng.below(n_events))
            db_samples: dict[str, list[float]] = {k: [] for k in ways}
            for _ in range(samples):
                game, game_id, n_events = games[rng.below(len(games))]
                n = rng.below(n_events)
                order = list(ways)
                rng.shuffle(order)
                for k in order:
                    start = time.perf_counter()
                    ways[k](game, game_id, n)
                    db_samples[k].append(time.perf_counter() - start)
            best = statistics.median(db_samples["ceiling"])
            print(f"  {name}: {percentiles(db_samples[name])}; bare point query of the same rows (the ceiling) "
                  f"{percentiles(db_samples['ceiling'])}; median {statistics.median(db_samples[name]) / best:.2f}x "
                  "the ceiling (goal <= 1.2x, < 5 ms)")  # fmt: skip

    def card_metrics() -> Any:
        return run_report(con, "card_metrics", min_games=0)

    card_metrics()  # untimed: the first read of card_games from the file
    reports: list[tuple[str, Callable[[], Any], str, str]] = [
        ("card_metrics", card_metrics, CARD_METRICS_CEILING, "card_games"),
        ("card_winrate", lambda: run_report(con, "card_winrate"), CARD_WINRATE_CEILING, "card_facts"),
    ]
    for name, report_of, ceiling_sql, table in reports:
        walls: dict[str, list[float]] = {"report": [], "ceiling": []}
        cpus: dict[str, list[float]] = {"report": [], "ceiling": []}
        for _ in range(11):  # interleaved, medians: five swung 2x from one run to the next on a busy machine

            def bare(sql: str = ceiling_sql) -> Any:
                return con.execute(sql).fetchall()

            pair: list[tuple[str, Callable[[], Any]]] = [("ceiling", bare), ("report", report_of)]
            for k, measured in pair:
                start, cpu = time.perf_counter(), time.process_time()
                measured()
                walls[k].append(time.perf_counter() - start)
                cpus[k].append(time.process_time() - cpu)
        ratio = statistics.median(walls["report"]) / statistics.median(walls["ceiling"])
        cpu_ratio = statistics.median(cpus["report"]) / statistics.median(cpus["ceiling"])
        print(f"{name} report over {total:,} events: {percentiles(walls['report'])} (goal < 200 ms); bare "
              f"aggregation of {table} (the ceiling) {percentiles(walls['ceiling'])}; median {ratio:.2f}x the "
              f"ceiling (goal <= 2x); CPU medians {statistics.median(cpus['report']) * 1e3:.1f} ms / "
              f"{statistics.median(cpus['ceiling']) * 1e3:.1f} ms = {cpu_ratio:.2f}x, load "
              f"{os.getloadavg()[0]:.1f}")  # fmt: skip
    con.close()


if __name__ == "__main__":
    main()
