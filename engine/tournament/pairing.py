"""Swiss pairings and the single-elimination bracket: pure functions of standings and history, no I/O.

Swiss: players are ordered by match points, shuffled within each point group by the round's seeded generator;
a depth-first search then pairs the first unpaired player with the next one in that order it has not played,
backtracking when a later player would be left without a legal opponent. Pairing in order is what makes it Swiss:
partners come from the same point group first, and the odd player of a group is paired down with the top of the
next. The search is exhaustive, so it finds a rematch-free pairing whenever one exists (the property tests hold it
against brute force); only if none exists does a branch-and-bound search take the pairing with the fewest
rematches. With an odd count the bye goes to the lowest-ranked player without one for whom the rest still pair.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set

from annals.engine.rng import Rng
from annals.schemas.errors import AnnalsError
from annals.schemas.event import Pairing

SEARCH_BUDGET = 2_000_000  # search steps before the search gives up; never reached in the tests or the benchmark


class PairingError(AnnalsError, ValueError):
    """The players cannot be paired as asked (too few players, or a search beyond its budget)."""


class _OverBudget(Exception):
    pass


def _search(order: Sequence[str], played: Mapping[str, Set[str]], budget: list[int]) -> list[tuple[int, int]] | None:
    """Rematch-free perfect matching of ``order`` (even length), pairing each first unpaired with the next legal."""
    n = len(order)
    paired = [False] * n
    pairs: list[tuple[int, int]] = []
    i, j = 0, 1
    while True:
        while i < n and paired[i]:
            i += 1
        if i == n:
            return pairs
        if j <= i:
            j = i + 1
        seen = played.get(order[i], frozenset())
        while j < n and (paired[j] or order[j] in seen):
            j += 1
        budget[0] -= 1
        if budget[0] < 0:
            raise _OverBudget
        if j < n:
            paired[i] = paired[j] = True
            pairs.append((i, j))
            i, j = i + 1, i + 2
            continue
        if not pairs:
            return None
        i, j = pairs.pop()
        paired[i] = paired[j] = False
        j += 1


def _fewest_rematches(order: Sequence[str], played: Mapping[str, Set[str]], budget: list[int]) -> list[tuple[int, int]]:
    """Branch and bound: the pairing in order with the fewest rematches (used only when none avoids them all)."""
    n = len(order)
    best: list[list[tuple[int, int]]] = []
    best_cost = [n]
    paired = [False] * n
    pairs: list[tuple[int, int]] = []

    def go(cost: int) -> None:
        budget[0] -= 1
        if budget[0] < 0:
            raise _OverBudget
        if cost >= best_cost[0]:
            return
        i = next((k for k in range(n) if not paired[k]), n)
        if i == n:
            best[:] = [list(pairs)]
            best_cost[0] = cost
            return
        paired[i] = True
        seen = played.get(order[i], frozenset())
        for fresh in (True, False):  # legal partners first, so a good bound is found early
            for j in range(i + 1, n):
                if not paired[j] and (order[j] not in seen) == fresh:
                    paired[j] = True
                    pairs.append((i, j))
                    go(cost + (0 if fresh else 1))
                    pairs.pop()
                    paired[j] = False
        paired[i] = False

    go(0)
    return best[0]


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
        raise PairingError(f"{len(ranked)} active player(s): a round needs at least 2; register more players")
    order = swiss_order(ranked, points, rng)
    steps = [budget]
    try:
        bye = ""
        result: list[tuple[int, int]] | None = None
        rest = order
        if len(order) % 2:
            candidates = [p for p in reversed(ranked) if p not in had_bye] or list(reversed(ranked))
            for candidate in candidates:
                rest = [p for p in order if p != candidate]
                result = _search(rest, played, steps)
                if result is not None:
                    bye = candidate
                    break
            if result is None:
                bye = candidates[0]
                rest = [p for p in order if p != bye]
        else:
            result = _search(rest, played, steps)
        if result is None:
            result = _fewest_rematches(rest, played, steps)
    except _OverBudget:
        raise PairingError(
            f"no pairing found within {budget:,} search steps for {len(ranked)} players; "
            "this is a bug in annals, please report it with the event folder"
        ) from None
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
    """Swiss rounds for a field: ceil(log2 players), at least 3 (so 64 players get 6, 65 get 7)."""
    return max(3, (max(players, 2) - 1).bit_length())
