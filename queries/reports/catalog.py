"""What an annals database holds: its tables and views with their row counts, and its table macros."""

from __future__ import annotations

import duckdb
import polars as pl

from annals.queries.reports import sqlfiles


def relations(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """One row per table, view and table macro: ``name``, ``kind``, ``rows`` (counted; null for a macro),
    ``columns`` and, for a macro, its ``parameters``.

    Counting a view runs it, so on a large database this takes as long as reading each view once.
    """
    listed = con.sql(sqlfiles.load("tables")).fetchall()
    count = sqlfiles.load("table_rows")
    rows = [
        None if kind == "macro" else int(con.execute(count, {"name": name}).fetchall()[0][0])
        for name, kind, _, _ in listed
    ]
    return pl.DataFrame(
        {
            "name": [r[0] for r in listed],
            "kind": [r[1] for r in listed],
            "rows": rows,
            "columns": [r[2] for r in listed],
            "parameters": [r[3] for r in listed],
        },
        schema={"name": pl.String, "kind": pl.String, "rows": pl.Int64, "columns": pl.Int64, "parameters": pl.String},
    )
