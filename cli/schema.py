"""``annals schema [TABLE]``: the data dictionary of the database."""

from __future__ import annotations

from pathlib import Path

import typer

from annals.cli.app import app, out, reported
from annals.cli.query import DbOpt, Format, FormatOpt, OutputOpt, database, emit, width


@app.command()
def schema(
    table: str | None = typer.Argument(None, metavar="[TABLE]", help="One table or view (default: all)."),
    db: Path | None = DbOpt,
    fmt: Format = FormatOpt,
    output: Path | None = OutputOpt,
) -> None:
    """Print the data dictionary: every table, view and column with its meaning, units, sentinels and ruleset.

    Example: annals schema games --db annals.duckdb --format csv
    """
    from annals.ingest.schema import open_database
    from annals.queries.reports.dictionary import dictionary
    from annals.queries.reports.output import render

    with reported():
        con = open_database(database(db), read_only=True)
        try:
            frame = dictionary(con, table)  # an unknown table is a usage error (exit 2), with did-you-mean
        finally:
            con.close()
        if fmt == "table":
            for row in frame.iter_rows(named=True):
                if row["column"] is None:
                    out.print(f"\n{row['table']} ({row['kind']}): {row['comment']}", markup=False)
                else:
                    out.print(f"  {row['column']} {row['type']}: {row['comment']}", markup=False)
            return
        emit(render(frame.drop("position"), fmt, output, width=width()), output)
