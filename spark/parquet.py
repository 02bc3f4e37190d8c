"""The lake's Parquet files written from Arrow by pyarrow, as DuckDB's ``COPY ... PARTITION_BY`` lays them out
(``write_partitioned``), and what the manifest counts of them (``counted``)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

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


def counted(rows: pa.Table) -> dict[str, Any]:
    """Rows and integer-column sums of ``rows`` (partition columns left out), as ``queries.export.digest_of``
    counts them: each sum by Arrow over the columns as they are, with no copy into a database."""
    sums = {}
    for field in rows.schema:
        if pa.types.is_integer(field.type) and field.name not in PARTITION:
            total = pc.sum(rows.column(field.name)).as_py()
            sums[field.name] = int(total) if total is not None else 0
    return {"rows": rows.num_rows, "sums": sums}


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


FIRST_GAME = b"annals.first_game"  # a lake file's key: the number its archive's games were numbered from


def write_file(table: pa.Table, dest: Path, first_game: int | None = None) -> None:
    """``table`` as the Parquet file ``dest``, written under a temporary name and renamed; with ``first_game``,
    the file says in its key-value metadata which number its archive's games start from (``renumber_file``)."""
    if first_game is not None:
        table = table.replace_schema_metadata({**(table.schema.metadata or {}), FIRST_GAME: str(first_game).encode()})
    tmp = dest.with_name(f".{dest.name}.tmp-{os.getpid()}")
    pq.write_table(table, tmp)
    os.replace(tmp, dest)


def renumber_file(path: Path, first_game: int) -> bool:
    """The lake file at ``path`` with its games numbered from ``first_game`` (its ``game`` column moved by the
    difference from the number it says it starts from), written in place; every other byte of its rows the same.
    Safe to repeat (a retried task): a file already moved is left. False when the file does not say its number."""
    table = pq.ParquetFile(path).read()
    said = (table.schema.metadata or {}).get(FIRST_GAME)
    if said is None:
        return False
    delta = first_game - int(said)
    if delta:
        at = table.schema.get_field_index("game")
        game = pc.add(table.column(at), pa.scalar(delta, table.schema.field(at).type))
        write_file(table.set_column(at, table.schema.field(at), game), path, first_game)
    return True


def _groups(keys: pa.Table) -> tuple[list[dict[str, Any]], pa.Array]:
    """The distinct partition values of the games in ``keys`` (game, then the keys: a row per game), in order of
    first appearance, and each game's (row of ``keys``) group among them."""
    values: list[dict[str, Any]] = []
    seen: dict[tuple[Any, ...], int] = {}
    group = []
    for parts in zip(*(keys.column(k).to_pylist() for k in PARTITION), strict=True):
        if parts not in seen:
            seen[parts] = len(values)
            values.append(dict(zip(PARTITION, parts, strict=True)))
        group.append(seen[parts])
    return values, pa.array(group, pa.int32())


MAX_RUNS = 4096  # more runs of rows than this (games of partitions interleaved finely): rows taken, not sliced


def partitions(rows: pa.Table, keys: pa.Table) -> list[tuple[dict[str, Any], pa.Table]]:
    """``rows`` (with a ``game`` column) split by their game's partition values (``keys``: game, ruleset, month,
    a row per game), in their order; rows of a game without keys are left out, as the export query's join leaves
    them out. A table's rows come game by game, so each partition is a few runs of rows, sliced without a copy."""
    values, of_game = _groups(keys)
    if rows.num_rows == 0 or not values:
        return []
    group = pc.take(of_game, pc.index_in(rows.column("game"), keys.column("game"))).combine_chunks()
    if len(values) == 1 and group.null_count == 0:
        return [(values[0], rows)]
    group = pc.fill_null(group, -1)
    changes = pc.indices_nonzero(pc.not_equal(group.slice(1), group.slice(0, len(group) - 1))).to_pylist()
    starts = [0, *(at + 1 for at in changes)]
    ends = [*starts[1:], len(group)]
    first = pc.take(group, pa.array(starts, pa.int64())).to_pylist()
    found = []
    for k, value in enumerate(values):
        if len(starts) <= MAX_RUNS:
            parts = [rows.slice(a, b - a) for a, b, g in zip(starts, ends, first, strict=True) if g == k]
            part = pa.concat_tables(parts) if parts else None
        else:
            part = rows.filter(pc.equal(group, k))
        if part is not None and part.num_rows:
            found.append((value, part))
    return found


def write_partitioned(
    rows: pa.Table, keys: pa.Table, folder: Path, stem: str, names: Sequence[str] = PARTITION, first_game: int = 1
) -> list[Path]:
    """``rows`` as ``folder/ruleset=R/month=M/STEM_0.parquet``, one file per partition of their games (``keys``,
    see ``partitions``), as ``PARTITION_BY`` lays them out: the keys in the path, not in the file; each file written
    under a temporary name and renamed, so a retried task replaces what a killed attempt left. ``names``: the keys'
    names in the path (the export query's names for them, ``PARTITION``'s: ``queries.export.table_query`` leaves
    a table's own ``ruleset`` to the path); ``first_game``: where the archive's numbers start (``write_file``).
    Returns the files."""
    written = []
    for values, part in partitions(rows, keys):
        path = (f"{name}={_hive(values[k])}" for name, k in zip(names, PARTITION, strict=True))
        dest = folder.joinpath(*path, f"{stem}_0.parquet")
        dest.parent.mkdir(parents=True, exist_ok=True)
        write_file(part, dest, first_game)
        written.append(dest)
    return written
