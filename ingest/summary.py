"""The summaries derived after ingest, which reports read instead of one row per game, seat and card when their
filters allow (``queries.reports.run``): ``card_summary``, ``card_facts`` of the decided games counted per seat
context and card (``card_summary.sql``), for ``card_winrate``; ``card_metrics_summary``, ``card_metrics``' own rows
over the selection of every decided game (no filter, no split, the bot pairings kept apart), made by the report's
own SQL (``SHARED``: kept here, as the reports load them from here too), so that such a run reads a few dozen rows
instead of aggregating ``card_games``, which grows with the games; ``card_metrics_cells``, ``card_games`` of the
decided games counted per seat context, length, result, flags and block of ``CELL_BLOCK`` game numbers
(``card_metrics_cells.sql``), which ``card_metrics`` sums instead of ``card_games`` under a split or a filter (not
``--since``/``--until``: the recording time is not in the cells). Each is derived whole after each ingest and
removal, and on a writable open of a database where it is missing or stale; beside each, ``NAME_stamp`` holds what
it was derived from (``card_summary_stamp.sql``), so a change made any other way (an ``UPDATE``, a migration, an
older annals ingesting into the file) is seen and the report reads the full tables until the summary is derived
again."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import duckdb

from annals.ingest.sqlfiles import SqlFolder, run_script

ddl = SqlFolder(Path(__file__).with_name("sql")).load

SUMMARIES = ("card_summary", "card_metrics_summary", "card_metrics_cells")  # each with its own stamp: NAME_stamp
# Game numbers per block of card_metrics_cells: a game-length fifth ends within one block, read from card_games; the
# smaller the blocks, the more cells (up to one per seat-game), the larger, the more card_games rows at each end.
CELL_BLOCK = 1024
# The selection of the reports (select.sql: sel_games, sel_seats; select_cards.sql: sel_cards; select_splits.sql:
# sel_splits) and card_metrics' SQL,
# which ingest runs to store card_metrics_summary; queries.reports.sqlfiles loads them from here by the same names.
SHARED = ("select", "select_cards", "select_splits", "report_card_metrics")


def _stamp(con: duckdb.DuckDBPyConnection) -> tuple[Any, ...]:
    return tuple(con.execute(ddl("card_summary_stamp")).fetchall()[0])


def _stored(con: duckdb.DuckDBPyConnection, name: str) -> tuple[Any, ...] | None:
    """The stamp summary ``name`` was derived with (None: none, in a database made before it)."""
    try:  # the name is one of SUMMARIES, not text from outside
        stored = con.execute(f"SELECT * FROM {name}_stamp").fetchall()
    except duckdb.CatalogException:  # a database made before the summary, opened read-only
        return None
    return tuple(stored[0]) if len(stored) == 1 else None


def summary_fresh(con: duckdb.DuckDBPyConnection, name: str = "card_summary") -> bool:
    """Whether summary ``name`` (``SUMMARIES``) was derived from the games, seats and card facts the database holds
    now."""
    return _stored(con, name) == _stamp(con)


def refresh_card_summary(con: duckdb.DuckDBPyConnection, *, unless_fresh: bool = False) -> None:
    """Derive the summaries again from the stored tables, each with its stamp (``unless_fresh``: only the stale).
    The stamp is computed once (it reads every game): to check, then for the first summary derived, copied after."""
    now = _stamp(con) if unless_fresh else None
    stale = [name for name in SUMMARIES if now is None or _stored(con, name) != now]
    if not stale:
        return
    con.execute("BEGIN")
    if "card_summary" in stale:
        con.execute(ddl("card_summary"))
    if "card_metrics_summary" in stale:
        derive_card_metrics(con)
    if "card_metrics_cells" in stale:
        run_script(con, ddl("card_metrics_cells"), {"block": CELL_BLOCK})
    for name in stale:
        con.execute(f"DELETE FROM {name}_stamp")
        stamp = ddl("card_summary_stamp") if name == stale[0] else f"SELECT * FROM {stale[0]}_stamp"
        con.execute(f"INSERT INTO {name}_stamp " + stamp)
    con.execute("COMMIT")


def derive_card_metrics(con: duckdb.DuckDBPyConnection) -> None:
    """Store ``card_metrics``' rows over every decided game in ``card_metrics_summary``: the report's selection with
    every filter unset (it reads every ruleset) and its SQL, in the caller's transaction; the selection's temporary
    tables are dropped after."""
    select = ddl("select")
    run_script(con, select, {name: None for name in re.findall(r"\$(\w+)", select)} | {"pool": False})
    con.execute(ddl("select_cards"))
    con.execute(ddl("select_splits"))
    con.execute("DELETE FROM card_metrics_summary")
    con.execute("INSERT INTO card_metrics_summary BY NAME " + ddl("report_card_metrics").rstrip().removesuffix(";"))
    for table in ("sel_games", "sel_seats", "sel_cards", "sel_splits"):
        con.execute(f"DROP TABLE IF EXISTS temp.main.{table}")
