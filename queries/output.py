"""Read-only SQL over the database, and frames written as a table, CSV, JSON or Parquet."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pyarrow.parquet as pq

from annals.ingest.schema import open_database
from annals.schemas.errors import AnnalsError

FORMATS = ("table", "csv", "json", "parquet")


class ReadOnlyError(AnnalsError, PermissionError):
    """A query tried to change the database through the read-only connection."""


class QueryError(AnnalsError, ValueError):
    """DuckDB rejected a query."""


def run_sql(db: str | Path, query: str) -> pl.DataFrame:
    """Run ``query`` on a read-only connection; a write attempt raises ``ReadOnlyError``."""
    con = open_database(db, read_only=True)
    try:
        return con.sql(query).pl() if query.strip() else pl.DataFrame()
    except duckdb.Error as exc:
        text = str(exc)
        if "read-only" in text.lower() or "read only" in text.lower():
            raise ReadOnlyError(
                f"{query.strip()[:80]!r} would change the database, and `annals sql` is read-only; "
                "use `annals ingest` to add games, or copy the database to experiment"
            ) from None
        raise QueryError(f"{type(exc).__name__}: {text}") from None
    finally:
        con.close()


def _flat(frame: pl.DataFrame) -> pl.DataFrame:
    """CSV has no lists or structs: those columns are written as JSON text."""
    nested = [name for name, dtype in frame.schema.items() if dtype.is_nested()]
    if not nested:
        return frame
    return frame.with_columns(
        pl.col(name).map_elements(
            lambda v: json.dumps(v.to_list() if isinstance(v, pl.Series) else v), return_dtype=pl.String
        )
        for name in nested
    )


def render(frame: pl.DataFrame, fmt: str, output: Path | None, meta: dict[str, Any] | None = None) -> str | None:
    """Write ``frame`` to ``output`` in ``fmt``; without ``output`` return the text (parquet needs a file).

    With ``meta`` (a report's name, description, sample and filters) JSON is an object holding ``meta``'s keys and
    ``rows``, and Parquet carries each key in its key-value metadata (values as JSON text); CSV has no place for it,
    so the caller prints the sample on stderr.
    """
    if fmt not in FORMATS:
        raise QueryError(f"unknown format {fmt!r}; choose one of: {', '.join(FORMATS)}")
    if fmt == "parquet":
        if output is None:
            raise QueryError("--format parquet needs --output FILE (Parquet is binary)")
        if meta is None:
            frame.write_parquet(output)
        else:
            table = frame.to_arrow()
            kv = {**(table.schema.metadata or {}), **{k.encode(): json.dumps(v).encode() for k, v in meta.items()}}
            pq.write_table(table.replace_schema_metadata(kv), output)
        return None
    if fmt == "csv":
        text = _flat(frame).write_csv()
    elif fmt == "json":
        text = frame.write_json() if meta is None else json.dumps({**meta, "rows": frame.to_dicts()}, default=str)
    else:
        with pl.Config(
            tbl_rows=200, tbl_cols=30, fmt_str_lengths=60, tbl_hide_dataframe_shape=True, tbl_width_chars=240
        ):
            text = str(frame)
    if output is not None:
        output.write_text(text)
        return None
    return text
