"""``annals export LAKE --spark MASTER --shards PATH``: archives into the Parquet lake, one Spark task per archive.

The lake has the tables and layout of the local export (``queries.export``: ``TABLE/ruleset=R/month=M/*.parquet``,
omniscient view) and the same ``manifest.json`` tables section (rows, integer-column sums, digest). Each task runs
ingest's own stages on its archive (``ingest.tables``, the C fast path where built: the same flattening, checks and
quarantine) up to the Arrow tables ingest would insert, and writes each table from them with the export's own
query (``table_query``) by DuckDB in memory, the files by pyarrow (``spark.parquet``): no rows go through a
database file. Event folders give the tournament tables (``spark.lake_events``).
The games of an archive are numbered from a base the driver gives (the archives in name order, each after the
ones before, a quarantined game taking no number: ``build_lake``), so a lake of archives numbers games as one
local ingest of them does.

Appending is idempotent: each exported archive leaves a marker ``_shards/NAME.json`` (its games, counts, the
digest of its index), written last; an archive with a marker is skipped, an archive of that name with other
content is refused (``LakeConflictError``). A task's files get fixed names (``NAME_0.parquet``), written under a
temporary name and renamed, so a retried task overwrites what a killed attempt left, never adds to it.

The lake must be a folder every executor can write: a local folder in local mode, a shared file system (or an
object store mounted as one) on a cluster. Reports read it with Spark itself, so ``s3a://`` URIs work there.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import duckdb
import pyarrow as pa

from annals.ingest.schema import open_database
from annals.ingest.tables import Types, column_types, ingest_tables, staged, types_of
from annals.queries import sqlfiles
from annals.queries.export import EVENT_TABLES, OMNISCIENT, PARTITION, _readme, canonical_digest, table_query
from annals.schemas.archive import SUFFIX, archive_digest, read_index
from annals.schemas.errors import AnnalsError
from annals.spark import require
from annals.spark.lake_events import event_markers, export_events, open_event
from annals.spark.parquet import INTEGERS, as_json, counted, write_atomic, write_partitioned
from annals.spark.session import collect, session

MANIFEST = "manifest.json"
MARKERS = "_shards"


class LakeConflictError(AnnalsError, ValueError):
    """An archive of a name the lake holds, with other games in it."""


class NoArchivesError(AnnalsError, FileNotFoundError):
    """--shards names no archive."""


class LakeExport(NamedTuple):
    exported: list[str]  # archives exported by this run
    skipped: list[str]  # archives the lake held already
    manifest: dict[str, Any]
    renumbered: list[str] = []  # archives the lake held, exported again to close a gap in the numbering


def _typed(
    con: duckdb.DuckDBPyConnection, table: str, arrow: pa.Table | None, json_columns: set[str]
) -> pa.Table | None:
    """``table``'s rows as ingest gave them in Arrow, where they are already typed as the database types them
    (events, decisions: most of the rows), so they are written as they are, where DuckDB would copy every value
    out again (about 0.2 us an event); None where they are not (DuckDB then casts them)."""
    if arrow is None or set(PARTITION) & set(arrow.column_names):
        return None
    typed = as_json(con.sql(f"SELECT * FROM {table} LIMIT 0").to_arrow_table(), json_columns).schema
    return arrow if arrow.schema.equals(typed) else None


def export_shard(shard: str, lake: str, first_game: int, digest: str, types: Types | None = None) -> dict[str, Any]:
    """One task: the archive at ``shard`` flattened as ingest flattens it (its games numbered from
    ``first_game``) and each table's rows written from Arrow into ``lake``; return its marker (also written to
    ``_shards/``). ``types``: the schema's column types (``ingest.tables.column_types``), sent by the driver.

    Each table's rows are ingest's Arrow rows where they are typed as the database types them (``_typed``), else
    the export's own query (``table_query``) run by DuckDB in memory over them; they are split into partitions by
    their games' keys (``export_keys``, a row per game) and written by pyarrow (``write_partitioned``): several
    times faster than DuckDB's ``COPY ... PARTITION_BY`` for the same files' columns, types and rows."""
    types = types if types is not None else column_types()
    name = Path(shard).name
    stem = name.removesuffix(SUFFIX)
    ingested = ingest_tables([shard], first_game=first_game)
    con = staged(ingested, types, threads=1)  # a task is one core
    tables: dict[str, Any] = {}
    try:
        con.execute(sqlfiles.load("export_keys"))
        keys = con.sql("SELECT game, ruleset, month FROM export_keys").to_arrow_table()
        for table in OMNISCIENT:
            json_columns = {c for c, t in types[table] if t == "JSON"}
            rows, names = _typed(con, table, ingested.tables.get(table), json_columns), PARTITION
            if rows is None:  # the export's own query, less its keys (the last columns): split by game as above
                rows = con.sql(f"SELECT * FROM ({table_query(table)})").to_arrow_table()  # names made distinct
                names = tuple(rows.column_names[-len(PARTITION) :])
                rows = as_json(rows.select(range(rows.num_columns - len(PARTITION))), json_columns)
            write_partitioned(rows, keys, Path(lake) / table, stem, names)
            tables[table] = counted(rows)
    finally:
        con.close()
    report = ingested.report
    marker = {
        "shard": name, "path": shard, "digest": digest, "first_game": first_game, "games": report.games_added,
        "quarantined": report.quarantined, "tables": tables,
    }  # fmt: skip
    markers = Path(lake) / MARKERS
    markers.mkdir(parents=True, exist_ok=True)
    write_atomic(markers / f"{stem}.json", json.dumps(marker, sort_keys=True))
    return marker


def _archives(paths: list[Path]) -> list[Path]:
    found: set[Path] = set()
    for p in paths:
        p = p.absolute()
        found.update(p.rglob(f"*{SUFFIX}") if p.is_dir() else [p])
    return sorted(found)


def markers(lake: Path) -> dict[str, dict[str, Any]]:
    """The archives the lake holds, by name."""
    folder = lake / MARKERS
    if not folder.is_dir():
        return {}
    found = {}
    for f in sorted(folder.glob("*.json")):
        marker = json.loads(f.read_text())
        found[marker["shard"]] = marker
    return found


def _summed(table: str, counts: list[dict[str, Any]], types: Types) -> dict[str, Any]:
    """A table's rows and integer-column sums over its parts (every integer column, 0 where there are none), with
    their digest: what ``queries.export.digest_of`` gives for the whole table."""
    sums = {c: 0 for c, t in types[table] if t in INTEGERS and c not in PARTITION}
    for part in counts:
        for column, value in part["sums"].items():
            sums[column] = sums.get(column, 0) + value
    rows = sum(part["rows"] for part in counts)
    return {"rows": rows, "sums": sums, "digest": canonical_digest(rows, sums)}


def manifest_of(
    done: dict[str, dict[str, Any]], events: dict[str, dict[str, Any]] | None = None, types: Types | None = None
) -> dict[str, Any]:
    """The lake's manifest: the local export's tables section (rows, sums and digest, summed over the archives
    and, for the tournament tables, the events), and each archive's and event's marker."""
    types = types if types is not None else column_types()
    events = events or {}
    tables = {t: _summed(t, [m["tables"][t] for m in done.values()], types) for t in OMNISCIENT}
    tables.update({t: _summed(t, [m["tables"][t] for m in events.values()], types) for t in EVENT_TABLES})
    quarantined = [line for m in done.values() for line in m["quarantined"]]
    return {"view": "omniscient", "partitioned_by": list(PARTITION), "tables": tables, "shards": done,
            "events": events, "quarantined": quarantined}  # fmt: skip


Task = tuple[str, int, str]  # an archive's path, the number of its first game, the digest of its index
Runner = Callable[[list[Task], Types], list[dict[str, Any]]]  # tasks run (in any order): their markers


class _Unit(NamedTuple):
    name: str
    path: str
    digest: str
    games: int  # its games as exported (its members until then: at least as many)
    first: int | None  # the number of its first game in the lake (None: not exported yet)


def build_lake(shards: list[Path], lake: Path, run: Runner, events: Sequence[Path] = ()) -> LakeExport:
    """Export the archives under ``shards`` into ``lake``, each task run by ``run`` (Spark's, or in this process),
    and the tournament tables of the event folders ``events`` (``spark.lake_events``).

    The archives are numbered as one local ingest of them numbers games: those the lake holds first (by their first
    game), then the new ones in name order, each game after the ones before. A new archive's count is not known
    before its task has checked every game (a damaged one is quarantined and takes no number), so each is first
    given room for all of its members; an archive whose first game then moves (a game before it quarantined) is
    exported again with its right number, its files and marker replaced. A lake left with a gap by an export
    stopped between the two is closed up the same way by the next export."""
    archives = _archives(shards)
    if not archives and (shards or not events):
        raise NoArchivesError(
            f"no archives (*{SUFFIX}) in {', '.join(map(str, shards)) or 'no --shards'}; write them with annals "
            "simulate --shard-size"
        )
    stores = [open_event(folder) for folder in events]
    lake.mkdir(parents=True, exist_ok=True)
    done = markers(lake)
    units = [_Unit(m["shard"], m["path"], m["digest"], m["games"], m["first_game"])
             for m in sorted(done.values(), key=lambda m: m["first_game"])]  # fmt: skip
    skipped: list[str] = []
    for path in archives:
        archive = read_index(path)
        digest = archive_digest(archive)
        held = done.get(path.name)
        if held is not None:
            if held["digest"] != digest:
                raise LakeConflictError(
                    f"{path}: the lake holds an archive named {path.name} with other games (index digest "
                    f"{held['digest']}, this one {digest}); rename the archive or export into another lake"
                )
            skipped.append(path.name)
            continue
        units.append(_Unit(path.name, os.fspath(path), digest, len(archive.members), None))
    new = [u.name for u in units if u.first is None]
    con = open_database(":memory:")  # the schema: its column types (sent to the tasks), the README, event rows
    try:
        types = types_of(con)
        readme = _readme(con, [*OMNISCIENT, *EVENT_TABLES], "omniscient")
        held_events = {**event_markers(lake), **export_events(con, stores, lake, types)}
    finally:
        con.close()
    renumbered: set[str] = set()
    for _ in range(len(units) + 1):  # twice at most: every count is exact after the first run
        todo: list[Task] = []
        base = 1
        for u in units:
            if u.first != base:
                todo.append((u.path, base, u.digest))
                if u.first is not None:
                    renumbered.add(u.name)
            base += u.games
        if not todo:
            break
        for marker in run(todo, types):
            done[marker["shard"]] = marker
        units = [u._replace(games=done[u.name]["games"], first=done[u.name]["first_game"]) for u in units]
    manifest = manifest_of(done, held_events, types)
    write_atomic(lake / MANIFEST, json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    write_atomic(lake / "README.md", readme)
    return LakeExport(new, skipped, manifest, sorted(renumbered - set(new)))


def export_to_lake(master: str, shards: list[Path], lake: Path, events: Sequence[Path] = ()) -> LakeExport:
    """Export the archives under ``shards`` (files or folders) into ``lake`` on Spark, one task per archive, and
    the tournament tables of the event folders ``events``; see the module docstring and ``build_lake``."""
    require()
    target = os.fspath(lake.absolute())

    def on_spark(todo: list[Task], types: Types) -> list[dict[str, Any]]:
        rdd = session(master).sparkContext.parallelize(todo, len(todo))
        return collect(rdd.map(lambda t: export_shard(t[0], target, t[1], t[2], types)))

    return build_lake(shards, lake, on_spark, events)
