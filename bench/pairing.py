"""Swiss pairing beside a published FIDE Dutch implementation: floats and time per round, on the same standings.

Run: ``python -m bench.pairing [--sizes 64 256 2000 10000] [--rounds R] [--peer-limit S] [--events N] [--quick]``.
Each size plays the chart's rounds (or ``--rounds``) of seeded random results (45% a win either way, 10% a
drawn match), always continuing from annals' own pairing; before each round both annals and the peer
(caissify-pairings' ``dutch`` engine, a FIDE C.04.3 implementation, in the ``dev`` extra) pair the same
standings: the same match points, the same history of opponents, colours and floats. A float is a pair across
point groups. Times are of the pairing call alone (the standings it is given are computed outside; networkx is
imported before, its import timed apart). The peer runs in a child process stopped after ``--peer-limit``
seconds, and is not given a later round of that size once stopped. Printed with the ratio
of annals' worst round to the issue's ceiling of 1 s; then the floats of both over ``--events`` small events
(11 to 32 players), where the peer is quick enough to pair every round.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection

from annals.engine.rng import Rng
from annals.engine.tournament.chart import recommended_rounds
from annals.engine.tournament.pairing import pair_swiss
from annals.engine.tournament.standings import Result, byes, match_points, opponents, standings

CEILING = 1.0  # seconds a round at 10,000 players, from issue 26
SIZES = (64, 256, 2000, 10_000)
QUICK = ["--quick"]  # that it runs, for tests: the figures mean nothing
Pairs = list[tuple[str, str]]


@dataclass
class History:
    """What the Dutch peer needs besides points: colours and floats of every earlier round, byes."""

    colours: dict[str, list[str]] = field(default_factory=dict)
    floats: dict[str, list[str]] = field(default_factory=dict)
    byes: dict[str, int] = field(default_factory=dict)


def peer_pairs(ids: Sequence[str], points: dict[str, int], met: dict[str, set[str]], hist: History, number: int,
               rounds: int) -> tuple[Pairs, float]:  # fmt: skip
    """The Dutch peer's pairs (a bye as (player, "")) and the seconds its pairing call took."""
    from caissify_pairings import generate_pairings

    number_of = {p: i + 1 for i, p in enumerate(ids)}  # pairing numbers: the registration order, as ratings
    players = [
        {"id": number_of[p], "name": p, "score": float(points[p]), "rating": 3000 - number_of[p],
         "starting_number": number_of[p], "color_hist": hist.colours.get(p, []),
         "float_history": hist.floats.get(p, []), "bye_count": hist.byes.get(p, 0)}
        for p in ids
    ]  # fmt: skip
    previous = {(number_of[a], number_of[b]) for a in met for b in met[a] if number_of[a] < number_of[b]}
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rows = generate_pairings("dutch", players, previous, number, rounds, bye_value=3.0)
    seconds = time.perf_counter() - start
    by_number = {n: p for p, n in number_of.items()}
    return [(by_number[r["white_id"]], by_number[r["black_id"]] if r.get("black_id") else "") for r in rows], seconds


def _peer_child(
    conn: Connection, args: tuple[Sequence[str], dict[str, int], dict[str, set[str]], History, int, int]
) -> None:
    conn.send(peer_pairs(*args))
    conn.close()


def peer_within(limit: float, *args: object) -> tuple[Pairs, float] | None:
    """The peer's pairing in a child process, or None if it took longer than ``limit`` seconds (stopped)."""
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_peer_child, args=(child, args))
    proc.start()
    child.close()
    answer: tuple[Pairs, float] | None = parent.recv() if parent.poll(limit) else None
    proc.kill() if answer is None else proc.join()
    proc.join()
    return answer


def floats(pairs: Pairs, points: dict[str, int]) -> int:
    return sum(1 for a, b in pairs if b and points[a] != points[b])


@dataclass
class Row:
    players: int
    number: int
    ours: int
    our_seconds: float
    peer: int | None  # None: the peer was not run, or stopped
    peer_seconds: float | None
    stopped: bool = False  # the peer was stopped at the limit on this round


def play(players: int, rounds: int, peer_limit: float | None, seed: int = 26) -> list[Row]:
    """Pair ``rounds`` rounds of ``players``; ``peer_limit`` None leaves the peer out."""
    ids = [f"p{i:05d}" for i in range(players)]
    rng = Rng(seed)
    results: list[Result] = []
    hist = History()
    rows = []
    for number in range(1, rounds + 1):
        ranked = [s.player for s in standings(ids, results, seed)]
        points, met = match_points(ids, results), opponents(results)
        start = time.perf_counter()
        pairings = pair_swiss(ranked, points, met, byes(results), Rng(seed + number))
        ours = time.perf_counter() - start
        peer = peer_within(peer_limit, ids, points, met, hist, number, rounds) if peer_limit is not None else None
        stopped = peer_limit is not None and peer is None
        if stopped:
            peer_limit = None  # stopped once: the rounds after only grow harder
        rows.append(Row(players, number, floats([(p.a, p.b) for p in pairings], points), ours,
                        floats(peer[0], points) if peer else None, peer[1] if peer else None, stopped))  # fmt: skip
        for p in pairings:
            _record(p.a, p.b, points, hist)
            results.append(_result(p.a, p.b, rng))
    return rows


def _record(a: str, b: str, points: dict[str, int], hist: History) -> None:
    if not b:
        hist.byes[a] = hist.byes.get(a, 0) + 1
        hist.colours.setdefault(a, []).append("none")
        hist.floats.setdefault(a, []).append("none")
        return
    hist.colours.setdefault(a, []).append("white")
    hist.colours.setdefault(b, []).append("black")
    down = "down" if points[a] > points[b] else "up" if points[a] < points[b] else "none"
    hist.floats.setdefault(a, []).append(down)
    hist.floats.setdefault(b, []).append({"down": "up", "up": "down"}.get(down, "none"))


def _result(a: str, b: str, rng: Rng) -> Result:
    if not b:
        return Result(a, "", 2, 0, 0, a)
    outcome = rng.below(10)
    if outcome < 9:
        wa, wb = (2, rng.below(2)) if outcome < 5 else (rng.below(2), 2)
        return Result(a, b, wa, wb, 0, a if wa > wb else b)
    return Result(a, b, 1, 1, 1, "")


def report(rows: list[Row], peer_limit: float) -> list[str]:
    lines = [
        f"{'players':>7} {'round':>5}  {'floats annals':>13} {'Dutch peer':>10}  {'ms annals':>9} {'Dutch peer':>10}"
    ]
    for r in rows:
        peer = f"{r.peer:>10}" if r.peer is not None else f"{'-':>10}"
        peer_ms = (f"{r.peer_seconds * 1000:>10.1f}" if r.peer_seconds is not None
                   else f">{peer_limit * 1000:>9.0f}" if r.stopped else f"{'not run':>10}")  # fmt: skip
        lines.append(f"{r.players:>7} {r.number:>5}  {r.ours:>13} {peer}  {r.our_seconds * 1000:>9.1f} {peer_ms}")
    for size in sorted({r.players for r in rows}):
        mine = [r for r in rows if r.players == size]
        both = [r for r in mine if r.peer is not None]
        worst = max(r.our_seconds for r in mine)
        line = f"{size:>7} players: annals {sum(r.ours for r in mine)} floats in {len(mine)} rounds, worst round " \
               f"{worst * 1000:.1f} ms (ratio to the {CEILING:.0f} s ceiling {worst / CEILING:.3f})"  # fmt: skip
        if both:
            line += f"; on the {len(both)} round(s) the peer paired: annals {sum(r.ours for r in both)} floats, " \
                    f"the peer {sum(r.peer or 0 for r in both)}, peer's worst round " \
                    f"{max(r.peer_seconds or 0 for r in both) * 1000:.1f} ms"  # fmt: skip
        stopped = sum(r.stopped for r in mine)
        if stopped:
            line += f"; the peer stopped after {peer_limit:.0f} s on {stopped} round(s)"
        if len(both) + stopped < len(mine):
            line += f", not given the {len(mine) - len(both) - stopped} round(s) after"
        lines.append(line)
    return lines


def events(count: int, peer_limit: float) -> str:
    """The issue's comparison: ``count`` events of 11 to 32 players, the chart's rounds, floats summed over the
    rounds both paired (the peer's limit applies to each round; a stop ends the peer's part of that event)."""
    sizes = [11, 16, 21, 27, 32]
    rows = [r for k in range(count) for r in play(sizes[k % 5], recommended_rounds(sizes[k % 5]), peer_limit, seed=k)]
    both = [r for r in rows if r.peer is not None]
    more = sum(1 for r in both if r.ours > (r.peer or 0))
    fewer = sum(1 for r in both if r.ours < (r.peer or 0))
    return (
        f"{count} events of 11-32 players, {len(rows)} rounds ({len(both)} paired by both): floats annals "
        f"{sum(r.ours for r in both)}, the Dutch peer {sum(r.peer or 0 for r in both)}; rounds where annals "
        f"floated more {more}, fewer {fewer}; the peer stopped on {sum(r.stopped for r in rows)} round(s)"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--rounds", type=int, default=0, help="rounds per size (default: the chart's)")
    parser.add_argument("--peer-limit", type=float, default=60.0, help="seconds before the peer's round is stopped")
    parser.add_argument("--events", type=int, default=20, help="small events for the float comparison (0: none)")
    parser.add_argument("--quick", action="store_true", help="24 and 48 players, 4 rounds, no small events: for tests")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    import networkx  # noqa: F401 - once per process, when the first round needs the blossom: timed apart

    print(f"importing networkx (once per process): {(time.perf_counter() - start) * 1000:.0f} ms")
    sizes, rounds = ([24, 48], 4) if args.quick else (args.sizes, args.rounds)
    rows = [r for size in sizes for r in play(size, rounds or recommended_rounds(size), args.peer_limit)]
    print("\n".join(report(rows, args.peer_limit)))
    if args.events and not args.quick:
        print(events(args.events, args.peer_limit))


if __name__ == "__main__":
    main()
