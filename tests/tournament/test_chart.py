"""The published Swiss chart (MTR Appendix E): rounds and top cut by field size, and a top cut refused with why."""

from __future__ import annotations

import pytest

from annals.engine.tournament.chart import (
    ChartError,
    check_top_cut,
    recommended_rounds,
    recommended_top_cut,
)
from annals.engine.tournament.pairing import recommended_rounds as rounds_for_events

# Each row of the chart at both of its ends: (first players, last players, rounds, top cut)
ROWS = [
    (2, 2, 1, 0),
    (3, 4, 2, 0),
    (5, 8, 3, 0),
    (9, 16, 5, 4),
    (17, 32, 5, 8),
    (33, 64, 6, 8),
    (65, 128, 7, 8),
    (129, 226, 8, 8),
    (227, 409, 9, 8),
    (410, 100_000, 10, 8),
]


@pytest.mark.parametrize(("first", "last", "rounds", "top"), ROWS)
def test_each_row_of_the_chart_holds_from_its_first_field_to_its_last(
    first: int, last: int, rounds: int, top: int
) -> None:
    for players in (first, (first + last) // 2, last):
        assert recommended_rounds(players) == rounds
        assert recommended_top_cut(players) == top
        assert rounds_for_events(players) == rounds  # what events use when no rounds are set


def test_the_chart_differs_from_log2_where_the_issue_says_and_nowhere_else_but_9_to_16() -> None:
    log2 = {n: max(3, (n - 1).bit_length()) for n in range(2, 4097)}
    differs = [n for n in log2 if recommended_rounds(n) != log2[n]]
    spans: list[list[int]] = []
    for n in differs:
        if spans and spans[-1][1] == n - 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    assert spans == [[2, 4], [9, 16], [227, 256], [410, 512], [1025, 4096]]


def test_a_cut_as_large_as_the_field_is_refused_with_the_reason_and_the_largest_that_works() -> None:
    with pytest.raises(ChartError, match=r"a top 8 of 8 players: a cut as large as the field .* at most a top 4"):
        check_top_cut(8, 8)
    with pytest.raises(ChartError, match=r"a top 16 of 9 players.* at most a top 8 \(the chart recommends 4\)"):
        check_top_cut(16, 9)
    with pytest.raises(ChartError, match=r"a top 2 of 2 players.* no cut"):
        check_top_cut(2, 2)
    with pytest.raises(ChartError, match="power of two"):
        check_top_cut(6, 100)
    check_top_cut(8, 9)
    check_top_cut(0, 2)  # no cut is always possible
    for players in range(2, 600):
        check_top_cut(recommended_top_cut(players), players)  # the chart never recommends a cut it refuses


def test_a_field_below_two_is_refused() -> None:
    with pytest.raises(ChartError, match="at least 2"):
        recommended_rounds(1)
    assert rounds_for_events(0) == 1  # events count an empty field as 2 and refuse to pair it when asked
