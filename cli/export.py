"""``annals export DIR``: the database as a shareable, hive-partitioned Parquet dataset."""

from __future__ import annotations

from pathlib import Path

import typer

from annals.cli.app import app, err, fail, out, reported
from annals.cli.query import DbOpt, database
from annals.queries.names import EXPORT_VIEWS
from annals.schemas.errors import UnknownNameError


@app.command("export")
def export_command(
    folder: Path = typer.Argument(
        ..., help="A new (or empty) folder to write the dataset into, or an earlier export's to add the new games."
    ),
    fmt: str = typer.Option("parquet", "--format", "-f", help="parquet (the only format)."),
    view: str = typer.Option(
        "omniscient", "--view", help=f"One of: {', '.join(EXPORT_VIEWS)} (public information only)."
    ),
    db: Path | None = DbOpt,
    spark: str | None = typer.Option(
        None, "--spark", metavar="MASTER", help="Build (or append to) a lake from --shards on Spark: local[2], ..."
    ),
    shards: list[Path] = typer.Option([], "--shards", help="Archives, or folders of them, for --spark (repeatable)."),
    events: list[Path] = typer.Option(
        [], "--events", help="Event folders whose tournament tables go into the lake, for --spark (repeatable)."
    ),
) -> None:
    """Write one Parquet table per entity, partitioned by ruleset and month, with a README and a manifest.

    Into a folder an earlier export wrote, only the games it does not hold yet are added (their own files; the
    cards and tournament tables are replaced whole): run it nightly. The manifest lists what each run added.

    With --spark the archives are turned into the same tables on Spark, one task per archive, appending to the
    folder: an archive already in it is skipped. --events puts each event folder's tournament tables in the lake
    (replacing what an earlier export of the event put there), for the event reports.

    Example: annals export dataset/ --db annals.duckdb --format parquet --view spectator
    """
    from annals.ingest.schema import open_database
    from annals.queries.export import export

    if fmt != "parquet":
        fail(f"unknown format {fmt!r}; annals export writes parquet", code=2)
    if view not in EXPORT_VIEWS:  # a usage error, said before any database or lake is opened
        fail(str(UnknownNameError("view", view, EXPORT_VIEWS)), code=2)
    if spark is not None:
        if not (shards or events):
            fail("--spark needs --shards ARCHIVES or --events EVENT_FOLDER", code=2)
        with reported():
            from annals.spark.lake import export_to_lake

            done = export_to_lake(spark, shards, folder, events, view)
        counts = ", ".join(f"{t} {m['rows']}" for t, m in done.manifest["tables"].items())
        out.print(
            f"lake {folder}: {len(done.exported)} archives exported, {len(done.skipped)} already there, "
            f"{len(done.renumbered)} renumbered; {len(events)} events; {counts} "
            f"rows; {len(done.manifest['quarantined'])} games quarantined",
            markup=False,
        )
        return
    if events or shards:  # they were ignored without a word: the export below reads only the database
        given = "--events" if events else "--shards"
        fail(f"{given} goes with --spark MASTER (a lake); without --spark, annals export writes the database's "
             "tables: put the event folders or archives in it first (annals ingest FOLDER --db DB), then export",
             code=2)  # fmt: skip
    with reported():
        con = open_database(database(db), read_only=True)
        try:
            manifest = export(con, folder, view=view)
        finally:
            con.close()
        run = manifest["runs"][-1]
        counts = ", ".join(f"{t} {n}" for t, n in run["rows_added"].items())
        what = "written to" if run["run"] == 1 else f"run {run['run']} added to"
        out.print(
            f"{what} {folder}: {run['games_added']} games ({counts} rows); manifest.json, README.md", markup=False
        )
    if manifest.get("rebuilt_from_database"):
        gone = manifest["rebuilt_from_database"]
        err.print(f"note: the logs of {len(gone)} game(s) were not found where they were ingested from, so they were "
                  f"rebuilt from the database {database(db)} (listed in the manifest's rebuilt_from_database)",
                  markup=False)  # fmt: skip
