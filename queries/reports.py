"""Named reports: SQL in ``queries/sql/report_NAME.sql`` run by DuckDB, finished with polars, each stating its
sample.

Every report takes the filter ``ruleset`` (``$ruleset`` in its SQL; NULL for all); the event reports also take
``event`` (``$event``: an event id). A report whose frame has
``games`` and ``wins`` columns gets ``win_rate`` and a Wilson 95% confidence interval (``ci_low``, ``ci_high``);
``min_games`` drops rows with fewer games.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import duckdb
import msgspec
import polars as pl

from annals.queries import sqlfiles
from annals.schemas.errors import AnnalsError

Z95 = 1.959963984540054


class UnknownReportError(AnnalsError, LookupError):
    """No report by that name."""


class ReportSpec(NamedTuple):
    title: str
    games: str  # which rulesets it reads


REPORTS: dict[str, ReportSpec] = {
    "card_winrate": ReportSpec("Per-card win rate when in the opening hand, drawn and played", "all"),
    "first_player": ReportSpec("First-player advantage", "all"),
    "deck_matrix": ReportSpec("Deck against deck", "all"),
    "game_length": ReportSpec("Game length in turns and events", "all"),
    "decision_choices": ReportSpec("What was chosen at each decision point", "all"),
    "damage_payments": ReportSpec("Battle Damage payment choices", "miras9"),
    "stack_depth": ReportSpec("Reaction windows: response rates and stack depth", "miras9"),
    "manifest_pressure": ReportSpec("Manifest and Pressure usage", "miras9"),
    "slava_curves": ReportSpec("Slava curves of winners and losers", "morana"),
    "site_control": ReportSpec("Site control by position", "morana"),
    "reborn_timing": ReportSpec("Reborn timing", "morana"),
    "offboard_cap": ReportSpec("Off-board Slava cap hits", "morana"),
    "initiative": ReportSpec("Initiative held and granted", "morana"),
    "metagame": ReportSpec("Metagame: deck archetypes' share of each event", "events"),
    "event_decks": ReportSpec("Deck win rates in each event", "events"),
    "event_standings": ReportSpec("Event standings and final places", "events"),
}


class Sample(msgspec.Struct, frozen=True):
    games: int
    decided: int
    events: int
    rulesets: str
    database: str

    def describe(self, spec: ReportSpec) -> str:
        reads = "" if spec.games == "all" else f" (this report reads {spec.games} games only)"
        if spec.games == "events":
            reads = " (this report reads the games of ingested event folders only)"
        return (
            f"sample: {self.games} games ({self.decided} decided), {self.events} events, rulesets: "
            f"{self.rulesets or 'none'}{reads}; from {self.database}"
        )


class ReportResult(NamedTuple):
    name: str
    title: str
    sample: str
    frame: pl.DataFrame


def wilson(wins: int, n: int) -> tuple[float, float]:
    """Wilson score interval at 95% for ``wins`` successes out of ``n``."""
    if n == 0:
        return (math.nan, math.nan)
    p = wins / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return (centre - half, centre + half)


def with_win_rate(frame: pl.DataFrame) -> pl.DataFrame:
    """Add ``win_rate``, ``ci_low``, ``ci_high`` (Wilson, 95%) from ``games`` and ``wins``."""
    n = pl.col("games").cast(pl.Float64)
    p = pl.col("wins").cast(pl.Float64) / n
    z2 = Z95**2
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = Z95 * ((p * (1 - p) / n + z2 / (4 * n * n)).sqrt()) / denom
    return frame.with_columns(win_rate=p.round(4), ci_low=(centre - half).round(4), ci_high=(centre + half).round(4))


def sample(con: duckdb.DuckDBPyConnection, ruleset: str | None, database: str) -> Sample:
    row = con.sql(sqlfiles.load("sample"), params={"ruleset": ruleset}).fetchall()[0]
    return Sample(int(row[0]), int(row[1]), int(row[2]), str(row[3]), database)


def run_report(
    con: duckdb.DuckDBPyConnection,
    name: str,
    *,
    ruleset: str | None = None,
    min_games: int = 0,
    database: str = "",
    event: str | None = None,
) -> ReportResult:
    spec = REPORTS.get(name)
    if spec is None:
        raise UnknownReportError(f"no report named {name!r}; choose one of: {', '.join(REPORTS)}")
    sql = sqlfiles.load(f"report_{name}")
    params = {k: v for k, v in {"ruleset": ruleset, "event": event}.items() if f"${k}" in sql}
    frame = con.sql(sql, params=params).pl()
    if {"games", "wins"} <= set(frame.columns):
        frame = with_win_rate(frame)
        if min_games:
            frame = frame.filter(pl.col("games") >= min_games)
    return ReportResult(name, spec.title, sample(con, ruleset, database).describe(spec), frame)
