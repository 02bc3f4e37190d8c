"""Charts of the reports where a picture says more than the table: win rates with their Wilson 95% intervals, the
deck matrix as a heat map, Slava curves, the spread of game lengths, Battle Damage payment shares.

``report_chart(result)`` builds a Vega-Lite chart with Altair from a report's frame (``queries.reports.run``);
``write_plot(result, path)`` renders it to ``.svg`` or ``.png`` with vl-convert (no browser, no network) and
``.json`` writes the Vega-Lite spec itself. The chart's title is the report's title and its subtitle the sample.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import altair as alt
import polars as pl

from annals.queries.reports.output import card_names, endings
from annals.queries.reports.run import ReportResult
from annals.schemas.errors import AnnalsError

FORMATS = (".svg", ".png", ".json")
TOP_CARDS = 25
WIDTH = 520


class PlotError(AnnalsError, ValueError):
    """A report with no chart, an output format not offered, or a report with no rows to draw."""


def _rows(frame: pl.DataFrame) -> Any:
    """The frame as inline data, intervals with no games (NaN) left out."""
    if "games" in frame.columns:
        frame = frame.filter(pl.col("games") > 0)
    return alt.Data(values=frame.fill_nan(None).to_dicts())  # type: ignore[no-untyped-call]


def _win_rates(frame: pl.DataFrame, y: str, color: str | None = None) -> Any:
    base = alt.Chart().encode(
        y=alt.Y(f"{y}:N", sort="-x", title=None),
        tooltip=[f"{y}:N", "games:Q", "wins:Q", alt.Tooltip("win_rate:Q", format=".1%"), "ci_low:Q", "ci_high:Q"],
    )
    bars = base.mark_rule(strokeWidth=2).encode(
        x=alt.X("ci_low:Q", scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format="%"), title="win rate (95% CI)"),
        x2="ci_high:Q",
    )
    dots = base.mark_point(filled=True, size=60).encode(x="win_rate:Q")
    if color:
        bars, dots = bars.encode(color=f"{color}:N"), dots.encode(color=f"{color}:N")
    even = alt.Chart().mark_rule(strokeDash=[4, 3], color="#888").encode(x=alt.datum(0.5))
    return alt.layer(even, bars, dots, data=_rows(frame)).properties(width=WIDTH)


def first_player(r: ReportResult) -> Any:
    return _win_rates(r.frame, "ruleset")


def card_winrate(r: ReportResult) -> Any:
    frame = r.frame.filter(pl.col("games") > 0)
    top = frame.group_by("ruleset", "card_id").agg(pl.col("games").sum().alias("n"))
    keep = top.sort("n", descending=True).group_by("ruleset").head(TOP_CARDS).select("ruleset", "card_id")
    frame = card_names(frame.join(keep, on=["ruleset", "card_id"]))
    frame = frame.with_columns(pl.col("context").str.replace_all("_", " "))  # opening_hand: "opening hand"
    chart = _win_rates(frame, "card", "context")
    return chart.facet(row=alt.Row("ruleset:N", title=None)).resolve_scale(y="independent")


CELL = 58  # a heat-map cell's side in pixels: room for "100%" over "12 games" at the default size


def deck_matrix(r: ReportResult) -> Any:
    """One heat map per ruleset: a cell per deck pairing, its win rate in large type over its games in small, in
    white where the colour is dark; a mirror (split by seat in the report) is seat 0's record."""
    frame = r.frame.filter((pl.col("games") > 0) & pl.col("side").is_in(["either", "seat 0"]))
    frame = frame.with_columns(
        ((pl.col("win_rate") * 100).round(0).cast(pl.Int64).cast(pl.Utf8) + "%").alias("rate"),
        (pl.col("games").cast(pl.Utf8) + pl.when(pl.col("games") == 1).then(pl.lit(" game")).otherwise(
            pl.lit(" games"))).alias("sample"),
        ((pl.col("win_rate") - 0.5).abs() > 0.28).alias("dark"),
    )  # fmt: skip
    axis = alt.Axis(labelFontSize=12, titleFontSize=13, labelLimit=160)
    base = alt.Chart().encode(
        x=alt.X("opponent:N", title="against", axis=alt.Axis(labelAngle=-40, **axis.to_dict())),
        y=alt.Y("deck:N", title="deck", axis=axis),
    )
    scale = alt.Scale(scheme="redblue", domain=[0, 1], domainMid=0.5)
    cells = base.mark_rect(stroke="#fff", strokeWidth=1).encode(
        color=alt.Color("win_rate:Q", scale=scale, title="win rate", legend=alt.Legend(format="%")),
        tooltip=["deck:N", "opponent:N", "side:N", "games:Q", "wins:Q", alt.Tooltip("win_rate:Q", format=".1%")],
    )
    ink = alt.condition("datum.dark", alt.value("#fff"), alt.value("#111"))
    rate = base.mark_text(fontSize=14, fontWeight="bold", dy=-7).encode(text="rate:N", color=ink)
    sample = base.mark_text(fontSize=10, dy=10).encode(text="sample:N", color=ink)
    maps = [
        alt.layer(cells, rate, sample, data=_rows(part)).properties(
            title=alt.TitleParams(part["ruleset"][0], fontSize=14, anchor="middle"),
            width=alt.Step(CELL),
            height=alt.Step(CELL - 12),
        )
        for part in frame.partition_by("ruleset", maintain_order=True)
    ]  # side by side, not a facet: Vega-Lite cannot size a facet's cells by step with scales of their own
    return alt.hconcat(*maps, spacing=40).resolve_scale(color="shared")


def game_length(r: ReportResult) -> Any:
    base = alt.Chart().encode(y=alt.Y("ended by:N", title="how it ended"))  # in words, as every reader says it
    spread = base.mark_rule(strokeWidth=6, opacity=0.5).encode(
        x=alt.X("p10_turns:Q", title="turns: 10th-90th percentile, median (dot), mean (tick)"), x2="p90_turns:Q"
    )
    median = base.mark_point(filled=True, size=80).encode(x="median_turns:Q", tooltip=["games:Q", "median_turns:Q"])
    mean = base.mark_tick(thickness=2, size=18, color="#b91c1c").encode(x="mean_turns:Q")
    return (
        alt.layer(spread, median, mean, data=_rows(endings(r.frame)))
        .properties(width=WIDTH, height=90)
        .facet(row="ruleset:N")
        .resolve_scale(y="independent", x="independent")
    )


def slava_curves(r: ReportResult) -> Any:
    base = alt.Chart(_rows(r.frame)).encode(x=alt.X("turn:O", title="turn"), color=alt.Color("outcome:N", title=None))
    lines = base.mark_line(point=True).encode(
        y=alt.Y("mean_slava:Q", title="mean Slava (13 wins)", scale=alt.Scale(domain=[0, 13])),
        tooltip=["turn:O", "outcome:N", "games:Q", "mean_slava:Q", "max_slava:Q"],
    )
    best = base.mark_line(strokeDash=[3, 3], opacity=0.6).encode(y="max_slava:Q")
    return alt.layer(lines, best).properties(width=WIDTH, height=300)


def damage_payments(r: ReportResult) -> Any:
    return (
        alt.Chart(_rows(r.frame))
        .mark_bar()
        .encode(
            x=alt.X("stage:N", title="stage of the game"),
            y=alt.Y("share_of_stage:Q", stack="normalize", axis=alt.Axis(format="%"), title="Battle Damage points"),
            color=alt.Color("paid_from:N", title="paid from"),
            tooltip=["stage:N", "paid_from:N", "points:Q", alt.Tooltip("share_of_stage:Q", format=".1%")],
        )
        .properties(width=WIDTH, height=300)
    )


CHARTS: dict[str, Callable[[ReportResult], Any]] = {
    "card_winrate": card_winrate,
    "first_player": first_player,
    "deck_matrix": deck_matrix,
    "game_length": game_length,
    "slava_curves": slava_curves,
    "damage_payments": damage_payments,
}


def report_chart(r: ReportResult) -> Any:
    make = CHARTS.get(r.name)
    if make is None:
        raise PlotError(f"report {r.name!r} has no chart; charts exist for: {', '.join(CHARTS)}")
    if r.frame.height == 0:
        raise PlotError(f"report {r.name!r} has no rows to draw ({r.sample})")
    subtitle = textwrap.wrap(r.sample, 100)
    return make(r).properties(title=alt.TitleParams(r.title, subtitle=subtitle, anchor="start"))


def check_plot_path(path: str | os.PathLike[str]) -> Path:
    p = Path(path)
    if p.suffix.lower() not in FORMATS:
        raise PlotError(f"cannot write a plot as {p.suffix or 'a file with no suffix'!r}; name it .svg, .png or .json")
    return p


def write_plot(r: ReportResult, path: str | os.PathLike[str]) -> Path:
    """Draw report ``r`` to ``path`` (``.svg``, ``.png`` or ``.json``, by its suffix)."""
    import vl_convert as vlc

    p = check_plot_path(path)
    spec = report_chart(r).to_json()
    suffix = p.suffix.lower()
    if suffix == ".json":
        p.write_text(spec, encoding="utf-8")
    elif suffix == ".svg":
        p.write_text(vlc.vegalite_to_svg(spec), encoding="utf-8")
    else:
        p.write_bytes(vlc.vegalite_to_png(spec, scale=2))
    return p
