"""The summaries derived after ingest, which reports read instead of one row per game, seat and card when their
filters allow (``queries.reports.run``): ``card_summary``, ``card_facts`` of the decided games counted per seat
context and card (``card_summary.sql``), for ``card_winrate``; ``card_metrics_summary``, ``card_metrics``' own rows
for every decided game with no filter nor split (``queries.reports.stored``). Each is derived whole after each
ingest and removal, and on a writable open of a database where it is missing or stale; beside each,
``NAME_stamp`` holds what it was derived from (``card_summary_stamp.sql``), so a change made any other way (an
``UPDATE``, a migration, an older annals ingesting into the file) is seen and the report reads the full tables until
the summary is derived again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb

from annals.ingest.sqlfiles import SqlFolder

ddl = SqlFolder(Path(__file__).with_name("sql")).load

SUMMARIES = ("card_summary", "card_metrics_summary")  # each with its own stamp: NAME_stamp


def _stamp(con: duckdb.DuckDBPyConnection) -> tuple[Any, ...]:
    return tuple(con.execute(ddl("card_summary_stamp")).fetchall()[0])


def summary_fresh(con: duckdb.DuckDBPyConnection, name: str = "card_summary") -> bool:
    """Whether summary ``name`` (``SUMMARIES``) was derived from the games, seats and card facts the database holds
    now."""
    try:  # the name is one of SUMMARIES, not text from outside
        stored = con.execute(f"SELECT * FROM {name}_stamp").fetchall()
    except duckdb.CatalogException:  # a database made before the summary, opened read-only
        return False
    return len(stored) == 1 and tuple(stored[0]) == _stamp(con)


def refresh_card_summary(con: duckdb.DuckDBPyConnection, *, unless_fresh: bool = False) -> None:
    """Derive the summaries again from the stored tables, each with its stamp (``unless_fresh``: only the stale)."""
    stale = [name for name in SUMMARIES if not (unless_fresh and summary_fresh(con, name))]
    if not stale:
        return
    con.execute("BEGIN")
    if "card_summary" in stale:
        con.execute(ddl("card_summary"))
    if "card_metrics_summary" in stale:
        # the report's own SQL and selection (queries imports ingest, so not at the top)
        from annals.queries.reports.stored import derive_card_metrics

        derive_card_metrics(con)
    for name in stale:
        con.execute(f"DELETE FROM {name}_stamp")
        con.execute(f"INSERT INTO {name}_stamp " + ddl("card_summary_stamp"))
    con.execute("COMMIT")
