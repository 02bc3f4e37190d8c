"""Quick Miras 9 measurements (not the formal benchmark): heuristic-vs-random win rate, and events/s per core
with random bots and log writing on.

Example: .venv/bin/python -m bench.miras9_quick --games 400
"""

from __future__ import annotations

import argparse
import tempfile
import time
from itertools import product
from pathlib import Path

from engine.miras9.ruleset import DEFAULT_MAX_TURNS
from engine.simulate import simulate


def win_rate(games: int, seed: int) -> tuple[int, int, int]:
    decks = ["vanguard", "bastion", "tempest", "wayfarer"]
    pairs = list(product(decks, decks))
    per = max(2, games // len(pairs) // 2 * 2)
    wins = losses = caps = 0
    for k, (a, b) in enumerate(pairs):
        for i, r in enumerate(simulate("miras9", per, seed + 1000 * k, [a, b], ["heuristic", "random"], None,
                                       max_turns=DEFAULT_MAX_TURNS)):  # fmt: skip
            heuristic_seat = 0 if i % 2 == 0 else 1  # simulate swaps seats on odd games
            if r.winner == heuristic_seat:
                wins += 1
            elif r.winner == -1:
                caps += 1
            else:
                losses += 1
    return wins, losses, caps


def speed(games: int, seed: int, out: Path | None) -> tuple[float, float, int]:
    t0 = time.perf_counter()
    events = 0
    n = 0
    for r in simulate("miras9", games, seed, ["vanguard", "tempest"], ["random", "random"], out,
                      max_turns=DEFAULT_MAX_TURNS):  # fmt: skip
        events += r.events
        n += 1
    dt = time.perf_counter() - t0
    return events / dt, n / dt, events


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=320)
    ap.add_argument("--speed-games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ev_log, g_log, n_log = speed(args.speed_games, args.seed, Path(tmp))
    ev_nolog, g_nolog, _ = speed(args.speed_games, args.seed, None)
    print(f"random vs random, log on : {ev_log:,.0f} events/s, {g_log:.1f} games/s ({n_log:,} events)")
    print(f"random vs random, log off: {ev_nolog:,.0f} events/s, {g_nolog:.1f} games/s")
    print(f"log writing share ~ {1 - ev_log / ev_nolog:.1%}")
    w, lo, c = win_rate(args.games, args.seed)
    total = w + lo + c
    print(f"heuristic vs random: {w}/{total} won ({w / total:.1%}), {lo} lost, {c} turn cap")


if __name__ == "__main__":
    main()
