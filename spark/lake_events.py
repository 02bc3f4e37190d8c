"""The tournament tables in the lake: ``annals export LAKE --spark MASTER --events EVENT_FOLDER``.

An event folder's rows (``ingest.events.event_rows``: tournaments, entrants, rounds, pairings, matches,
match_games, standings, and its match overrides among the judge's records, ``interventions``) are put in an
in-memory database of the schema by ingest's own code (``ingest_events``),
so they are typed as a database ingested from the folder types them, and each table is written by the local
export's query (``queries.export.event_query``) as one file per event, ``TABLE/event-ID_0.parquet``, not
partitioned (as the local export writes them). They are a few rows, so the driver writes them, not a Spark task.

Exporting an event again replaces its files and its marker ``_events/event-ID.json`` (its counts), as ``annals
ingest`` replaces an event's rows: an event exported while it ran is brought up to date. The event's games are
not read from its folder (its logs are single files, not archives): they enter the lake as archives do. Every
table also has a file of no rows, ``TABLE/schema_0.parquet``, so a lake without events still reads (by Spark too,
which takes a table's columns from its files) as tables with no rows.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import duckdb

from annals.engine.tournament.store import EventStore
from annals.engine.tournament.verify import require_verified
from annals.ingest.events import TABLES, ingest_events, is_event_folder
from annals.ingest.tables import Types
from annals.queries.export import EVENT_TABLES, event_query
from annals.schemas.errors import AnnalsError
from annals.spark.parquet import counted, write_atomic, write_file

EVENT_MARKERS = "_events"
SCHEMA_FILE = "schema_0.parquet"


class NotAnEventError(AnnalsError, ValueError):
    """``--events`` names a folder that is not an event folder."""


def event_stem(event_id: str) -> str:
    """The file stem of an event's rows: its id where it is a plain name, with a hash of the id (ids differ)."""
    plain = re.sub(r"[^A-Za-z0-9._-]", "_", event_id)[:64]
    return f"event-{plain}-{hashlib.blake2b(event_id.encode(), digest_size=4).hexdigest()}"


def open_event(folder: Path) -> EventStore:
    """The event folder at ``folder``, or ``NotAnEventError`` saying what an event folder holds; a folder that fails
    ``annals event verify`` is refused by name (``EventRecordError``)."""
    if not is_event_folder(folder):
        raise NotAnEventError(
            f"{folder} is not an event folder (no event file in it); --events takes folders made by annals event new"
        )
    store = EventStore.open(folder)
    require_verified(store)
    return store


def _rows(con: duckdb.DuckDBPyConnection, table: str, types: Types) -> Any:
    """``table``'s rows as the dataset holds them (``event_query``: its JSON columns as text)."""
    return con.sql(event_query(table)).to_arrow_table()


JUDGED = "interventions"  # the judge's records: an archive's task writes its games' (``spark.lake``), events theirs


def write_unpartitioned(con: duckdb.DuckDBPyConnection, table: str, types: Types, dest: Path) -> dict[str, Any]:
    """``table``'s rows in ``con`` as the one file ``dest`` (the export's own query; no file where there are no
    rows, one an earlier export left removed); returns their counts for the manifest."""
    rows = _rows(con, table, types)
    dest.parent.mkdir(parents=True, exist_ok=True)
    if rows.num_rows:
        write_file(rows, dest)
    else:
        dest.unlink(missing_ok=True)
    return counted(rows)


def export_events(con: duckdb.DuckDBPyConnection, stores: list[EventStore], lake: Path, types: Types) -> dict[str, Any]:
    """Write each event's tables into ``lake`` (replacing what an earlier export of it wrote) and the tables'
    files of no rows; ``con``: a database of the schema, in memory. Returns the events' markers, by stem."""
    for table in EVENT_TABLES:
        (lake / table).mkdir(parents=True, exist_ok=True)
        if not (lake / table / SCHEMA_FILE).is_file():
            write_file(_rows(con, table, types).slice(0, 0), lake / table / SCHEMA_FILE)
    done: dict[str, Any] = {}
    folder = lake / EVENT_MARKERS
    folder.mkdir(parents=True, exist_ok=True)
    for store in stores:
        for table in TABLES:
            con.execute(f"DELETE FROM {table}")  # this event's rows alone
        ingest_events(con, [store])
        event_id = store.config().event_id
        stem = event_stem(event_id)
        tables: dict[str, Any] = {}
        for table in EVENT_TABLES:
            tables[table] = write_unpartitioned(con, table, types, lake / table / f"{stem}_0.parquet")
        marker = {"event_id": event_id, "folder": str(store.folder.resolve()), "tables": tables}
        write_atomic(folder / f"{stem}.json", json.dumps(marker, sort_keys=True))
        done[stem] = marker
    return done


def event_markers(lake: Path) -> dict[str, dict[str, Any]]:
    """The events the lake holds, by file stem."""
    folder = lake / EVENT_MARKERS
    if not folder.is_dir():
        return {}
    return {f.stem: json.loads(f.read_text()) for f in sorted(folder.glob("*.json"))}
