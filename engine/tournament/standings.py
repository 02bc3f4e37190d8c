"""Swiss standings: match points, then OMW%, GW%, OGW%, each with the customary 33% floor; pure, no I/O.

* Match points: 3 a match win, 1 a draw, 0 a loss; a bye is a match win (and two game wins); a double loss is a
  loss for both; a round a late entrant missed is a match loss, 0-2 in games, with no opponent (R-EVT-09).
* MW% of a player: match points / (3 x matches played, the bye included), at least 0.33.
* GW% of a player: game points / (3 x games played), a game won 3, drawn 1; the bye's two games included;
  at least 0.33.
* OMW% and OGW%: the mean of the opponents' MW% and GW% (each already floored); the bye is no opponent, so it
  counts in a player's own figures only. Dropped players remain opponents with the figures they had.
* Players level on all four are ordered by a lot drawn from the event's seed (``lot``), never by name or id.

Figures are compared exactly (integers over a common denominator), and reported as floats.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from fractions import Fraction

import msgspec

FLOOR = Fraction(33, 100)
WIN, DRAW = 3, 1


class Result(msgspec.Struct, frozen=True):
    """One finished match as standings see it: ``b`` "" for a bye; games won by each and games drawn."""

    a: str
    b: str
    wins_a: int
    wins_b: int
    draws: int
    winner: str  # a player id, or "" for a drawn match (or a double loss)
    double_loss: bool = False  # a match loss for both players (games as entered)
    missed: bool = False  # ``a`` missed the round (a late entry): a match loss, 0-2 in games, no opponent


class Standing(msgspec.Struct, frozen=True):
    rank: int
    player: str
    points: int
    wins: int
    losses: int
    draws: int
    byes: int
    omw: float
    gw: float
    ogw: float
    mw: float


class _Tally:
    __slots__ = ("byes", "draws", "game_points", "games", "losses", "opponents", "wins")

    def __init__(self) -> None:
        self.wins = self.losses = self.draws = self.byes = self.games = self.game_points = 0
        self.opponents: list[str] = []

    @property
    def points(self) -> int:
        return WIN * self.wins + DRAW * self.draws


def lot(seed: int, player: str) -> int:
    """The player's tie-breaking lot: from the event seed, the same at every standings computation."""
    return int.from_bytes(hashlib.blake2b(f"{seed}:{player}".encode(), digest_size=8).digest(), "big")


def _tally(players: Sequence[str], results: Sequence[Result]) -> dict[str, _Tally]:
    tallies = {p: _Tally() for p in players}
    for r in results:
        ta = tallies.setdefault(r.a, _Tally())
        if r.missed:  # a round missed by a late entry: a match loss, 0-2 in games, no opponent (R-EVT-09)
            ta.losses += 1
            ta.games += 2
            continue
        if not r.b:  # a bye: a match win, 2-0 in games
            ta.wins += 1
            ta.byes += 1
            ta.games += 2
            ta.game_points += 2 * WIN
            continue
        tb = tallies.setdefault(r.b, _Tally())
        ta.opponents.append(r.b)
        tb.opponents.append(r.a)
        games = r.wins_a + r.wins_b + r.draws
        ta.games += games
        tb.games += games
        ta.game_points += WIN * r.wins_a + DRAW * r.draws
        tb.game_points += WIN * r.wins_b + DRAW * r.draws
        if r.double_loss:
            ta.losses += 1
            tb.losses += 1
        elif r.winner == r.a:
            ta.wins += 1
            tb.losses += 1
        elif r.winner == r.b:
            tb.wins += 1
            ta.losses += 1
        else:
            ta.draws += 1
            tb.draws += 1
    return tallies


def match_points(players: Sequence[str], results: Sequence[Result]) -> dict[str, int]:
    return {p: t.points for p, t in _tally(players, results).items()}


def standings(players: Sequence[str], results: Sequence[Result], seed: int) -> list[Standing]:
    """Every player in ``players`` (dropped ones included), ranked; ``results`` the Swiss matches so far.

    Exact and fast: every MW% and GW% is an integer over one common denominator ``d`` (a multiple of 100 and of
    each 3 x matches and 3 x games), and every mean of them an integer over ``d * l`` (``l`` a multiple of each
    player's number of opponents), so comparisons are integer comparisons and equal figures compare equal.
    """
    tallies = _tally(players, results)
    d = math.lcm(FLOOR.denominator, *{3 * (t.wins + t.losses + t.draws) or 1 for t in tallies.values()},
                 *{3 * t.games or 1 for t in tallies.values()})  # fmt: skip
    floor = FLOOR.numerator * (d // FLOOR.denominator)
    mw: dict[str, int] = {}
    gw: dict[str, int] = {}
    for p, t in tallies.items():
        played = t.wins + t.losses + t.draws
        mw[p] = max(floor, t.points * (d // (WIN * played))) if played else floor
        gw[p] = max(floor, t.game_points * (d // (WIN * t.games))) if t.games else floor
    ell = math.lcm(1, *{len(t.opponents) for t in tallies.values() if t.opponents})

    def mean(values: dict[str, int], opps: list[str]) -> int:
        return sum(values[o] for o in opps) * (ell // len(opps)) if opps else floor * ell

    omw = {p: mean(mw, t.opponents) for p, t in tallies.items()}
    ogw = {p: mean(gw, t.opponents) for p, t in tallies.items()}
    order = sorted(players, key=lambda p: (-tallies[p].points, -omw[p], -gw[p], -ogw[p], lot(seed, p)))
    rows = []
    for rank, p in enumerate(order, start=1):
        t = tallies[p]
        figures = omw[p] / (d * ell), gw[p] / d, ogw[p] / (d * ell), mw[p] / d
        rows.append(Standing(rank, p, t.points, t.wins, t.losses, t.draws, t.byes, *figures))
    return rows


def opponents(results: Sequence[Result]) -> dict[str, set[str]]:
    """Who has met whom (byes are no meeting)."""
    met: dict[str, set[str]] = {}
    for r in results:
        if r.b:
            met.setdefault(r.a, set()).add(r.b)
            met.setdefault(r.b, set()).add(r.a)
    return met


def byes(results: Sequence[Result]) -> set[str]:
    return {r.a for r in results if not r.b and not r.missed}


def ranking(players: Sequence[str], results: Sequence[Result], seed: int, active: Mapping[str, bool]) -> list[str]:
    """The active players in standings order: what the next Swiss round pairs and gives the bye by."""
    return [s.player for s in standings(players, results, seed) if active.get(s.player, False)]
