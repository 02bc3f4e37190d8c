"""Why a report has no rows, in a sentence a person can act on: the database holds no games it reads, a filter (or
the filters together) matched none, every row was under ``--min-games``, or the games selected hold nothing the
report counts. The command line prints it as ``no rows: REASON`` in the place of an empty table.

Each filter is tried alone over the same selection the report reads (``filters.select``), so the sentence names the
one that left nothing; the selection of the report itself is rebuilt by whoever runs it next.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import duckdb

from annals.queries.reports import sqlfiles
from annals.queries.reports.filters import Filters, sample, select
from annals.queries.reports.specs import ReportSpec

# the filters that narrow the games or seats, in the order the help lists them; by and pool only shape the rows
NARROWING = ("ruleset", "event", "agent", "deck", "seat", "since", "until", "min_turns")


def flag(name: str, value: Any) -> str:
    """A filter as it was typed: ``--min-turns 50``, ``--since 2026-01-31``."""
    shown = value.isoformat() if isinstance(value, date) else value
    return f"--{name.replace('_', '-')} {shown}"


def hidden_reason(hidden: int, floor: int, column: str) -> str:
    """Every row was under the floor: how many, and how to see them."""
    rows = "the one row has" if hidden == 1 else f"all {hidden} rows have"
    return f"{rows} fewer than {floor} {column} (--min-games 0 shows them)"


def _games(con: duckdb.DuckDBPyConnection, f: Filters, rulesets: tuple[str, ...] | None) -> int:
    select(con, f, rulesets)
    return int(sample(con)[0])


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" and {items[-1]}"


def selection_reason(
    con: duckdb.DuckDBPyConnection, spec: ReportSpec, f: Filters, rulesets: tuple[str, ...] | None
) -> str:
    """Why the report's selection (``f`` over ``rulesets``) holds no game: nothing to read, or which filter."""
    if spec.event_tables:
        (events,) = con.execute(sqlfiles.load("event_count")).fetchall()[0]
        if not events:
            return "the database holds no event's record; ingest an event's folder (annals ingest EVENT)"
        given = [flag(name, getattr(f, name)) for name in ("event", "ruleset") if getattr(f, name) is not None]
        return f"{_listed(given)} left nothing of the events recorded" if given else "the events hold nothing to list"
    if _games(con, Filters(), rulesets) == 0:
        only = f" of {_listed(list(rulesets))}, the only games this report reads" if rulesets is not None else ""
        return f"the database holds no games{only}; annals ingest LOGS adds some"
    given = [name for name in NARROWING if getattr(f, name) is not None]
    if not given:
        return "the games selected hold nothing this report counts"
    alone_none = [n for n in given if _games(con, Filters(**{n: getattr(f, n)}), rulesets) == 0]
    if alone_none:
        each = "matches" if len(alone_none) == 1 else "each match"
        return f"{_listed([flag(n, getattr(f, n)) for n in alone_none])} {each} no game this report reads"
    return f"{_listed([flag(n, getattr(f, n)) for n in given])} together match no game (each alone matches some)"
