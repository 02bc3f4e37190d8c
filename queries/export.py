"""A dataset for sharing, the way 17lands publishes game data: ``export(con, folder)`` writes one hive-partitioned
Parquet table per entity (``TABLE/ruleset=R/month=YYYY-MM/*.parquet``), a README with the data dictionary, and a
manifest of row counts and digests any Parquet reader can recompute.

A table's digest is the SHA-256 of the canonical JSON of ``{"rows": N, "sums": {column: sum}}`` over its integer
columns (partition columns excluded): order-free, so DuckDB, polars and pyarrow each recompute it from the files
(``digest_of``) and must agree with the database.

``view="spectator"`` exports only what a spectator may see: games and players (deck names, no lists), and each
event as the ruleset's own ``redact(event, -1)`` gives it (``public_events``: kind and fields as JSON), read
from the game's log file (or, when it is gone, the log rebuilt from the database: ``queries.positions.gamelog``, the
games' ids listed in the manifest's ``rebuilt_from_database``); no deck lists, decisions or card facts (they reveal
hands).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import polars as pl
import pyarrow as pa

from annals.engine.registry import get_ruleset
from annals.queries import sqlfiles
from annals.queries.names import EXPORT_VIEWS
from annals.queries.positions.gamelog import LogGoneError, logged_or_stored
from annals.queries.reports.dictionary import dictionary
from annals.schemas.errors import AnnalsError, UnknownNameError

VIEWS = EXPORT_VIEWS
OMNISCIENT = ("games", "players", "deck_cards", "events", "decisions", "card_games", "card_facts")
# The tournament tables an event folder fills (``ingest.events``), and the judge's records (``interventions``: the
# logs' judge frames, named by game id, and the events' match overrides): small, so one file each, not partitioned,
# and in the omniscient view only (seeds, deck lists; a judge's note may say what a hand held).
EVENT_TABLES = ("tournaments", "entrants", "rounds", "pairings", "matches", "match_games", "standings", "interventions")
SPECTATOR = ("games", "players")
PARTITION = ("ruleset", "month")
# The tables holding a partition key as a column of their own (``games.ruleset``, which ``export_keys`` takes the
# key from: the same value): the column is left to the path, as ``PARTITION_BY`` leaves every key there, so a hive
# reader gets one ``ruleset`` (an earlier annals wrote both, the key as ``ruleset_1``: ``spark.lake_layout``).
OWN_KEYS = {"games": ("ruleset",)}


class ExportError(AnnalsError, ValueError):
    """The export cannot be written as asked (a bad view, format, or a folder that is not empty)."""


def _canonical(rows: int, sums: dict[str, int]) -> str:
    return hashlib.sha256(json.dumps({"rows": rows, "sums": sums}, sort_keys=True).encode()).hexdigest()


def digest_of(frame: pl.DataFrame) -> dict[str, Any]:
    """Rows, integer-column sums and their digest for a frame read back from the export (partition columns and
    non-integer columns ignored)."""
    sums = {
        name: int(frame[name].cast(pl.Int64).sum())
        for name, dtype in frame.schema.items()
        if dtype.is_integer() and name not in PARTITION
    }
    return {"rows": frame.height, "sums": sums, "digest": _canonical(frame.height, sums)}


def _public_events(con: duckdb.DuckDBPyConnection, rebuilt: list[str] | None = None) -> pa.Table:
    """Every event as a spectator sees it: the ruleset's redaction of the logged event (viewer -1). A game whose log
    is gone is rebuilt from the database (``queries.positions.gamelog``) and its id appended to ``rebuilt``."""
    out: dict[str, list[Any]] = {k: [] for k in ("game", "n", "turn", "step", "player", "kind", "fields")}
    query = "SELECT game, game_id, file, ruleset FROM games ORDER BY game"
    for game, game_id, file, ruleset in con.execute(query).fetchall():
        rules = get_ruleset(ruleset)
        try:
            found = logged_or_stored(con, game_id, Path(file))
        except LogGoneError as gone:
            fix = "put the log back where it was ingested from (the database keeps that path)"
            raise ExportError(f"the spectator view needs each game's events, and {gone.what}; {fix}") from None
        if found.rebuilt and rebuilt is not None:
            rebuilt.append(game_id)
        for event in found.log.events:
            shown = rules.redact(event, -1)
            fields = msgspec.structs.asdict(shown)
            for key, value in (("game", game), ("n", shown.n), ("turn", shown.turn), ("step", shown.step),
                               ("player", shown.player), ("kind", type(shown).__name__)):  # fmt: skip
                out[key].append(value)
            rest = {k: v for k, v in fields.items() if k not in ("n", "turn", "step", "player")}
            out["fields"].append(msgspec.json.encode(rest).decode())
    types = [pa.int32(), pa.int32(), pa.int32(), pa.string(), pa.int8(), pa.string(), pa.string()]
    return pa.table({k: pa.array(v, t) for (k, v), t in zip(out.items(), types, strict=True)})


def table_query(table: str, view: str = "omniscient") -> str:
    """The rows of ``table`` in the dataset, with its partition keys (after ``export_keys`` has been made): one
    definition for the local export and the lake built on Spark (``annals.spark.lake``). A key the table holds
    itself (``OWN_KEYS``) is the path's alone, so the partition columns are named as ``PARTITION`` names them."""
    own = OWN_KEYS.get(table, ())
    columns = f"x.* EXCLUDE ({', '.join(own)})" if own else "x.*"
    if (view, table) == ("spectator", "players"):
        columns = "p.name, p.seat, p.agent, p.deck, p.game"
    alias = "p" if columns.startswith("p.") else "x"
    return f"SELECT {columns}, k.ruleset, k.month FROM {table} {alias} JOIN export_keys k USING (game)"


def event_query(table: str) -> str:
    """The rows of the tournament table ``table`` in the dataset (one definition for the local export and the
    lake's event files, ``annals.spark.lake_events``)."""
    return f"SELECT * FROM {table}"


def canonical_digest(rows: int, sums: dict[str, int]) -> str:
    """The digest of a table from its row count and integer-column sums (see the module docstring)."""
    return _canonical(rows, sums)


def export(con: duckdb.DuckDBPyConnection, folder: Path, *, view: str = "omniscient") -> dict[str, Any]:
    """Write the dataset into ``folder`` (created; it must be empty) and return the manifest written there."""
    if view not in VIEWS:
        raise UnknownNameError("view", view, VIEWS)
    if folder.exists() and any(folder.iterdir()):
        raise ExportError(f"{folder} is not empty; export into a new folder")
    folder.mkdir(parents=True, exist_ok=True)
    con.execute(sqlfiles.load("export_keys"))
    tables = list(OMNISCIENT if view == "omniscient" else SPECTATOR)
    rebuilt: list[str] = []
    if view == "spectator":
        con.register("public_events", _public_events(con, rebuilt))
        tables.append("public_events")
    manifest: dict[str, Any] = {"view": view, "partitioned_by": list(PARTITION), "tables": {}}
    for table in tables:
        query = table_query(table, view)
        target = folder / table
        con.execute(f"COPY ({query}) TO '{target}' (FORMAT parquet, PARTITION_BY (ruleset, month))")
        frame = con.sql(query).pl()
        manifest["tables"][table] = digest_of(frame)
    for table in EVENT_TABLES if view == "omniscient" else ():
        query = event_query(table)
        (folder / table).mkdir()
        con.execute(f"COPY ({query}) TO '{folder / table / 'data_0.parquet'}' (FORMAT parquet)")
        manifest["tables"][table] = digest_of(con.sql(query).pl())
        tables.append(table)
    if rebuilt:  # their logs were gone: said, as the commands that show one game say it
        manifest["rebuilt_from_database"] = rebuilt
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    (folder / "README.md").write_text(_readme(con, tables, view))
    return manifest


def _readme(con: duckdb.DuckDBPyConnection, tables: list[str], view: str) -> str:
    lines = [
        f"# annals dataset ({view} view)",
        "",
        "One folder per table, hive-partitioned by `ruleset` and `month` (the month the game's log was written);",
        "the tournament tables (`tournaments`, `entrants`, ..., omniscient view) are small and not partitioned.",
        "The keys are in the folder names alone (`games.ruleset` too), so read with hive partitioning to get them.",
        "Read with DuckDB `read_parquet('TABLE/**/*.parquet', hive_partitioning = true)`, polars",
        "`pl.scan_parquet('TABLE/**/*.parquet', hive_partitioning=True)` or `pyarrow.dataset.dataset('TABLE',",
        "partitioning='hive')`. `manifest.json` holds each table's rows, integer-column sums and their SHA-256",
        'digest (of the canonical JSON `{"rows": N, "sums": {...}}`) to check a copy against.',
        "",
        "## Data dictionary",
    ]
    frame = dictionary(con)
    for table in tables:
        lines.append(f"\n### {table}\n")
        rows = frame.filter(pl.col("table") == table)
        if rows.height == 0:
            lines.append("Each event as a spectator sees it (the ruleset's redaction): kind, and its fields as JSON.")
            continue
        for row in rows.iter_rows(named=True):
            lines.append(
                row["comment"] if row["column"] is None else f"- `{row['column']}` ({row['type']}): {row['comment']}"
            )
    return "\n".join(lines) + "\n"
