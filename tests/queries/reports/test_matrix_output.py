"""Reports that are matrices print as one in the terminal (rows x columns within the width, names cut or broken
sensibly, a mirror's cell marked), while CSV and JSON keep the long rows; a report at a glance (the demo's
``compact_table``) says shared values once and a rate with its interval in one cell."""

from __future__ import annotations

import json
import re

import polars as pl
import pytest

from annals.queries.reports.compact import compact_table
from annals.queries.reports.matrix import MISSING, table_for
from annals.queries.reports.output import render

DECKS = ["bastion", "corsairs-of-the-long-night", "shipwrights", "tempest", "vanguard", "wayfarer", "wreckers"]
CELL = re.compile(r"\b(\d+)% (\d+)(\*?)")


def deck_rows(decks: list[str], ruleset: str = "miras9") -> pl.DataFrame:
    rows = []
    for i, d in enumerate(decks):
        for j, o in enumerate(decks):
            if i == j and i % 2:
                continue  # some mirrors unplayed
            sides = ["seat 0", "seat 1"] if i == j else ["either"]
            for side in sides:
                games, wins = 8 + i, (3 * i + j + (side == "seat 1")) % (9 + i)
                rows.append({"pairing": "heuristic vs heuristic", "ruleset": ruleset, "deck": d, "opponent": o,
                             "side": side, "games": games, "wins": wins, "win_rate": wins / games,
                             "ci_low": 0.1, "ci_high": 0.9, "deck_games": 60 + i, "deck_wins": 30,
                             "deck_win_rate": 30 / (60 + i), "deck_ci_low": 0.3, "deck_ci_high": 0.6})  # fmt: skip
    return pl.DataFrame(rows)


@pytest.mark.parametrize("width", [60, 100, 200])
def test_deck_matrix_prints_as_a_matrix_within_the_width(width: int) -> None:
    frame = pl.concat([deck_rows(DECKS), deck_rows(["clash", "glory", "starter-winter"], "morana")])
    layout = table_for("deck_matrix")
    assert layout is not None and table_for("game_length") is None
    text = render(frame, "table", None, width=width, layout=layout)
    assert text is not None
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= width
    assert "heuristic vs heuristic · miras9" in text and "heuristic vs heuristic · morana" in text
    cells = CELL.findall(text)
    either = frame.filter(pl.col("side") == "either")
    mirrors = frame.filter(pl.col("side") == "seat 0")
    decks = frame.select("ruleset", "deck").unique().height
    assert len(cells) == either.height + mirrors.height + decks  # every pairing once, and each deck's total
    assert sum(1 for c in cells if c[2]) == mirrors.height and "* a mirror" in text
    # the values are the rows' own: bastion against tempest
    row = either.filter((pl.col("deck") == "bastion") & (pl.col("opponent") == "tempest")).row(0, named=True)
    bastion = [line for line in lines if line.startswith("bastion")]
    assert any(f"{round(row['win_rate'] * 100)}% {row['games']}" in line for line in bastion)
    assert MISSING in text  # the unplayed mirrors
    # row names cut with an ellipsis, never wider than the label column; each row once per block of columns
    long = [line for line in lines if line.startswith("corsairs-of-the")]
    assert long and all("…" in line for line in long)
    blocks = sum(1 for line in lines if line.startswith("bastion"))
    assert blocks >= 1 and (width >= 100 or blocks > 1)


def test_csv_and_json_keep_the_long_rows() -> None:
    frame = deck_rows(DECKS)
    layout = table_for("deck_matrix")
    for fmt in ("csv", "json"):
        assert render(frame, fmt, None, layout=layout) == render(frame, fmt, None)
    doc = render(frame, "json", None, {"report": "deck_matrix"}, layout=layout)
    assert doc is not None and len(json.loads(doc)["rows"]) == frame.height


def test_compact_table_says_shared_values_once_and_rates_with_their_interval() -> None:
    frame = deck_rows(DECKS[:3]).filter(pl.col("side") == "either")
    text = compact_table(frame, 100)
    lines = text.splitlines()
    assert lines[0] == "pairing: heuristic vs heuristic; ruleset: miras9; side: either"
    assert "win_rate (95% CI)" in lines[1] and "ci_low" not in text
    assert re.search(r"\d+% \(10%-90%\)", text) and max(len(line) for line in lines) <= 100
    assert len(lines) == 2 + frame.height + 1 and lines[-1].startswith("(not shown here: ")  # too wide: named
    one = compact_table(frame.head(1), 60)  # one row too wide: a line per column
    assert one.splitlines()[0].startswith("pairing ") and "deck_win_rate (95% CI)" in one
