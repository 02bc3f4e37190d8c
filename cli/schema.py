"""``annals schema [TABLE]``: the data dictionary of the database."""

from __future__ import annotations

from pathlib import Path

import typer

from annals.cli.app import app, fail, out, reported
from annals.cli.query import DbOpt, FormatOpt, OutputOpt, _emit
from annals.ingest.schema import open_database
from annals.queries.dictionary import dictionary
from annals.queries.filters import UnknownValueError
from annals.queries.output import render


@app.command()
def schema(
    table: str = typer.Argument(None, help="One table or view (default: all)."),
    db: Path = DbOpt,
    fmt: str = FormatOpt,
    output: Path = OutputOpt,
) -> None:
    """Print the data dictionary: every table, view and column with its meaning, units, sentinels and ruleset.

    Example: annals schema games --format csv
    """
    with reported():
        con = open_database(db, read_only=True)
        try:
            frame = dictionary(con, table)
        except UnknownValueError as exc:
            fail(f"{type(exc).__name__}: {exc}", code=2)
        finally:
            con.close()
        if fmt == "table":
            for row in frame.iter_rows(named=True):
                if row["column"] is None:
                    out.print(f"\n{row['table']} ({row['kind']}): {row['comment']}", markup=False)
                else:
                    out.print(f"  {row['column']} {row['type']}: {row['comment']}", markup=False)
            return
        _emit(render(frame.drop("position"), fmt, output), output)
