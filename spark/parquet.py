"""The lake's Parquet files written from Arrow by pyarrow, as DuckDB's ``COPY ... PARTITION_BY`` lays them out
(``write_partitioned``), and what the manifest counts of them (``counted``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import quote

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from annals.queries.export import PARTITION

JSON = pa.json_(pa.string())


def write_atomic(path: Path, text: str) -> None:
    """``text`` into ``path`` under a temporary name, then renamed: a reader sees the old file or the new."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    tmp.write_text(text)
    os.replace(tmp, path)


INTEGERS = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT")


def counted(con: duckdb.DuckDBPyConnection, rows: pa.Table) -> dict[str, Any]:
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


def as_json(table: pa.Table, json_columns: set[str]) -> pa.Table:
    """Columns of the schema's JSON type as Arrow's JSON extension type (DuckDB hands them over as strings), so
    the Parquet files mark them JSON as DuckDB's own writer does."""
    for i, name in enumerate(table.column_names):
        if name in json_columns and not isinstance(table.schema.field(i).type, pa.JsonType):
            chunks = [pa.ExtensionArray.from_storage(JSON, c) for c in table.column(i).chunks]
            table = table.set_column(i, pa.field(name, JSON), pa.chunked_array(chunks, JSON))
    return table


def write_file(table: pa.Table, dest: Path) -> None:
    """``table`` as the Parquet file ``dest``, written under a temporary name and renamed."""
    tmp = dest.with_name(f".{dest.name}.tmp-{os.getpid()}")
    pq.write_table(table, tmp)
    os.replace(tmp, dest)


def write_partitioned(table: pa.Table, folder: Path, stem: str) -> list[Path]:
    """``table``'s rows as ``folder/KEY=V/KEY=V/STEM_0.parquet``, one file per value of its last two columns (the
    partition keys, as ``PARTITION_BY`` lays them out: the keys in the path, not in the file); each file written
    under a temporary name and renamed, so a retried task replaces what a killed attempt left. Returns the files."""
    keys = table.column_names[-len(PARTITION) :]
    rows = table.select(range(table.num_columns - len(PARTITION)))
    distinct = [pc.unique(table.column(k)) for k in keys]
    if all(len(d) == 1 for d in distinct):  # most often: one ruleset, one month (no grouping to pay for)
        groups = pa.table(dict(zip(keys, distinct, strict=True)))
    else:
        groups = table.select(keys).group_by(keys, use_threads=False).aggregate([])
    written = []
    for values in groups.to_pylist():
        part = rows
        if groups.num_rows > 1:
            mask = pc.and_(*(pc.equal(table.column(k), values[k]) for k in keys))
            part = rows.filter(mask)
        dest = folder.joinpath(*(f"{k}={_hive(values[k])}" for k in keys), f"{stem}_0.parquet")
        dest.parent.mkdir(parents=True, exist_ok=True)
        write_file(part, dest)
        written.append(dest)
    return written
