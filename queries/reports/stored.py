"""``card_metrics``' rows stored at ingest (``card_metrics_summary``, kept fresh by ``ingest.summary``): the report
run with no filter but ``--ruleset``, no split and the bot pairings kept apart, by its own SQL over its own
selection, so that such a run reads a few dozen rows (``report_card_metrics_summary.sql``) instead of aggregating
``card_games``, whose size grows with the games. Under any other filter the report runs its full SQL.

``--ruleset`` alone reads the stored rows of that ruleset: each split of the report is one ruleset's (its
game-length fifths and pairs are numbered within the split), so the ruleset's rows are the same either way.
"""

from __future__ import annotations

import duckdb

from annals.queries.reports import sqlfiles
from annals.queries.reports.filters import Filters, build, build_extras, extras_read
from annals.queries.reports.specs import REPORTS

STORED = "report_card_metrics"  # the SQL whose rows card_metrics_summary holds


def stored_answers(f: Filters) -> bool:
    """Whether ``card_metrics_summary`` holds the rows of ``card_metrics`` under ``f`` (its freshness aside)."""
    return f == Filters(ruleset=f.ruleset, pool=f.pool) and not f.pool


def derive_card_metrics(con: duckdb.DuckDBPyConnection) -> None:
    """Store ``card_metrics``' rows for every decided game in ``card_metrics_summary`` (a writable connection, in the
    caller's transaction; the selection's temporary tables are dropped after)."""
    sql = sqlfiles.load(STORED).rstrip().removesuffix(";")
    build(con, Filters(), REPORTS["card_metrics"].rulesets)
    extras = extras_read(sql)
    build_extras(con, extras)
    con.execute("DELETE FROM card_metrics_summary")
    con.execute("INSERT INTO card_metrics_summary BY NAME " + sql)
    for table in ("sel_games", "sel_seats", *(f"sel_{name}" for name in extras)):  # fixed names
        con.execute(f"DROP TABLE IF EXISTS temp.main.{table}")
