"""The fewest floats: one Swiss round as a minimum-cost perfect matching, solved on a small reduced graph.

A pair's cost, compared in this order: whether it crosses point groups (a float), how many match points apart
its players are, how far apart they sit in Swiss order (so that, all else equal, neighbours meet). The sum over
the round is minimised exactly by Edmonds' weighted blossom algorithm (networkx's ``max_weight_matching``), with
rematches left out of the graph. That algorithm is cubic in pure Python, too slow on 10,000 players, so the graph
is reduced first, without changing the optimum:

* A **pool** is a point group large enough that which of its players floats does not matter: after any of its
  floaters is taken, each partner from outside still has a player it has not met (``size >= slots + c``, ``c``
  the most of the group any outsider has met), and the rest still pair among themselves (``size - slots >=
  2d + 2``, ``d`` the most of the group any member has met: Dirac's theorem then gives a perfect matching of
  the complement). A pool is represented by a few **slots** (as many as its parity allows); the rest of it pairs
  among itself, in Swiss order, outside the blossom.
* Every other player is in the graph as itself.

Pairing two of a pool's slots together is an ordinary pair inside the group. A slot can float to anyone (a
partner it has met is swapped for one it has not), so a pool's floats only cost what their count and distance
cost. In an optimal pairing a pool floats either one player to another pool, or players to players outside
pools, never both, and those players all met each other (in each case pairing the partners together instead
would be one float fewer, and no more points apart by the triangle inequality): so slot 0 is for a float to
another pool, and one slot for each colour of a proper colouring of the played graph among the rest is for
floats to them (those floating into one pool met each other, so their colours differ).
``tests/tournament/test_pairing.py`` holds the reduction against the unreduced graph and both against brute
force.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from typing import Any

Pair = tuple[int, int]
SEARCH_BUDGET = 2_000_000  # steps of the in-order search of a pool's rest; a pool that needs more is solved whole
Node = int | tuple[int, int]  # a player's index in Swiss order, or a pool's slot (group, k)


class _Field:
    """The players of one round (an even number, in Swiss order) split into point groups."""

    def __init__(self, order: Sequence[str], points: Mapping[str, int], played: Mapping[str, Set[str]]) -> None:
        self.order = order
        self.points = [points.get(p, 0) for p in order]
        self.group: list[int] = []
        self.members: list[list[int]] = []
        for i, pts in enumerate(self.points):
            if not self.members or self.points[self.members[-1][0]] != pts:
                self.members.append([])
            self.members[-1].append(i)
            self.group.append(len(self.members) - 1)
        index = {p: i for i, p in enumerate(order)}
        group = self.group
        self.met: list[set[int]] = []
        self.inside = [0] * len(self.members)  # the most of its own group any member has met
        self.outside = [0] * len(self.members)  # the most of the group any outsider has met
        for i, p in enumerate(order):
            seen = {index[o] for o in played.get(p, ()) if o in index}
            self.met.append(seen)
            own, run, last = group[i], 0, -1
            for g in [*sorted([group[j] for j in seen]), -1]:  # counted by runs of one group; -1 ends the last
                if g == last:
                    run += 1
                    continue
                if last == own:
                    self.inside[own] = max(self.inside[own], run)
                elif last >= 0 and run > self.outside[last]:
                    self.outside[last] = run
                last, run = g, 1

    def poolable(self, g: int, slots: int) -> bool:
        size = len(self.members[g])
        return size >= slots + self.outside[g] and size - slots >= 2 * self.inside[g] + 2


def fewest_floats(
    order: Sequence[str],
    points: Mapping[str, int],
    played: Mapping[str, Set[str]],
    *,
    pools: bool = True,
    budget: int = SEARCH_BUDGET,
) -> list[Pair] | None:
    """Rematch-free pairs (indices into ``order``, an even count in Swiss order) with the fewest floats, then the
    fewest points apart, then neighbours; None if no rematch-free pairing exists. ``pools=False`` solves the
    unreduced graph (for tests)."""
    field = _Field(order, points, played)
    slots, colour = _slots(field) if pools else ({}, {})
    mate = _solve(field, slots, colour, rematch_cost=False)
    if mate is None:
        return None
    pairs = _realise(field, slots, mate, budget)
    if pairs is None:  # cannot happen for a true pool (Hall and Dirac): solved whole rather than trusted
        return fewest_floats(order, points, played, pools=False, budget=budget)
    return pairs


def _slots(field: _Field) -> tuple[dict[int, int], dict[int, int]]:
    """The pools and their slots, and the colour of each player outside pools. Slot 0 of a pool is for a float to
    another pool; slot c for a float to a player of colour c. The players floating into one pool all met each
    other (two who had not would rather meet each other), a clique of the played graph, so a proper colouring of
    that graph gives them different colours, and its number of colours bounds how many there are. One slot a
    colour keeps the slots from being alike (a player has one way into each pool), which is what makes the
    blossom quick. Adding slots can make a group too small to be a pool, and a group that is not a pool brings
    players to colour: repeated until nothing changes."""
    candidates = set(range(len(field.members)))
    while True:
        colour = _colouring([i for i in range(len(field.order)) if field.group[i] not in candidates], field.met)
        slots = {}
        for g in sorted(candidates):
            count = 1 + max(colour.values(), default=0)
            count += (count - len(field.members[g])) % 2  # the rest of the pool pairs up: an even number
            if field.poolable(g, count):
                slots[g] = count
        if set(slots) == candidates:
            return slots, colour
        candidates = set(slots)


def _colouring(players: Sequence[int], met: Sequence[Set[int]]) -> dict[int, int]:
    """Colours from 1 such that players who met differ: greedy, in the reverse of the order that removes the
    least met first (so at most the graph's degeneracy + 1 colours)."""
    inside = set(players)
    degree = {i: len(met[i] & inside) for i in players}
    removed = []
    while degree:
        i = min(degree, key=lambda k: (degree[k], k))
        del degree[i]
        removed.append(i)
        for j in met[i]:
            if j in degree:
                degree[j] -= 1
    colour: dict[int, int] = {}
    for i in reversed(removed):
        taken = {colour[j] for j in met[i] if j in colour}
        colour[i] = next(c for c in range(1, len(taken) + 2) if c not in taken)
    return colour


def fewest_rematches(order: Sequence[str], points: Mapping[str, int], played: Mapping[str, Set[str]]) -> list[Pair]:
    """When no pairing avoids every rematch: the fewest rematches first, then as ``fewest_floats``."""
    field = _Field(order, points, played)
    mate = _solve(field, {}, {}, rematch_cost=True)
    assert mate is not None  # the graph is complete: every even field has a perfect matching
    return sorted((n, m) for n, m in mate.items() if isinstance(n, int) and isinstance(m, int) and n < m)


def in_order(players: Sequence[int], met: Sequence[Set[int]], budget: int) -> list[Pair] | None:
    """A rematch-free pairing of ``players`` (an even count, in Swiss order) that pairs each first unpaired player
    with the next it has not met, backtracking when a later one would be left without a partner; None if there is
    none, or none within ``budget`` steps."""
    n = len(players)
    paired = [False] * n
    pairs: list[Pair] = []
    i, j = 0, 1
    while True:
        while i < n and paired[i]:
            i += 1
        if i == n:
            return [(players[a], players[b]) for a, b in pairs]
        if j <= i:
            j = i + 1
        seen = met[players[i]]
        while j < n and (paired[j] or players[j] in seen):
            j += 1
        budget -= 1
        if budget < 0:
            return None
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


def _useful(a: Node, b: Node, colour: Mapping[int, int]) -> bool:
    """Whether an edge can be in an optimal pairing. A pool's slot 0 floats to other pools, its other slots to
    players outside pools, one colour each: a pool never does both, and floats to at most one other pool (either
    way, pairing the two partners together instead is cheaper: one float fewer, points apart no more, by the
    triangle inequality)."""
    if isinstance(a, tuple) and isinstance(b, tuple):
        return a[0] == b[0] or a[1] == b[1] == 0
    if isinstance(a, tuple):
        a, b = b, a
    if isinstance(b, tuple) and isinstance(a, int):
        return b[1] == colour[a]  # a player and a slot: the slot of the player's colour
    return True


def _solve(
    field: _Field, slots: Mapping[int, int], colour: Mapping[int, int], rematch_cost: bool
) -> dict[Node, Node] | None:
    """The minimum-cost perfect matching of the reduced graph (players outside pools, and the pools' slots)."""
    import networkx as nx  # imported here: a second's import that only pairing needs

    players = [i for i in range(len(field.order)) if field.group[i] not in slots]
    nodes: list[Node] = [*players, *((g, k) for g, count in slots.items() for k in range(count))]
    position = {n: (n if isinstance(n, int) else field.members[n[0]][0]) for n in nodes}
    span = len(field.order) + 1
    apart_unit = span * span  # more than any sum of order distances
    float_unit = apart_unit * (max(field.points, default=0) - min(field.points, default=0) + 1) * span
    rematch_unit = float_unit * span

    def group_of(n: Node) -> int:
        return n[0] if isinstance(n, tuple) else field.group[n]

    graph: Any = nx.Graph()
    graph.add_nodes_from(nodes)
    edges = []
    for x, a in enumerate(nodes):
        ga = group_of(a)
        for b in nodes[x + 1 :]:
            gb = group_of(b)
            rematch = isinstance(a, int) and isinstance(b, int) and b in field.met[a]
            if (rematch and not rematch_cost) or not _useful(a, b, colour):
                continue
            apart = abs(field.points[field.members[ga][0]] - field.points[field.members[gb][0]])
            cost = (float_unit if ga != gb else 0) + apart * apart_unit + abs(position[a] - position[b])
            cost += rematch_unit if rematch else 0
            edges.append((a, b, cost))
    top = max((c for _, _, c in edges), default=0) + 1
    graph.add_weighted_edges_from((a, b, top - c) for a, b, c in edges)
    mate: dict[Node, Node] = {}
    for a, b in nx.max_weight_matching(graph, maxcardinality=True):
        mate[a], mate[b] = b, a
    return mate if len(mate) == len(nodes) else None


def _realise(field: _Field, slots: Mapping[int, int], mate: Mapping[Node, Node], budget: int) -> list[Pair] | None:
    """Real players for the slots: a pool floats up its first player (in Swiss order) its partner has not met,
    and down its last; the rest of the pool pairs in order. None if that fails (it cannot, for a true pool)."""
    free = {g: list(field.members[g]) for g in slots}
    pairs: list[Pair] = []
    for a in sorted(n for n in mate if isinstance(n, int)):  # in order, so that the same round pairs the same
        b = mate[a]
        if isinstance(b, int):
            if a < b:
                pairs.append((a, b))
            continue
        pool = free[b[0]]  # player a, outside the pool, meets one of pool b[0]
        candidates = pool if field.points[a] > field.points[pool[0]] else reversed(pool)
        chosen = next((i for i in candidates if i not in field.met[a]), None)
        if chosen is None:
            return None
        pool.remove(chosen)
        pairs.append((min(a, chosen), max(a, chosen)))
    for slot in sorted(n for n in mate if isinstance(n, tuple)):
        other = mate[slot]
        if not isinstance(other, tuple) or slot[0] >= other[0]:
            continue
        upper, lower = (
            free[slot[0]],
            free[other[0]],
        )  # a float between two pools: the upper's last meets the lower's first
        found = next(((i, j) for i in reversed(upper) for j in lower if j not in field.met[i]), None)
        if found is None:
            return None
        upper.remove(found[0])
        lower.remove(found[1])
        pairs.append(found)
    for rest in free.values():
        inside = in_order(rest, field.met, budget)
        if inside is None:
            return None
        pairs.extend(inside)
    return sorted(pairs)
