"""``card_summary``: ``card_facts`` of the decided games counted per seat context and card (``card_summary.sql``),
which ``card_winrate`` reads instead of one row per game, seat and card when its filters allow
(``queries.reports.run``). It is derived whole after each ingest and removal, and on a writable open of a database
whose summary is missing or stale; beside it, ``card_summary_stamp`` holds what it was derived from
(``card_summary_stamp.sql``), so a change made any other way (an ``UPDATE``, a migration) is seen and the report
reads ``card_facts`` until the summary is derived again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb

from annals.ingest.sqlfiles import SqlFolder

ddl = SqlFolder(Path(__file__).with_name("sql")).load


def _stamp(con: duckdb.DuckDBPyConnection) -> tuple[Any, ...]:
    return tuple(con.execute(ddl("card_summary_stamp")).fetchall()[0])


def summary_fresh(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether ``card_summary`` was derived from the games, seats and card facts the database holds now."""
    try:
        stored = con.execute("SELECT * FROM card_summary_stamp").fetchall()
    except duckdb.CatalogException:  # a database made before the summary, opened read-only
        return False
    return len(stored) == 1 and tuple(stored[0]) == _stamp(con)


def refresh_card_summary(con: duckdb.DuckDBPyConnection, *, unless_fresh: bool = False) -> None:
    """Derive ``card_summary`` again from the stored tables, with its stamp (``unless_fresh``: only if stale)."""
    if unless_fresh and summary_fresh(con):
        return
    con.execute("BEGIN")
    con.execute(ddl("card_summary"))
    con.execute("DELETE FROM card_summary_stamp")
    con.execute("INSERT INTO card_summary_stamp " + ddl("card_summary_stamp"))
    con.execute("COMMIT")
