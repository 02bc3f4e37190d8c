"""The export's SQL (``queries/sql/export_keys.sql``: the keys a shared dataset's rows carry), loaded by name; the
local export and the Spark lake both read it."""

from __future__ import annotations

from pathlib import Path

from annals.ingest.sqlfiles import SqlFolder

_FOLDER = SqlFolder(Path(__file__).with_name("sql"))
names = _FOLDER.names
load = _FOLDER.load
