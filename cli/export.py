"""``annals export DIR``: the database as a shareable, hive-partitioned Parquet dataset."""

from __future__ import annotations

from pathlib import Path

import typer

from annals.cli.app import app, fail, out, reported
from annals.cli.query import DbOpt, database
from annals.ingest.schema import open_database
from annals.queries.export import VIEWS, export


@app.command("export")
def export_command(
    folder: Path = typer.Argument(..., help="A new (or empty) folder to write the dataset into."),
    fmt: str = typer.Option("parquet", "--format", "-f", help="parquet (the only format)."),
    view: str = typer.Option("omniscient", "--view", help=f"One of: {', '.join(VIEWS)} (public information only)."),
    db: Path | None = DbOpt,
) -> None:
    """Write one Parquet table per entity, partitioned by ruleset and month, with a README and a manifest.

    Example: annals export dataset/ --db annals.duckdb --format parquet --view spectator
    """
    if fmt != "parquet":
        fail(f"unknown format {fmt!r}; annals export writes parquet", code=2)
    with reported():
        con = open_database(database(db), read_only=True)
        try:
            manifest = export(con, folder, view=view)
        finally:
            con.close()
        counts = ", ".join(f"{t} {m['rows']}" for t, m in manifest["tables"].items())
        out.print(f"written to {folder}: {counts} rows; manifest.json, README.md", markup=False)
