"""A report's win rates and Wilson intervals (``with_rates``, computed through intermediate columns for speed) are
the per-column expressions' (``proportion_columns``, the one definition) to the bit, zero and missing counts
included."""

from __future__ import annotations

import polars as pl
from hypothesis import given
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from annals.queries.reports.run import proportion_columns, with_rates

counts = st.integers(0, 5_000).flatmap(lambda games: st.tuples(st.just(games), st.integers(0, games)))
rows = st.lists(st.tuples(counts, counts, st.booleans()), min_size=1, max_size=30)


@given(rows)
def test_with_rates_gives_the_per_column_expressions_values_to_the_bit(
    given_rows: list[tuple[tuple[int, int], tuple[int, int], bool]],
) -> None:
    frame = pl.DataFrame(
        {
            "card_id": [f"c{i}" for i in range(len(given_rows))],
            "gp_games": [a[0] for a, _, _ in given_rows],
            "gp_wins": [a[1] for a, _, _ in given_rows],
            # a pair whose counts may be missing (an outer join's row without games of that kind)
            "gih_games": [None if gone else b[0] for _, b, gone in given_rows],
            "gih_wins": [None if gone else b[1] for _, b, gone in given_rows],
            "gp_mean_turns": [1.5] * len(given_rows),
        }
    )
    expected = frame.with_columns(
        proportion_columns("gp_wins", "gp_games", "gp_win_rate", "gp_ci_low", "gp_ci_high")
        + proportion_columns("gih_wins", "gih_games", "gih_win_rate", "gih_ci_low", "gih_ci_high")
    ).select(
        "card_id", "gp_games", "gp_wins", "gp_win_rate", "gp_ci_low", "gp_ci_high",
        "gih_games", "gih_wins", "gih_win_rate", "gih_ci_low", "gih_ci_high", "gp_mean_turns",
    )  # fmt: skip
    assert_frame_equal(with_rates(frame), expected, check_exact=True)
    assert with_rates(frame.select("card_id", "gp_mean_turns")).columns == ["card_id", "gp_mean_turns"]  # no pair
