"""The reports' SQL, kept in ``queries/reports/sql/*.sql``, one query per file, loaded by name (the database's own
tables, views and macros are in ``ingest/sql/``). The selection (``select``, ``select_cards``) and
``report_card_metrics`` are kept in ``ingest/sql/`` (``SHARED``) and loaded from there under the same names: ingest
runs them too, to store ``card_metrics``' rows after each ingest (``ingest.summary``), and the layers below the
reports read nothing of theirs."""

from __future__ import annotations

from pathlib import Path

from annals.ingest.sqlfiles import SqlFolder, UnknownQueryError
from annals.ingest.summary import SHARED, ddl

SQL_DIR = Path(__file__).with_name("sql")
_FOLDER = SqlFolder(SQL_DIR)


def names() -> list[str]:
    """Every query's name, the shared ones with the reports' own."""
    return sorted([*_FOLDER.names(), *SHARED])


def load(name: str) -> str:
    """The text of ``NAME.sql``: of ``ingest/sql/`` for the ``SHARED`` names, else of ``queries/reports/sql/``."""
    return ddl(name) if name in SHARED else _FOLDER.load(name)


__all__ = ["SQL_DIR", "UnknownQueryError", "load", "names"]
