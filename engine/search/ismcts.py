"""Single-observer information-set Monte Carlo tree search (Cowling, Powley and Whitehouse 2012).

Each iteration samples a world consistent with the searching seat's view (``sample``), plays it with the forward
model down one shared tree (nodes keyed by the acting seat's option, so the same choice in different worlds is one
node), expands one new node, finishes the game with rollout bots or cuts it off and evaluates, and backs the result
up. Selection is UCB1 over the children legal in this world, with availability counts (a child's exploration term
counts the iterations in which it could have been chosen, not its parent's visits). It never sees a true state:
everything it searches is built by ``sample`` from the view.

``run_halving`` spends a root's budget otherwise (Karnin, Koren and Somekh 2013, sequential halving): in rounds, each
option still in gets the same iterations, in the same worlds with the same chance (common random numbers: the options
are compared in pairs of playouts that differ only by the option), and the better half by winning chance stays in;
the last one left is ``best``. UCB1 spreads a few hundred iterations almost evenly over a handful of options whose
chances differ by a few points, and compares them across different worlds: most of the difference seen is the
worlds'. Below the root the selection is UCB1 as in ``run``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from annals.engine.core import Agent, Ruleset
from annals.engine.forward import ForwardModel
from annals.engine.rng import Rng
from annals.engine.statecopy import clone

EXPLORATION = 0.7  # UCB1's constant; rewards are winning chances in [0, 1]


class Node:
    __slots__ = ("avail", "children", "mover", "visits", "wins")

    def __init__(self, mover: int):
        self.mover = mover  # the seat whose choice leads here; its wins are counted
        self.visits = 0
        self.wins = 0.0
        self.avail = 0
        self.children: dict[str, Node] = {}

    def chance(self) -> float:
        return self.wins / self.visits if self.visits else 0.5


def option_key(option: Any) -> str:
    return repr(option)


class Search:
    """One decision's search. ``sample(rng)`` makes a world's state; ``rollout(model, rng)`` plays on from a
    model and returns the winning chance of each seat (a pair summing to 1). ``opponent(model)``, if given, moves
    the other seat inside the tree (else its choices are searched too). ``candidates(model)``, if given, are the
    options worth searching at a decision below the root (a prior that prunes: the rest are never tried there); the
    root's are those ``run`` is given."""

    def __init__(
        self,
        ruleset: Ruleset[Any],
        seat: int,
        sample: Callable[[Rng], Any],
        rollout: Callable[[ForwardModel[Any], Rng], tuple[float, float]],
        rng: Rng,
        opponent: Callable[[ForwardModel[Any]], Any] | None = None,
        candidates: Callable[[ForwardModel[Any]], Sequence[Any]] | None = None,
    ):
        self.ruleset, self.seat, self.sample, self.rollout, self.rng = ruleset, seat, sample, rollout, rng
        self.opponent = opponent
        self.candidates = candidates
        self.root = Node(1 - seat)
        self.best: str | None = None  # the option ``run_halving`` kept (its key)

    def run(self, options: Sequence[Any], iterations: int) -> None:
        allowed = {option_key(o) for o in options}
        for _ in range(iterations):
            model = ForwardModel(self.ruleset, self.sample(self.rng), Rng(self.rng.next_u64()))
            if model.to_move() != self.seat:
                continue  # a world where the decision is not the seat's: it cannot be searched here
            self._iterate(model, allowed)

    def run_halving(self, options: Sequence[Any], iterations: int) -> None:
        """Sequential halving over the root's ``options`` (see the module's docstring); sets ``best``."""
        alive = sorted({option_key(o) for o in options})
        rounds = max(1, math.ceil(math.log2(len(alive)))) if alive else 0
        for _ in range(rounds):
            per = max(1, iterations // (rounds * len(alive)))
            for _ in range(per):
                world, seed = self.sample(self.rng), self.rng.next_u64()
                if ForwardModel(self.ruleset, world, Rng(seed)).to_move() != self.seat:
                    continue  # a world where the decision is not the seat's: it cannot be searched here
                for key in alive:
                    self._iterate(ForwardModel(self.ruleset, clone(world), Rng(seed)), {key})
            children = self.root.children
            alive = sorted(alive, key=lambda k: (-children[k].chance() if k in children else 1.0, k))
            alive = alive[: (len(alive) + 1) // 2]
        self.best = alive[0] if alive else None

    def _iterate(self, model: ForwardModel[Any], allowed: set[str]) -> None:
        node, path = self.root, [self.root]
        first = True
        while not model.is_over():
            mover = model.to_move()
            if mover != self.seat and self.opponent is not None:
                model.step(self.opponent(model))
                continue
            offered = model.legal_options() if first or self.candidates is None else self.candidates(model)
            legal = [(option_key(o), o) for o in offered]
            if first:
                legal = [(k, o) for k, o in legal if k in allowed]
                first = False
            if not legal:
                break
            for key, _ in legal:
                child = node.children.get(key)
                if child is not None:
                    child.avail += 1
            untried = [(k, o) for k, o in legal if k not in node.children]
            if untried:
                key, option = untried[self.rng.below(len(untried))]
                child = node.children[key] = Node(mover)
                child.avail = 1
                model.step(option)
                path.append(child)
                break
            log_of = math.log
            key, option = max(
                legal,
                key=lambda ko: (
                    node.children[ko[0]].chance()
                    + EXPLORATION * math.sqrt(log_of(node.children[ko[0]].avail) / node.children[ko[0]].visits)
                ),
            )
            node = node.children[key]
            model.step(option)
            path.append(node)
        reward = self.rollout(model, self.rng)
        for visited in path:
            visited.visits += 1
            visited.wins += reward[visited.mover] if visited.mover in (0, 1) else 0.5

    def ranked(self) -> list[tuple[str, Node]]:
        """The root's children, most visited first (``best`` first if set; ties by key, so the order is
        deterministic)."""
        return sorted(self.root.children.items(), key=lambda kn: (kn[0] != self.best, -kn[1].visits, kn[0]))


def bot_choice(model: ForwardModel[Any], bots: Sequence[Agent]) -> Any:
    """The choice of the bot of the seat to act: the opponent model inside the tree, and the rollouts' policy."""
    point = model.decision()
    assert point is not None
    return bots[point.player].choose(model.state, point)


def play_out(
    model: ForwardModel[Any], bots: Sequence[Agent], turns: int, evaluate: Callable[[Any], tuple[float, float]]
) -> tuple[float, float]:
    """A rollout: ``bots`` play on for ``turns`` turns from the model's; each seat's winning chance is the result
    if the game ends, else ``evaluate`` of the state at the cut-off."""
    stop = model.state.turn + turns
    while not model.is_over() and model.state.turn < stop:
        model.step(bot_choice(model, bots))
    if model.is_over():
        winner = model.winner()
        return (0.5, 0.5) if winner < 0 else ((1.0, 0.0) if winner == 0 else (0.0, 1.0))
    result: tuple[float, float] = evaluate(model.state)
    return result
