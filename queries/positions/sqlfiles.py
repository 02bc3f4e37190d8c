"""The SQL that reads a stored game back (``queries/positions/sql/stored_*.sql``), loaded by name."""

from __future__ import annotations

from pathlib import Path

from annals.ingest.sqlfiles import SqlFolder

_FOLDER = SqlFolder(Path(__file__).with_name("sql"))
names = _FOLDER.names
load = _FOLDER.load
