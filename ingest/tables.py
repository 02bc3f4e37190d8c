"""Log files → the rows one ingest of them into an empty database would store, with no database file: Arrow tables
and an in-memory DuckDB connection that reads them under the tables' own names and types.

``ingest_tables`` runs ingest's own stages (``ingest.flatten`` on each chunk, the C fast path where built; the
loader's numbering, claims and quarantine; its batch tables) and stops where ingest would insert. ``staged`` then
gives a connection (DuckDB in memory) where each table is a view of its Arrow rows cast to the database's column
types (read from the schema itself, ``ingest.schema``) and the derived tables (``card_facts``, ``card_games``) are
made by ingest's SQL, so a query over it sees what it would see in a database ingested from the same logs. The
lake's tasks write their Parquet files from it (``annals.spark.lake``): no rows go through a database's storage.
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from functools import cache
from pathlib import Path
from typing import NamedTuple

import duckdb
import pyarrow as pa

from annals.ingest.claims import Claims
from annals.ingest.flatten import Bad, collect, gc_paused
from annals.ingest.loader import CHUNK_FILES, IngestReport, _chunks, _results, _Run, _tables
from annals.ingest.schema import CARD_TABLES, derive_card_tables, open_database

# The tables ingest fills from the logs (the batch's Arrow tables); it derives ``CARD_TABLES`` from them by SQL.
FILLED = {"games": "g", "players": "p", "deck_cards": "d", "game_dates": "t", "interventions": "j"}


class IngestedTables(NamedTuple):
    report: IngestReport  # as ``ingest.loader.ingest`` reports it
    tables: dict[str, pa.Table]  # games, players, deck_cards, game_dates, interventions, events, decisions (absent:
    # no rows)
    numbers: tuple[int, int] | None  # the first and last game number given to a game kept
    next_game: int = 1  # the number the next game would get (numbers of games withdrawn are not given again)
    bad: tuple[Bad, ...] = ()  # what went to quarantine, in order


# The claims error names: a log quarantined for another log's sake, not for damage of its own.
CLAIM_ERRORS = ("ConflictingLogsError", "ChangedLogError")


def ingest_tables(
    paths: Sequence[str | Path], *, first_game: int = 1, claims: Claims | None = None, withdrawn: Set[str] = frozenset()
) -> IngestedTables:
    """Read, verify and flatten the logs and archives ``paths`` as ``ingest`` does into an empty database whose
    games are numbered from ``first_game``; their rows as Arrow tables (one batch).

    ``claims``: the game ids other logs hold, as a database that had stored them would start (``ingest.claims``:
    a copy of one is skipped, another log of it withdraws it and is quarantined); ``withdrawn``: game ids whose log
    here a later log will conflict with: each is numbered and stored as ingest stores it, then withdrawn as that
    later log withdraws it (its number not given again; the quarantine line is the later log's to write)."""
    files = collect(paths)
    report = IngestReport(files=len(files))
    claims = claims if claims is not None else Claims([])
    run = _Run(report, claims, False, None)
    run.next_game = max(first_game, 1)
    with gc_paused():  # the games' headers and rows are thousands of objects without cycles: nothing to collect
        for chunk in _results(_chunks(files, CHUNK_FILES), claims.digests(), 1):
            run.take(chunk)
        return _ingested(run, report, withdrawn)


def _ingested(run: _Run, report: IngestReport, withdrawn: Set[str]) -> IngestedTables:
    """The one batch ``run`` gathered, its ``withdrawn`` games taken out, as Arrow tables."""
    batch = run.batch
    if withdrawn:
        kept = []
        for gno, meta in batch.games:
            if meta.header.game_id not in withdrawn:
                kept.append((gno, meta))
                continue
            batch.dropped.add(gno)
            report.games_added -= 1
            report.events_read -= meta.events
            report.events_stored -= meta.events
            report.decisions_stored -= meta.decisions
        batch.games = kept
    if batch.games or batch.bad:
        report.batches = 1
    made = _tables(batch)  # the chunks as they are: pyarrow writes them with no copy
    tables = {name: made.games[key] for name, key in FILLED.items() if key in made.games}
    for name, table in (("events", made.events), ("decisions", made.decisions)):
        if table is not None and table.num_rows:
            tables[name] = table
    return IngestedTables(report, tables, made.numbers, run.next_game, tuple(batch.bad))


Types = dict[str, tuple[tuple[str, str], ...]]  # table: its (column, DuckDB type) in order


@cache
def column_types() -> Types:
    """Each table's columns and DuckDB types, in order, as the schema makes them (once per process)."""
    con = open_database(":memory:")
    try:
        return types_of(con)
    finally:
        con.close()


def types_of(con: duckdb.DuckDBPyConnection) -> Types:
    """Each table's columns and DuckDB types, in order, in the database ``con``."""
    rows = con.execute(
        "SELECT table_name, column_name, data_type FROM duckdb_columns() WHERE schema_name = 'main' "
        "ORDER BY table_name, column_index"
    ).fetchall()
    types: dict[str, list[tuple[str, str]]] = {}
    for table, column, kind in rows:
        types.setdefault(table, []).append((column, kind))
    return {table: tuple(columns) for table, columns in types.items()}


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def staged(
    ingested: IngestedTables, types: Types | None = None, *, threads: int | None = None
) -> duckdb.DuckDBPyConnection:
    """An in-memory connection where ``games``, ``players``, ``deck_cards``, ``game_dates``, ``events`` and
    ``decisions`` are the Arrow rows typed as the database's, and ``card_facts``, ``card_games`` are derived by
    ingest's SQL; the caller closes it. ``types``: ``column_types()``, when the caller has it (a Spark driver
    sends it to its tasks, so no executor builds a schema). ``threads``: DuckDB's threads (default: every core)."""
    types = types if types is not None else column_types()
    con = duckdb.connect()
    try:
        con.execute("SET enable_progress_bar = false")
        if threads is not None:
            con.execute(f"SET threads = {int(threads)}")
        for table in (*FILLED, "events", "decisions"):
            columns = types[table]
            arrow = ingested.tables.get(table)
            if arrow is None:
                con.execute(f"CREATE TEMP TABLE {table} ({', '.join(f'{_quoted(c)} {t}' for c, t in columns)})")
                continue
            con.register(f"_arrow_{table}", arrow)
            cast = ", ".join(f"CAST({_quoted(c)} AS {t}) AS {_quoted(c)}" for c, t in columns)
            con.execute(f"CREATE TEMP VIEW {table} AS SELECT {cast} FROM _arrow_{table}")
        for table in CARD_TABLES:
            con.execute(f"CREATE TEMP TABLE {table} ({', '.join(f'{_quoted(c)} {t}' for c, t in types[table])})")
        if ingested.numbers is not None:
            derive_card_tables(con, *ingested.numbers)
    except BaseException:
        con.close()
        raise
    return con
