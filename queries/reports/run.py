"""Named reports: SQL in ``queries/reports/sql/report_NAME.sql`` run by DuckDB, finished with polars, each stating its
sample, its filters and what its numbers mean.

Every report reads the games and seats the filters select (``queries.reports.filters``: ``sel_games``, ``sel_seats``).
Columns come in pairs by prefix: ``{p}games`` and ``{p}wins`` get ``{p}win_rate`` and a Wilson 95% confidence
interval (``{p}ci_low``, ``{p}ci_high``). Rows with fewer games than ``min_games`` (default ``MIN_GAMES``) in the
report's sample column are hidden, and the result says how many. The event reports (``metagame``,
``event_decks``, ``event_standings``) read the tournament tables and take ``$event`` and ``$ruleset`` instead.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

import duckdb
import msgspec
import polars as pl

from annals.engine.names import plural
from annals.ingest.summary import summary_fresh
from annals.queries.names import MIN_GAMES as MIN_GAMES  # defined there, light, for the command line
from annals.queries.reports import sqlfiles
from annals.queries.reports.empty import hidden_reason, selection_reason
from annals.queries.reports.filters import (
    Filters,
    NotApplicableError,
    check,
    extras_read,
    filter_params,
    kept_fact,
    resolve_event,
    sample,
    select,
    unfiltered,
    whole_sample,
)
from annals.queries.reports.specs import REPORTS as REPORTS  # what each report is (light: the help lists them)
from annals.queries.reports.specs import ReportSpec
from annals.schemas.errors import UnknownNameError
from annals.schemas.rulesets import ruleset_names, schema_for

Z95 = 1.959963984540054


class UnknownReportError(UnknownNameError):
    """No report by that name."""


class ReportResult(NamedTuple):
    name: str
    title: str
    sample: str
    frame: pl.DataFrame
    description: str = ""
    filters: dict[str, Any] = {}
    hidden: int = 0  # rows hidden by min_games
    empty: str = ""  # with no rows, why (``reports.empty``): what the command line says in the place of a table

    def metadata(self) -> dict[str, Any]:
        """What machine-readable output carries beside the rows."""
        return {
            "report": self.name,
            "title": self.title,
            "description": self.description,
            "sample": self.sample,
            "filters": self.filters,
            "hidden_rows": self.hidden,
        }


def wilson(wins: int, n: int) -> tuple[float, float]:
    """Wilson score interval at 95% for ``wins`` successes out of ``n``."""
    if n == 0:
        return (math.nan, math.nan)
    p = wins / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return (centre - half, centre + half)


def proportion_columns(hits: str, n: str, rate: str, low: str, high: str) -> list[pl.Expr]:
    """Columns ``rate`` = ``hits`` / ``n`` and its Wilson 95% interval ``low``..``high`` (NULL where ``n`` is 0)."""
    total = pl.col(n).cast(pl.Float64)
    total = pl.when(total > 0).then(total)
    p = pl.col(hits).cast(pl.Float64) / total
    z2 = Z95**2
    denom = 1 + z2 / total
    centre = (p + z2 / (2 * total)) / denom
    half = Z95 * ((p * (1 - p) / total + z2 / (4 * total * total)).sqrt()) / denom
    return [p.round(4).alias(rate), (centre - half).round(4).alias(low), (centre + half).round(4).alias(high)]


def win_rate_columns(prefix: str = "") -> list[pl.Expr]:
    """``{prefix}win_rate``, ``{prefix}ci_low``, ``{prefix}ci_high`` (Wilson, 95%) from ``{prefix}games`` and
    ``{prefix}wins`` (NULL where there are no games)."""
    return proportion_columns(
        f"{prefix}wins", f"{prefix}games", f"{prefix}win_rate", f"{prefix}ci_low", f"{prefix}ci_high"
    )


def with_win_rate(frame: pl.DataFrame, prefix: str = "") -> pl.DataFrame:
    """The frame with ``win_rate_columns(prefix)`` added."""
    return frame.with_columns(win_rate_columns(prefix))


def without_negative_zero(frame: pl.DataFrame) -> pl.DataFrame:
    """Every float column with -0.0 (what rounding a tiny negative gives) as 0.0, so no report prints -0.0."""
    # the schema read once: ``frame.schema`` makes it anew at each call, which a call per column made 40% of a
    # report's finishing (card_metrics: 36 float columns)
    floats = [(name, dtype) for name, dtype in frame.schema.items() if dtype.is_float()]
    return frame.with_columns(
        pl.when(pl.col(name) == 0).then(pl.lit(0.0, dtype=dtype)).otherwise(pl.col(name)).alias(name)
        for name, dtype in floats
    )


def with_rates(frame: pl.DataFrame) -> pl.DataFrame:
    """Every ``{p}games``/``{p}wins`` pair's win rate and interval, placed right after the pair (one polars query:
    a call per pair cost card_metrics about 15 ms)."""
    order: list[str] = []
    pairs: list[tuple[str, str, str, str, str]] = []
    for name in frame.columns:
        order.append(name)
        if name.endswith("wins") and f"{name[:-4]}games" in frame.columns:
            prefix = name[:-4]
            pairs.append((name, f"{prefix}games", f"{prefix}win_rate", f"{prefix}ci_low", f"{prefix}ci_high"))
            order += list(pairs[-1][2:])
    return with_proportions(frame, pairs).select(order) if pairs else frame


def with_proportions(frame: pl.DataFrame, pairs: list[tuple[str, str, str, str, str]]) -> pl.DataFrame:
    """``proportion_columns(hits, n, rate, low, high)`` for each of ``pairs``, the same operations in the same order
    (so the same values, to the bit), computed through named intermediate columns: as one expression per column,
    polars evaluated every shared part (the total, the rate, the denominator) again in each, 0.3 ms a column."""
    z2 = Z95**2
    steps: list[list[pl.Expr]] = [[], [], [], []]
    temporary: list[str] = []
    for i, (hits, n, rate, low, high) in enumerate(pairs):
        t, p, d, c, h = (f"__wilson{i}_{k}" for k in "tpdch")
        temporary += [t, p, d, c, h]
        total = pl.col(n).cast(pl.Float64)
        steps[0].append(pl.when(total > 0).then(total).alias(t))
        steps[1] += [(pl.col(hits).cast(pl.Float64) / pl.col(t)).alias(p), (1 + z2 / pl.col(t)).alias(d)]
        total, share, denom = pl.col(t), pl.col(p), pl.col(d)
        steps[2] += [
            ((share + z2 / (2 * total)) / denom).alias(c),
            (Z95 * ((share * (1 - share) / total + z2 / (4 * total * total)).sqrt()) / denom).alias(h),
        ]
        centre, half = pl.col(c), pl.col(h)
        steps[3] += [
            share.round(4).alias(rate),
            (centre - half).round(4).alias(low),
            (centre + half).round(4).alias(high),
        ]
    lazy = frame.lazy()
    for step in steps:
        lazy = lazy.with_columns(step)
    return lazy.drop(temporary).collect()


def _sample(
    con: duckdb.DuckDBPyConnection, spec: ReportSpec, f: Filters, database: str, counted: tuple[Any, ...]
) -> str:
    games, decided, events, rulesets, seats = counted
    read = read_rulesets(spec)
    reads = "" if read is None else f" (this report reads {', '.join(read)} games only)"
    unit = f", {plural(int(seats), 'seat-game')}" if spec.per_seat else ""
    if spec.reviews:
        reviewed, decisions = con.execute(sqlfiles.load("sample_reviewed")).fetchall()[0]
        unit += f" ({reviewed} of them reviewed: {decisions} decisions)"
    where = f"; filters: {', '.join(f'{k}={v}' for k, v in f.given().items())}" if f.given() else ""
    return (
        f"sample: {plural(int(games), 'game')} ({decided} decided){unit}, {plural(int(events), 'event')}, "
        f"rulesets: {rulesets or 'none'}{reads}"
        f"{where}; from {database}"
    )


def refuse_inapplicable(name: str, spec: ReportSpec, f: Filters, min_games: int | None) -> None:
    """Options that do not apply to the report are an error naming the ones that do."""
    if spec.event_tables:
        extra = sorted(set(f.given()) - {"ruleset", "event"})
        if extra:
            raise NotApplicableError(f"report {name!r} reads the tournament tables: only --event and --ruleset apply")
    if f.by is not None and f.by not in spec.by:
        offered = f"it splits by: {', '.join(spec.by)}" if spec.by else "it has no split"
        raise NotApplicableError(f"report {name!r} cannot be split by {f.by!r}; {offered}")
    if f.seat is not None and not spec.per_seat:
        raise NotApplicableError(f"report {name!r} is about whole games, so --seat does not apply; use --agent/--deck")
    if min_games and not spec.sample_column:  # 0 (show every row) hides nothing, so any report takes it
        raise NotApplicableError(f"report {name!r} has no games column, so --min-games {min_games} does not apply")
    rulesets = read_rulesets(spec)
    if f.ruleset is not None and rulesets is not None and f.ruleset not in rulesets:
        raise NotApplicableError(
            f"report {name!r} reads {', '.join(rulesets)} games only; --ruleset {f.ruleset} does not apply"
        )


def read_rulesets(spec: ReportSpec) -> tuple[str, ...] | None:
    """The rulesets a report reads (None: all): its own list, or for a report about the first player every known
    ruleset whose players take turns, so its sample counts none of the games it cannot read."""
    if not spec.turn_taking:
        return spec.rulesets
    return tuple(name for name in ruleset_names() if not _simultaneous(name))


def _simultaneous(ruleset: str) -> bool:
    try:
        return bool(schema_for(ruleset).simultaneous_turns)
    except (ImportError, AttributeError):  # a plugin that cannot be imported here: read it, as before
        return False


def run_report(
    con: duckdb.DuckDBPyConnection,
    name: str,
    *,
    ruleset: str | None = None,
    min_games: int | None = None,
    database: str = "",
    filters: Filters | None = None,
) -> ReportResult:
    """Run report ``name`` under ``filters`` (``ruleset`` is a shorthand for ``Filters(ruleset=...)``).

    ``min_games`` None means the report's default floor (``MIN_GAMES``; an event report's is 0); 0 shows every row.
    """
    spec = REPORTS.get(name)
    if spec is None:
        raise UnknownReportError("report", name, REPORTS)
    f = filters if filters is not None else Filters()
    if ruleset is not None:
        f = msgspec.structs.replace(f, ruleset=ruleset)
    if f.event is not None:  # by id, name or folder
        f = msgspec.structs.replace(f, event=resolve_event(con, f.event))
    check(con, f)
    refuse_inapplicable(name, spec, f, min_games)
    sql = sqlfiles.load(f"report_{name}")
    params = {k: v for k, v in {"ruleset": f.ruleset, "event": f.event}.items() if f"${k}" in sql}
    summary = name in SUMMARIES and _summary_answers(con, f, name)
    if summary:
        sql = sqlfiles.load(SUMMARIES[name])
        params = {k: v for k, v in filter_params(f, read_rulesets(spec)).items() if f"${k}" in sql}
    elif name in CELLS and _cells_answer(con, f):
        sql = cells_sql(sql, name)
    # the sample line reads the selection, but with no filter but the ruleset a summary's is counted without it
    whole = summary and unfiltered(f) and not spec.reviews
    if not whole:
        select(con, f, read_rulesets(spec), extras_read(sql))
    rows = frame_of(con.sql(sql, params=params))

    def counted() -> tuple[Any, ...]:
        return whole_sample(con, f, read_rulesets(spec)) if whole else sample(con)

    result = finish_report(name, f, rows, min_games, lambda: _sample(con, spec, f, database, counted()))
    if result.frame.height or result.hidden:
        return result
    games = int(counted()[0])
    why = selection_reason(con, spec, f, read_rulesets(spec)) if games == 0 or spec.event_tables else ""
    return result._replace(empty=why or result.empty)


def frame_of(relation: duckdb.DuckDBPyRelation) -> pl.DataFrame:
    """The relation's rows as a polars frame, handed over through the Arrow stream interface: the same frame as
    ``relation.pl()``, which imports pyarrow to build a table first (~50 ms of a fresh command's time)."""
    return pl.DataFrame(relation)


# Reports with a second query over a summary derived at ingest (ingest/summary.py), giving the same rows from far
# fewer: used when the summary is fresh and holds what the filters read. card_summary holds every seat context (not
# the recording time nor the length); card_metrics_summary the report's rows with no filter but the ruleset.
SUMMARIES = {"card_winrate": "report_card_winrate_summary", "card_metrics": "report_card_metrics_summary"}


def _summary_answers(con: duckdb.DuckDBPyConnection, f: Filters, name: str = "card_winrate") -> bool:
    if name == "card_metrics":  # its rows for every ruleset, unsplit: each split is one ruleset's, so --ruleset too
        unfiltered = f == Filters(ruleset=f.ruleset, pool=f.pool) and not f.pool
        return unfiltered and _fresh(con, "card_metrics_summary")
    return f.since is None and f.until is None and f.min_turns is None and _fresh(con, "card_summary")


# Reports that read cells derived at ingest (ingest/summary.py) instead of their table, under the filters a summary
# does not answer: card_metrics sums card_metrics_cells instead of card_games under any split or filter except
# --since/--until (the recording time is not in the cells), while the cells are fresh.
CELLS = {"card_metrics": ("report_card_metrics_cells", "card_metrics_cells")}


def _cells_answer(con: duckdb.DuckDBPyConnection, f: Filters) -> bool:
    return f.since is None and f.until is None and _fresh(con, CELLS["card_metrics"][1])


def _fresh(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    """``summary_fresh``, kept on a read-only connection (its stamp reads every game: 2 ms at 10 M events)."""
    return kept_fact(con, f"fresh {name}", lambda: summary_fresh(con, name))


def cells_sql(sql: str, name: str = "card_metrics") -> str:
    """Report ``name``'s SQL reading its cells: its first stage (``r``, the rows counted) swapped for
    ``CELLS[name]``'s, every later stage (the arithmetic) its own."""
    start, end = sql.index("WITH r AS ("), sql.index("\n),\nc AS (") + len("\n),\n")
    return sql[:start] + "WITH " + sqlfiles.load(CELLS[name][0]).rstrip() + "\n" + sql[end:]


PAIRED = chr(31)  # between a row's split and its bot pairing in ``grp`` (``select.sql``)


def _parted(frame: pl.DataFrame, f: Filters) -> pl.DataFrame:
    """``grp`` (and ``opp_grp``) parted into the split's column (named by ``--by``; none without) and ``pairing``,
    the bot pairing the row's games were played by (``agent vs opponent agent``), unless the pairings were pooled."""
    if "grp" not in frame.columns:
        return frame
    at = frame.columns.index("grp")
    parts = pl.col("grp").str.split(PAIRED)
    split = [parts.list.get(0).alias(f.by)] if f.by else []
    pairing = [] if f.pool else [parts.list.get(1, null_on_oob=True).alias("pairing")]
    rest = [c for c in frame.columns if c not in ("grp", "opp_grp")]
    opponent = []
    if "opp_grp" in frame.columns and f.by:
        opponent = [pl.col("opp_grp").str.split(PAIRED).list.get(0).alias(f"opponent_{f.by}")]
    return frame.select([*rest[:at], *split, *pairing, *opponent, *rest[at:]])


def finish_report(
    name: str, f: Filters, rows: pl.DataFrame, min_games: int | None, sample_of: Callable[[], str]
) -> ReportResult:
    """A report's rows as its SQL gave them (from DuckDB, or Spark: ``annals.spark.reports``) made its result:
    rates and intervals, the split's names, rows under ``min_games`` hidden, its sample line."""
    spec = REPORTS[name]
    frame = with_rates(rows)
    for rate, (hits, n) in spec.proportions.items():  # the SQL holds a NULL placeholder where the rate goes
        exprs = proportion_columns(hits, n, rate, f"{rate}_ci_low", f"{rate}_ci_high")
        at = frame.columns.index(rate)
        order = [*frame.columns[:at], rate, f"{rate}_ci_low", f"{rate}_ci_high", *frame.columns[at + 1 :]]
        frame = frame.with_columns(exprs).select(order)
    if "pick_se" in frame.columns:  # decision_choices: the pick's interval is cluster-robust by game, not Wilson's
        se = pl.col("pick_se")
        low, high = (pl.col("pick") - Z95 * se).clip(0, 1), (pl.col("pick") + Z95 * se).clip(0, 1)
        frame = frame.with_columns(pick_ci_low=low.round(4), pick_ci_high=high.round(4)).drop("pick_se")
    if "expected_wins" in frame.columns:  # against what the Slava difference predicts (site_order)
        expected = (pl.col("expected_wins") / pl.when(pl.col("games") > 0).then(pl.col("games"))).round(4)
        frame = frame.with_columns(expected_win_rate=expected).with_columns(
            excess=(pl.col("win_rate") - pl.col("expected_win_rate")).round(4)
        )
    if {"win_rate", "second_win_rate"} <= set(frame.columns):  # going first against going second
        frame = frame.with_columns(advantage=(pl.col("win_rate") - pl.col("second_win_rate")).round(4))
    floor = spec.min_games if min_games is None else min_games
    if {"gih_win_rate", "gns_win_rate"} <= set(frame.columns):  # improvement when drawn (17lands' IWD)
        # a difference of two rates needs both samples: a cell of 8 games gives an IWD of noise, so none
        enough = (pl.col("gih_games") >= floor) & (pl.col("gns_games") >= floor)
        difference = pl.col("gih_win_rate") - pl.col("gns_win_rate")
        iwd = pl.when(enough).then(difference.round(4))
        frame = frame.with_columns(iwd=iwd)
        if "iwd_se" in frame.columns:  # cluster-robust by game (card_metrics.sql), beside the IWD
            low, high = (
                (difference - Z95 * pl.col("iwd_se")).clip(-1, 1),
                (difference + Z95 * pl.col("iwd_se")).clip(-1, 1),
            )
            order = [c for c in frame.columns if c not in ("iwd_se", "iwd_ci_low", "iwd_ci_high")]
            at = order.index("iwd") + 1
            frame = frame.with_columns(
                iwd_ci_low=pl.when(enough).then(low.round(4)), iwd_ci_high=pl.when(enough).then(high.round(4))
            ).select([*order[:at], "iwd_ci_low", "iwd_ci_high", *order[at:]])
        if "iwd_length_matched" in frame.columns:
            order = [c for c in frame.columns if c not in ("iwd_length_matched", "matched_gih_games")]
            matched = pl.when(enough).then(pl.col("iwd_length_matched"))
            frame = frame.with_columns(iwd_length_matched=matched).select(
                [*order, "iwd_length_matched", "matched_gih_games"]
            )
    frame = _parted(frame, f)
    hidden = 0
    if spec.sample_column and floor:
        kept = frame.filter(pl.col(spec.sample_column).fill_null(0) >= floor)
        hidden, frame = frame.height - kept.height, kept
    frame = without_negative_zero(frame)
    sample = sample_of()
    if spec.sample_column:
        sample += (
            f"; {hidden} rows with fewer than {floor} {spec.sample_column} hidden (--min-games 0 shows them)"
            if floor
            else "; every row shown (--min-games 0)"
        )
    empty = ""
    if frame.height == 0:
        column = spec.sample_column or "games"
        empty = hidden_reason(hidden, floor, column) if hidden else "the games selected hold nothing this report counts"
    return ReportResult(name, spec.title, sample, frame, spec.description, f.given(), hidden, empty)
