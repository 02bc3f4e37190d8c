"""Swiss standings: match points, then OMW%, GW%, OGW%, each with the customary 33% floor; pure, no I/O.

* Match points: 3 a match win, 1 a draw, 0 a loss; a bye is a match win (and two game wins).
* MW% of a player: match points / (3 x matches played, the bye included), at least 0.33.
* GW% of a player: game points / (3 x games played), a game won 3, drawn 1; the bye's two games included;
  at least 0.33.
* OMW% and OGW%: the mean of the opponents' MW% and GW% (each already floored); the bye is no opponent, so it
  counts in a player's own figures only. Dropped players remain opponents with the figures they had.
* Players level on all four are ordered by a lot drawn from the event's seed (``lot``), never by name or id.

Figures are exact fractions, compared exactly; they are shown rounded.
"""

from __future__ import annotations

import hashlib
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
    winner: str  # a player id, or "" for a drawn match


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

    def mw(self) -> Fraction:
        played = self.wins + self.losses + self.draws
        return max(FLOOR, Fraction(self.points, WIN * played)) if played else FLOOR

    def gw(self) -> Fraction:
        return max(FLOOR, Fraction(self.game_points, WIN * self.games)) if self.games else FLOOR


def lot(seed: int, player: str) -> int:
    """The player's tie-breaking lot: from the event seed, the same at every standings computation."""
    return int.from_bytes(hashlib.blake2b(f"{seed}:{player}".encode(), digest_size=8).digest(), "big")


def _tally(players: Sequence[str], results: Sequence[Result]) -> dict[str, _Tally]:
    tallies = {p: _Tally() for p in players}
    for r in results:
        ta = tallies.setdefault(r.a, _Tally())
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
        if r.winner == r.a:
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
    """Every player in ``players`` (dropped ones included), ranked; ``results`` the Swiss matches so far."""
    tallies = _tally(players, results)
    mw = {p: t.mw() for p, t in tallies.items()}
    gw = {p: t.gw() for p, t in tallies.items()}

    def mean(values: list[Fraction]) -> Fraction:
        return sum(values, Fraction(0)) / len(values) if values else FLOOR

    omw = {p: mean([mw[o] for o in t.opponents]) for p, t in tallies.items()}
    ogw = {p: mean([gw[o] for o in t.opponents]) for p, t in tallies.items()}
    order = sorted(players, key=lambda p: (-tallies[p].points, -omw[p], -gw[p], -ogw[p], lot(seed, p)))
    rows = []
    for rank, p in enumerate(order, start=1):
        t = tallies[p]
        figures = float(omw[p]), float(gw[p]), float(ogw[p]), float(mw[p])
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
    return {r.a for r in results if not r.b}


def ranking(players: Sequence[str], results: Sequence[Result], seed: int, active: Mapping[str, bool]) -> list[str]:
    """The active players in standings order: what the next Swiss round pairs and gives the bye by."""
    return [s.player for s in standings(players, results, seed) if active.get(s.player, False)]
