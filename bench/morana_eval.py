"""Refit MORANA's cut-off evaluation (``engine.search.morana_eval``) on the outcomes of heuristic games.

Run: ``python -m bench.morana_eval [--games N] [--seed S] [--decks A B | --all-decks] [--jobs J]``. Plays ``N``
games of ``heuristic`` against ``heuristic`` (the ruleset's default pair of decks or the two named, both ways round;
or every ordered pairing of the shipped decks), records ``features`` at the start of each Commit from turn 2 on
(where a search's rollout cuts off) and the game's winner, fits a logistic regression by Newton's method (pure
Python: a handful of weights, and a small ridge so no weight runs off) on four games in five, and prints the weights
with the log-loss and accuracy on the fifth beside those of the weights in use and of the hand-set evaluation they
replaced (``engine.search.morana.legacy_evaluate``). Paste the printed weights into ``WEIGHTS``.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from functools import partial
from itertools import product

from annals.engine.botgames import seat_rngs
from annals.engine.forward import ForwardModel
from annals.engine.morana.bots import HeuristicAgent
from annals.engine.morana.state import MoranaState
from annals.engine.registry import get_ruleset
from annals.engine.search.ismcts import bot_choice
from annals.engine.search.morana import legacy_evaluate
from annals.engine.search.morana_eval import NAMES, WEIGHTS, chance, features
from annals.engine.simulate import make_header
from annals.engine.statecopy import clone

QUICK = ["--games", "4"]  # that it runs, for tests: the weights mean nothing
RIDGE = 1.0  # the penalty on the squared weights (the seat's weight too)

Sample = tuple[list[float], float, MoranaState | None]


def game_samples(pairings: Sequence[tuple[str, str]], seed: int, i: int, keep_states: bool) -> list[Sample]:
    """Game ``i``'s (features, player 0's result, the state if kept) at each Commit's start from turn 2 on."""
    ruleset = get_ruleset("morana")
    header = make_header(ruleset, seed + i, list(pairings[i % len(pairings)]), ["heuristic", "heuristic"])
    bots = [HeuristicAgent(p, rng) for p, rng in enumerate(seat_rngs(header))]
    model: ForwardModel[MoranaState] = ForwardModel.start(ruleset, header)
    taken: list[tuple[list[float], MoranaState | None]] = []
    seen = 1
    while not model.is_over():
        s = model.state
        if s.turn > seen and s.step == "commit":
            seen = s.turn
            taken.append((features(s), clone(s) if keep_states else None))
        model.step(bot_choice(model, bots))
    winner = model.winner()
    result = 0.5 if winner < 0 else 1.0 - winner
    return [(x, result, state) for x, state in taken]


def fit(rows: Sequence[tuple[list[float], float]], ridge: float = RIDGE, rounds: int = 12) -> list[float]:
    """Logistic regression's weights by Newton's method (the normal equations solved by Gaussian elimination)."""
    n = len(rows[0][0])
    w = [0.0] * n
    for _ in range(rounds):
        grad = [ridge * wi for wi in w]
        hess = [[ridge * (i == j) for j in range(n)] for i in range(n)]
        for x, y in rows:
            p = chance(w, x)
            g, h = p - y, p * (1.0 - p)
            for i in range(n):
                grad[i] += g * x[i]
                hx = h * x[i]
                row = hess[i]
                for j in range(i, n):
                    row[j] += hx * x[j]
        for i in range(n):
            for j in range(i):
                hess[i][j] = hess[j][i]
        step = solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step, strict=True)]
    return w


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting (``a`` is small and positive definite here)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        for r in range(n):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                m[r] = [v - f * u for v, u in zip(m[r], m[c], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def scores(rows: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """Log-loss and accuracy of (predicted chance, result) pairs."""
    eps = 1e-6
    loss = -sum(y * math.log(max(eps, p)) + (1 - y) * math.log(max(eps, 1 - p)) for p, y in rows) / len(rows)
    right = sum((p > 0.5) == (y > 0.5) for p, y in rows if y != 0.5) / len(rows)
    return loss, right


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--decks", nargs=2, default=None, help="two decks, both ways round; default: the default pair")
    parser.add_argument("--all-decks", action="store_true", help="every ordered pairing of the shipped decks")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    ruleset = get_ruleset("morana")
    pair = list(args.decks or ruleset.default_decks())
    both_ways: list[tuple[str, str]] = [(pair[0], pair[1]), (pair[1], pair[0])]
    every = [(a, b) for a, b in product(sorted(ruleset.decks()), repeat=2)]
    pairings = every if args.all_decks else both_ways
    play_one: Callable[[int], list[Sample]] = partial(game_samples, pairings, args.seed, keep_states=True)
    with ProcessPoolExecutor(args.jobs) if args.jobs > 1 else nullcontext() as pool:
        games = list(pool.map(play_one, range(args.games)) if pool else map(play_one, range(args.games)))
    train = [(x, y) for i, g in enumerate(games) if i % 5 for x, y, _ in g]
    held = [(x, y, s) for i, g in enumerate(games) if not i % 5 for x, y, s in g]
    weights = fit(train)
    print(f"{len(train)} positions fitted, {len(held)} held out, from {args.games} games")
    rated = {
        "fitted": [chance(weights, x) for x, _, _ in held],
        "in use": [chance(WEIGHTS, x) for x, _, _ in held],
        "hand-set": [legacy_evaluate(s)[0] for _, _, s in held if s is not None],
    }
    for name, predicted in rated.items():
        loss, right = scores([(p, y) for p, (_, y, _) in zip(predicted, held, strict=True)])
        print(f"{name}: held-out log-loss {loss:.4f}, right {right:.1%}")
    print("WEIGHTS = (" + ", ".join(f"{w:.4f}" for w in weights) + ")  # " + ", ".join(NAMES))


if __name__ == "__main__":
    main()
