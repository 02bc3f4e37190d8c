"""Swiss pairings and the single-elimination bracket: pure functions of standings and history, no I/O.

Swiss: players are ordered by match points, shuffled within each point group by the round's seeded generator.
The round is then the pairing, among all rematch-free ones, with the fewest floats (pairs across point groups:
as many players as possible meet one on their own points), then the fewest match points apart over its floats
(an unavoidable float goes to the nearest group it can), then partners nearest in that order
(``matching.fewest_floats``, a minimum-cost perfect matching; the property tests hold it against brute force).
Only if no rematch-free pairing exists is the one with the fewest rematches taken, then as above. With an odd
count the bye goes first, by its own rule: to the lowest-ranked player without one for whom the rest still pair
without a rematch (floats do not move it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set

from annals.engine.names import plural
from annals.engine.rng import Rng
from annals.engine.tournament import chart
from annals.engine.tournament.matching import SEARCH_BUDGET, fewest_floats, fewest_rematches
from annals.schemas.errors import AnnalsError
from annals.schemas.event import Pairing


class PairingError(AnnalsError, ValueError):
    """The players cannot be paired as asked (too few players, or a top cut that is not a power of two)."""


def swiss_order(players: Sequence[str], points: Mapping[str, int], rng: Rng) -> list[str]:
    """Players by match points, best first, in a random order within each point group."""
    keys = {p: rng.below(1 << 30) for p in players}  # drawn in the given order: reproducible from the seed
    return sorted(players, key=lambda p: (-points.get(p, 0), keys[p], p))


def pair_swiss(
    ranked: Sequence[str],
    points: Mapping[str, int],
    played: Mapping[str, Set[str]],
    had_bye: Set[str],
    rng: Rng,
    *,
    budget: int = SEARCH_BUDGET,
) -> list[Pairing]:
    """One Swiss round for the active players ``ranked`` (current standings order, best first).

    ``played`` maps each player to the opponents already met; ``had_bye`` those who had a bye. Tables are
    numbered from the top point group down; the bye, if any, takes the last table.
    """
    if len(ranked) < 2:
        raise PairingError(f"{plural(len(ranked), 'active player')}: a round needs at least 2; register more players")
    order = swiss_order(ranked, points, rng)
    bye = ""
    rest = order
    result: list[tuple[int, int]] | None = None
    if len(order) % 2:
        candidates = [p for p in reversed(ranked) if p not in had_bye] or list(reversed(ranked))
        for candidate in candidates:
            rest = [p for p in order if p != candidate]
            result = fewest_floats(rest, points, played, budget=budget)
            if result is not None:
                bye = candidate
                break
        if result is None:
            bye = candidates[0]
            rest = [p for p in order if p != bye]
    else:
        result = fewest_floats(rest, points, played, budget=budget)
    if result is None:
        result = fewest_rematches(rest, points, played)
    tables = [Pairing(t, rest[i], rest[j]) for t, (i, j) in enumerate(sorted(result), start=1)]
    if bye:
        tables.append(Pairing(len(tables) + 1, bye, ""))
    return tables


def bracket_order(size: int) -> list[int]:
    """Seeds (1-based) in bracket order: 1 v size, then so that seeds 1 and 2 can meet only in the final."""
    seeds = [1]
    while len(seeds) < size:
        total = 2 * len(seeds) + 1
        seeds = [s for seed in seeds for s in (seed, total - seed)]
    return seeds


def pair_top_cut(seeded: Sequence[str]) -> list[Pairing]:
    """The first round of a single-elimination cut: ``seeded`` best first, its length a power of two."""
    size = len(seeded)
    if size < 2 or size & (size - 1):
        raise PairingError(f"a top cut of {size}: it must be a power of two (2, 4, 8, ...)")
    order = bracket_order(size)
    return [Pairing(t, seeded[order[2 * t - 2] - 1], seeded[order[2 * t - 1] - 1]) for t in range(1, size // 2 + 1)]


def pair_next_bracket(winners: Sequence[str]) -> list[Pairing]:
    """The next round of the cut: the winners of tables 1 and 2 meet at table 1, of 3 and 4 at table 2, ..."""
    return [Pairing(t, winners[2 * t - 2], winners[2 * t - 1]) for t in range(1, len(winners) // 2 + 1)]


def recommended_rounds(players: int) -> int:
    """Swiss rounds for a field, from the published Swiss chart (``chart.recommended_rounds``); a field of
    fewer than 2 is counted as 2 (it cannot be paired anyway, and says so when it is)."""
    return chart.recommended_rounds(max(players, 2))
