"""How many Swiss rounds, and how large a top cut, for a field: the published Swiss chart.

The chart is Appendix E of the Magic: The Gathering Tournament Rules, "Recommended Number of Rounds in Swiss
Tournaments" (as published by Wizards of the Coast and reproduced on the judges' rules blog,
blogs.magicjudges.org/rules/mtr-appendix-e/):

    players   Swiss rounds   playoff
    4         2              none (team events only; single elimination)
    5-8       3              none (single elimination)
    9-16      5              top 4 (4 rounds and a top 8 when the playoff is a booster draft)
    17-32     5              top 8
    33-64     6              top 8
    65-128    7              top 8
    129-226   8              top 8
    227-409   9              top 8
    410+      10             top 8

annals events are constructed (each player registers a deck before round 1), so the 9-16 row is the chart's
"all other formats" one: 5 rounds and a top 4. The chart runs 5-8 players as a single elimination; annals
pairs them as a Swiss of 3 rounds without a cut, which is as many rounds. Below the chart: 2 players play 1
round (a second would be a rematch) and 3 play 2, as 4 do. The chart differs from ceil(log2 players) (at least
3) at 2-4, 9-16, 227-256, 410-512 and from 1,025 players on.
"""

from __future__ import annotations

from annals.engine.names import plural
from annals.schemas.errors import AnnalsError

# (most players, Swiss rounds, top cut) by row of the chart, smallest field first; the last row has no upper end
CHART = (
    (2, 1, 0),
    (4, 2, 0),
    (8, 3, 0),
    (16, 5, 4),
    (32, 5, 8),
    (64, 6, 8),
    (128, 7, 8),
    (226, 8, 8),
    (409, 9, 8),
)
LARGEST = (10, 8)  # 410 players and more


class ChartError(AnnalsError, ValueError):
    """A field too small for a Swiss, or a top cut the field cannot make."""


def _row(players: int) -> tuple[int, int]:
    if players < 2:
        raise ChartError(f"{plural(players, 'player')}: a Swiss needs at least 2; register more players")
    return next(((rounds, top) for most, rounds, top in CHART if players <= most), LARGEST)


def recommended_rounds(players: int) -> int:
    """The chart's Swiss rounds for a field of ``players`` (2 or more)."""
    return _row(players)[0]


def recommended_top_cut(players: int) -> int:
    """The chart's top cut for a field of ``players`` (0: none, the Swiss decides)."""
    return _row(players)[1]


def check_top_cut(top: int, players: int) -> None:
    """Refuse, with the reason, a top cut the field cannot sensibly make; ``top`` 0 is no cut."""
    if top == 0:
        return
    if top < 2 or top & (top - 1):
        raise ChartError(
            f"a top {top}: a single-elimination cut is a power of two (2, 4, 8, ...); use --top 0 for none"
        )
    if top >= players:
        largest = 1 << ((players - 1).bit_length() - 1) if players > 2 else 0
        fix = f"at most a top {largest}" if largest >= 2 else "no cut"
        raise ChartError(
            f"a top {top} of {players} players: a cut as large as the field leaves the Swiss deciding nothing and "
            f"a bracket of everyone; {fix} (the chart recommends {recommended_top_cut(players) or 'none'})"
        )


def advice(players: int) -> str:
    """One line for the organiser: what the chart advises for this field (2 or more players)."""
    rounds, top = _row(players)
    cut = f"a top {top}" if top else "no top cut"
    return f"the Swiss chart (MTR Appendix E) advises {plural(rounds, 'Swiss round')} and {cut} for {players} players"
