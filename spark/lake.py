"""``annals export LAKE --spark MASTER --shards PATH``: archives into the Parquet lake, one Spark task per archive.

The lake has the tables and layout of the local export (``queries.export``: ``TABLE/ruleset=R/month=M/*.parquet``,
omniscient view) and the same ``manifest.json`` tables section (rows, integer-column sums, digest). Each task runs
ingest's own stages on its archive (``ingest.tables``, the C fast path where built: the same flattening, checks and
quarantine) up to the Arrow tables ingest would insert, and writes each table straight from them with the
export's own query (``table_query``) by DuckDB in memory: no rows go through a database file.
The games of an archive are numbered from a base the driver gives (the archives in name order, each after the
ones before), so a lake of archives built at once numbers games as one local ingest of them does.

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
import shutil
import tempfile
from pathlib import Path
from typing import Any, NamedTuple

import duckdb

from annals.ingest.schema import open_database
from annals.ingest.tables import Types, column_types, ingest_tables, staged
from annals.queries import sqlfiles
from annals.queries.export import OMNISCIENT, PARTITION, _readme, canonical_digest, table_query
from annals.schemas.archive import SUFFIX, archive_digest, read_index
from annals.schemas.errors import AnnalsError
from annals.spark import require
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


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    tmp.write_text(text)
    os.replace(tmp, path)


INTEGERS = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT")


def _counted(con: duckdb.DuckDBPyConnection, query: str) -> dict[str, Any]:
    """Rows and integer-column sums of ``query``, as ``queries.export.digest_of`` counts them, in one aggregate."""
    relation = con.sql(query)
    columns = [c for c, t in zip(relation.columns, relation.types, strict=True)
               if str(t) in INTEGERS and c not in PARTITION]  # fmt: skip
    sums = ", ".join(f'coalesce(sum("{c}"::BIGINT), 0)' for c in columns)
    row = con.execute(f"SELECT count(*){', ' + sums if sums else ''} FROM ({query})").fetchall()[0]
    return {"rows": int(row[0]), "sums": {c: int(v) for c, v in zip(columns, row[1:], strict=True)}}


def export_shard(shard: str, lake: str, first_game: int, digest: str, types: Types | None = None) -> dict[str, Any]:
    """One task: the archive at ``shard`` flattened as ingest flattens it (its games numbered from
    ``first_game``) and each table's rows written from Arrow into ``lake``; return its marker (also written to
    ``_shards/``). ``types``: the schema's column types (``ingest.tables.column_types``), sent by the driver."""
    name = Path(shard).name
    stem = name.removesuffix(SUFFIX)
    ingested = ingest_tables([shard], first_game=first_game)
    with tempfile.TemporaryDirectory(prefix="annals-lake-") as tmp:
        con = staged(ingested, types)
        tables: dict[str, Any] = {}
        out = Path(tmp) / "out"
        out.mkdir()
        try:
            con.execute(sqlfiles.load("export_keys"))
            for table in OMNISCIENT:
                query = table_query(table)
                con.execute(
                    f"COPY ({query}) TO '{out / table}' (FORMAT parquet, PARTITION_BY (ruleset, month), "
                    f"FILENAME_PATTERN '{stem}_{{i}}')"
                )
                tables[table] = _counted(con, query)
        finally:
            con.close()
        for file in sorted(out.rglob("*.parquet")):
            dest = Path(lake) / file.relative_to(out)
            dest.parent.mkdir(parents=True, exist_ok=True)
            part = dest.with_name(f".{dest.name}.tmp-{os.getpid()}")
            shutil.copyfile(file, part)
            os.replace(part, dest)
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


def export_to_lake(master: str, shards: list[Path], lake: Path) -> LakeExport:
    """Export the archives under ``shards`` (files or folders) into ``lake`` on Spark; see the module docstring."""
    require()
    archives = _archives(shards)
    if not archives:
        raise NoArchivesError(
            f"no archives (*{SUFFIX}) in {', '.join(map(str, shards))}; write them with annals simulate --shard-size"
        )
    lake.mkdir(parents=True, exist_ok=True)
    done = markers(lake)
    base = 1 + max((m["first_game"] + m["games"] - 1 for m in done.values()), default=0)
    todo: list[tuple[str, int, str]] = []
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
        todo.append((os.fspath(path), base, digest))
        base += len(archive.members)
    if todo:
        spark = session(master)
        target = os.fspath(lake.absolute())
        types = column_types()
        rdd = spark.sparkContext.parallelize(todo, len(todo))
        for marker in collect(rdd.map(lambda t: export_shard(t[0], target, t[1], t[2], types))):
            done[marker["shard"]] = marker
    manifest = manifest_of(done)
    _write_atomic(lake / MANIFEST, json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    with tempfile.TemporaryDirectory(prefix="annals-lake-") as tmp:
        con = open_database(Path(tmp) / "empty.duckdb")
        try:
            _write_atomic(lake / "README.md", _readme(con, list(OMNISCIENT), "omniscient"))
        finally:
            con.close()
    return LakeExport([Path(t[0]).name for t in todo], skipped, manifest)
