"""Round and top-cut advice from the published Swiss chart (MTR Appendix E, "Recommended Number of Rounds in Swiss
Tournaments"), for individual events of constructed decks ("all other formats").

The chart starts at 5 players; below it a field plays every other player once at most: 1 round for 2 players, 2
for 3 or 4. A top cut is advised only where the chart has one (9 or more players), and never as large as the field.
"""

from __future__ import annotations

# (fewest players, Swiss rounds, top cut) rows, in order: a field takes the last row it reaches.
CHART: tuple[tuple[int, int, int], ...] = (
    (2, 1, 0),
    (3, 2, 0),
    (5, 3, 0),
    (9, 5, 4),
    (17, 5, 8),
    (33, 6, 8),
    (65, 7, 8),
    (129, 8, 8),
    (227, 9, 8),
    (410, 10, 8),
)


def _row(players: int) -> tuple[int, int, int]:
    row = CHART[0]
    for r in CHART:
        if players >= r[0]:
            row = r
    return row


def swiss_rounds(players: int) -> int:
    """The chart's Swiss rounds for a field of ``players`` (2 or more)."""
    return _row(players)[1]


def top_cut(players: int) -> int:
    """The chart's top cut for the field (0: none)."""
    return _row(players)[2]


def advice(players: int) -> str:
    """One line for the organiser: what the chart advises for this field."""
    rounds, top = _row(players)[1:]
    cut = f"a top {top}" if top else "no top cut"
    return f"the Swiss chart (MTR Appendix E) advises {rounds} Swiss round(s) and {cut} for {players} players"
