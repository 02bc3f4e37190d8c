"""``annals export LAKE --spark MASTER --shards PATH``: archives into the Parquet lake, one Spark task per archive.

The lake has the tables and layout of the local export (``queries.export``: ``TABLE/ruleset=R/month=M/*.parquet``,
omniscient view) and the same ``manifest.json`` tables section (rows, integer-column sums, digest). Each task runs
ingest's own stages on its archive (``ingest.tables``, the C fast path where built: the same flattening, checks and
quarantine) up to the Arrow tables ingest would insert, and writes each table straight from them with the
export's own query (``table_query``) by DuckDB in memory: no rows go through a database file.
The games of an archive are numbered from a base the driver gives (the archives in name order, each after the
ones before, a quarantined game taking no number: ``build_lake``), so a lake of archives numbers games as one
local ingest of them does.

Appending is idempotent: each exported archive leaves a marker ``_shards/NAME.json`` (its games, counts, the
digest of its index), written last; an archive with a marker is skipped, an archive of that name with other
content is refused (``LakeConflictError``). A task's files get fixed names (``NAME_0.parquet``), copied under a
temporary name and renamed, so a retried task overwrites what a killed attempt left, never adds to it.

The lake must be a folder every executor can write: a local folder in local mode, a shared file system (or an
object store mounted as one) on a cluster. Reports read it with Spark itself, so ``s3a://`` URIs work there.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import quote

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from annals.ingest.schema import open_database
from annals.ingest.tables import Types, column_types, ingest_tables, staged, types_of
from annals.queries import sqlfiles
from annals.queries.export import OMNISCIENT, PARTITION, _readme, canonical_digest, table_query
from annals.schemas.archive import SUFFIX, archive_digest, read_index
from annals.schemas.errors import AnnalsError
from annals.spark import require
from annals.spark.session import collect, session

MANIFEST = "manifest.json"
MARKERS = "_shards"
JSON = pa.json_(pa.string())


class LakeConflictError(AnnalsError, ValueError):
    """An archive of a name the lake holds, with other games in it."""


class NoArchivesError(AnnalsError, FileNotFoundError):
    """--shards names no archive."""


class LakeExport(NamedTuple):
    exported: list[str]  # archives exported by this run
    skipped: list[str]  # archives the lake held already
    manifest: dict[str, Any]
    renumbered: list[str] = []  # archives the lake held, exported again to close a gap in the numbering


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    tmp.write_text(text)
    os.replace(tmp, path)


INTEGERS = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT")


def _counted(con: duckdb.DuckDBPyConnection, rows: pa.Table) -> dict[str, Any]:
    """Rows and integer-column sums of ``rows``, as ``queries.export.digest_of`` counts them, in one aggregate."""
    con.register("_counted", rows)
    try:
        relation = con.sql("SELECT * FROM _counted")
        columns = [c for c, t in zip(relation.columns, relation.types, strict=True)
                   if str(t) in INTEGERS and c not in PARTITION]  # fmt: skip
        sums = ", ".join(f'coalesce(sum("{c}"::BIGINT), 0)' for c in columns)
        row = con.execute(f"SELECT count(*){', ' + sums if sums else ''} FROM _counted").fetchall()[0]
    finally:
        con.unregister("_counted")
    return {"rows": int(row[0]), "sums": {c: int(v) for c, v in zip(columns, row[1:], strict=True)}}


def _hive(value: object) -> str:
    """A partition value as a folder name part, percent-encoded as DuckDB's ``PARTITION_BY`` encodes it."""
    return quote(str(value), safe="")


def _as_json(table: pa.Table, json_columns: set[str]) -> pa.Table:
    """Columns of the schema's JSON type as Arrow's JSON extension type (DuckDB hands them over as strings), so
    the Parquet files mark them JSON as DuckDB's own writer does."""
    for i, name in enumerate(table.column_names):
        if name in json_columns and not isinstance(table.schema.field(i).type, pa.JsonType):
            chunks = [pa.ExtensionArray.from_storage(JSON, c) for c in table.column(i).chunks]
            table = table.set_column(i, pa.field(name, JSON), pa.chunked_array(chunks, JSON))
    return table


def _with_keys(
    con: duckdb.DuckDBPyConnection, table: str, arrow: pa.Table | None, keys: pa.Table, json_columns: set[str]
) -> pa.Table | None:
    """``table_query(table)``'s rows made in Arrow, for a table ingest gave as Arrow rows already typed as the
    database types them (events, decisions: most of the rows): its rows with each game's partition keys looked up,
    where DuckDB would copy every value out again (about 0.2 us an event). None where the Arrow rows are not of the
    table's exact types, or the table has a column named like a key: then DuckDB runs the query."""
    if arrow is None or set(PARTITION) & set(arrow.column_names):
        return None
    typed = _as_json(con.sql(f"SELECT * FROM {table} LIMIT 0").to_arrow_table(), json_columns).schema
    if not arrow.schema.equals(typed):
        return None
    at = pc.index_in(arrow.column("game"), keys.column("game"))
    if at.null_count:  # a row of a game without keys: the query's inner join drops it
        return None
    for key in PARTITION:
        arrow = arrow.append_column(key, keys.column(key).take(at))
    return arrow


def write_partitioned(table: pa.Table, folder: Path, stem: str) -> list[Path]:
    """``table``'s rows as ``folder/KEY=V/KEY=V/STEM_0.parquet``, one file per value of its last two columns (the
    partition keys, as ``PARTITION_BY`` lays them out: the keys in the path, not in the file); each file written
    under a temporary name and renamed, so a retried task replaces what a killed attempt left. Returns the files."""
    keys = table.column_names[-len(PARTITION) :]
    rows = table.select(range(table.num_columns - len(PARTITION)))
    groups = table.select(keys).group_by(keys, use_threads=False).aggregate([])
    written = []
    for values in groups.to_pylist():
        part = rows
        if groups.num_rows > 1:
            mask = pc.and_(*(pc.equal(table.column(k), values[k]) for k in keys))
            part = rows.filter(mask)
        dest = folder.joinpath(*(f"{k}={_hive(values[k])}" for k in keys), f"{stem}_0.parquet")
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = dest.with_name(f".{dest.name}.tmp-{os.getpid()}")
        pq.write_table(part, tmp)
        os.replace(tmp, dest)
        written.append(dest)
    return written


def export_shard(shard: str, lake: str, first_game: int, digest: str, types: Types | None = None) -> dict[str, Any]:
    """One task: the archive at ``shard`` flattened as ingest flattens it (its games numbered from
    ``first_game``) and each table's rows written from Arrow into ``lake``; return its marker (also written to
    ``_shards/``). ``types``: the schema's column types (``ingest.tables.column_types``), sent by the driver.

    Each table's rows are the export's own query (``table_query``) run by DuckDB in memory over ingest's Arrow
    tables, taken as Arrow and written by pyarrow (``write_partitioned``): several times faster than DuckDB's
    ``COPY ... PARTITION_BY`` for the same files' columns, types and rows."""
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
            rows = _with_keys(con, table, ingested.tables.get(table), keys, json_columns)
            if rows is None:
                rows = _as_json(con.sql(f"SELECT * FROM ({table_query(table)})").to_arrow_table(), json_columns)
            write_partitioned(rows, Path(lake) / table, stem)
            tables[table] = _counted(con, rows)
    finally:
        con.close()
    report = ingested.report
    marker = {
        "shard": name, "path": shard, "digest": digest, "first_game": first_game, "games": report.games_added,
        "quarantined": report.quarantined, "tables": tables,
    }  # fmt: skip
    markers = Path(lake) / MARKERS
    markers.mkdir(parents=True, exist_ok=True)
    _write_atomic(markers / f"{stem}.json", json.dumps(marker, sort_keys=True))
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


def manifest_of(done: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The lake's manifest: the local export's tables section (rows, sums and digest, summed over the archives),
    and each archive's marker."""
    tables: dict[str, Any] = {}
    for table in OMNISCIENT:
        rows = sum(m["tables"][table]["rows"] for m in done.values())
        sums: dict[str, int] = {}
        for m in done.values():
            for column, value in m["tables"][table]["sums"].items():
                sums[column] = sums.get(column, 0) + value
        tables[table] = {"rows": rows, "sums": sums, "digest": canonical_digest(rows, sums)}
    quarantined = [line for m in done.values() for line in m["quarantined"]]
    return {"view": "omniscient", "partitioned_by": list(PARTITION), "tables": tables, "shards": done,
            "quarantined": quarantined}  # fmt: skip


@cache
def _schema() -> tuple[Types, str]:
    """The schema's column types (sent to the tasks) and the lake's README, from one database in memory."""
    con = open_database(":memory:")
    try:
        return types_of(con), _readme(con, list(OMNISCIENT), "omniscient")
    finally:
        con.close()


Task = tuple[str, int, str]  # an archive's path, the number of its first game, the digest of its index
Runner = Callable[[list[Task], Types], list[dict[str, Any]]]  # tasks run (in any order): their markers


class _Unit(NamedTuple):
    name: str
    path: str
    digest: str
    games: int  # its games as exported (its members until then: at least as many)
    first: int | None  # the number of its first game in the lake (None: not exported yet)


def build_lake(shards: list[Path], lake: Path, run: Runner) -> LakeExport:
    """Export the archives under ``shards`` into ``lake``, each task run by ``run`` (Spark's, or in this process).

    The archives are numbered as one local ingest of them numbers games: those the lake holds first (by their first
    game), then the new ones in name order, each game after the ones before. A new archive's count is not known
    before its task has checked every game (a damaged one is quarantined and takes no number), so each is first
    given room for all of its members; an archive whose first game then moves (a game before it quarantined) is
    exported again with its right number, its files and marker replaced. A lake left with a gap by an export
    stopped between the two is closed up the same way by the next export."""
    archives = _archives(shards)
    if not archives:
        raise NoArchivesError(
            f"no archives (*{SUFFIX}) in {', '.join(map(str, shards))}; write them with annals simulate --shard-size"
        )
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
    types, readme = _schema()
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
    manifest = manifest_of(done)
    _write_atomic(lake / MANIFEST, json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    _write_atomic(lake / "README.md", readme)
    return LakeExport(new, skipped, manifest, sorted(renumbered - set(new)))


def export_to_lake(master: str, shards: list[Path], lake: Path) -> LakeExport:
    """Export the archives under ``shards`` (files or folders) into ``lake`` on Spark, one task per archive; see
    the module docstring and ``build_lake``."""
    require()
    target = os.fspath(lake.absolute())

    def on_spark(todo: list[Task], types: Types) -> list[dict[str, Any]]:
        rdd = session(master).sparkContext.parallelize(todo, len(todo))
        return collect(rdd.map(lambda t: export_shard(t[0], target, t[1], t[2], types)))

    return build_lake(shards, lake, on_spark)
