"""SQL kept in ``.sql`` files, one statement, view or macro per file, loaded by name from a folder.

``ingest/sql/`` holds the database itself (tables, views, the ``position()`` macro: ``ingest.schema``) and the
reports' SQL that ingest runs too (``ingest.summary.SHARED``);
``queries/reports/sql/`` the reports, ``queries/positions/sql/`` a stored game read back, ``queries/sql/``
the export's keys (each folder's ``sqlfiles`` module). All use ``SqlFolder``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import duckdb

from annals.schemas.errors import AnnalsError


class UnknownQueryError(AnnalsError, KeyError):
    """No ``NAME.sql`` in the folder asked."""


class SqlFolder:
    """The ``.sql`` files of one folder, each read once."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.load = cache(self._load)

    def names(self) -> list[str]:
        return sorted(p.stem for p in self.folder.glob("*.sql"))

    def _load(self, name: str) -> str:
        """The text of ``NAME.sql`` in this folder."""
        path = self.folder / f"{name}.sql"
        if not path.is_file():
            raise UnknownQueryError(f"no SQL named {name!r} in {self.folder}; known: {', '.join(self.names())}")
        return path.read_text()


def run_script(con: duckdb.DuckDBPyConnection, sql: str, params: dict[str, Any]) -> None:
    """Run each statement of ``sql`` (each ends a line with ``;``), given the ``$name`` parameters it names."""
    for statement in sql.split(";\n"):
        if statement.strip():
            con.execute(statement, {k: v for k, v in params.items() if f"${k}" in statement})
