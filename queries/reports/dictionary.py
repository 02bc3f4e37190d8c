"""The data dictionary: every table and view of the database, and every column, with its comment
(``ingest/sql/comments.sql``)."""

from __future__ import annotations

import duckdb
import polars as pl

from annals.queries.reports import sqlfiles
from annals.queries.reports.filters import UnknownValueError


def dictionary(con: duckdb.DuckDBPyConnection, table: str | None = None) -> pl.DataFrame:
    """One row per table or view (``column`` NULL, the object's comment) and per column (its type and comment);
    ``table`` restricts it to one, and an unknown name is an error listing the known ones."""
    frame: pl.DataFrame = con.sql(sqlfiles.load("dictionary")).pl()
    if table is None:
        return frame
    known = sorted(set(frame["table"]))
    if table not in known:
        raise UnknownValueError(f"no table or view {table!r}; known: {', '.join(known)}")
    return frame.filter(pl.col("table") == table)
