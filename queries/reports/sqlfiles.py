"""The reports' SQL, kept in ``queries/reports/sql/*.sql``, one query per file, loaded by name (the database's own
tables, views and macros are in ``ingest/sql/``)."""

from __future__ import annotations

from pathlib import Path

from annals.ingest.sqlfiles import SqlFolder, UnknownQueryError

SQL_DIR = Path(__file__).with_name("sql")
_FOLDER = SqlFolder(SQL_DIR)
names = _FOLDER.names
load = _FOLDER.load

__all__ = ["SQL_DIR", "UnknownQueryError", "load", "names"]
