"""The game server under load: N concurrent games of protocol-only bot clients over WebSocket on 127.0.0.1.

Run: ``python -m bench.server [--games 200] [--ruleset morana]``. The server is a real ``annals serve`` process;
this process holds 2 x N WebSocket clients (asyncio, without board messages: bots need none), each answering a
random option as soon as it is asked.
Printed: decisions per second over the whole run, the round-trip latency of a decision (from a client sending
its answer to the table's next question reaching a client: the server's rules, log write, views and messages),
median and p99 (goal: p99 under 10 ms at 200 games), and the server's resident memory per open game. Clients that
answer at once keep the server saturated, so their latency is the queue of 200 tables over the throughput;
``--think-ms`` gives them a mean time to answer (uniform on 0..2x), as people and most programs take. The ceiling,
measured in the same run: the same number of games played in this process through ``LiveTable`` with no network
(decisions per second), so the ratio says what the server, sockets and messages cost.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from websockets.asyncio.client import connect

from annals.engine.players import run_table
from annals.engine.registry import get_ruleset
from annals.engine.simulate import make_header
from annals.engine.table import LiveTable
from annals.server.serve import PROFILE_ENV
from tests.live import RandomClient
from tests.serverkit import Running, start, stop

QUICK = ["--games", "2"]  # every stage at tiny sizes, for tests

DECKS = {"morana": ["clash", "glory"], "miras9": ["vanguard", "tempest"]}


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Tally:
    def __init__(self, seats: int, server_pid: int) -> None:
        self.pid = server_pid
        self.latencies: list[float] = []
        self.decisions = 0
        self.seats = seats
        self.joined = 0  # seats that have their hello: all connected before anyone answers
        self.go = asyncio.Event()
        self.started = 0.0
        self.connect_s = 0.0
        self.cpu_at_go = (0.0, 0.0)  # the server's and this process's CPU seconds when play starts


async def _seat(url: str, table: dict[str, float], tally: Tally, seed: int, think: float) -> None:
    rng = random.Random(seed)
    async with connect(url, max_size=None, ping_interval=None, compression=None) as ws:
        seat = -2
        async for frame in ws:
            for message in map(json.loads, str(frame).split("\n")):  # protocol 2: messages one per line
                kind = message["type"]
                if kind == "hello":
                    seat = message["seat"]
                    tally.joined += 1
                    if tally.joined == tally.seats:
                        tally.started = time.perf_counter()
                        tally.cpu_at_go = (cpu_s(tally.pid), time.process_time())
                        tally.go.set()
                elif kind == "decide":
                    sent = table.get("sent", 0.0)
                    if sent:
                        tally.latencies.append(time.perf_counter() - sent)
                        table["sent"] = 0.0
                    if message["player"] == seat:
                        await tally.go.wait()
                        if think:
                            await asyncio.sleep(rng.uniform(0, 2 * think))
                        choice = rng.randrange(len(message["options"]))
                        table["sent"] = time.perf_counter()
                        await ws.send(json.dumps({"type": "answer", "choose": choice, "decision": message["decision"]}))
                        tally.decisions += 1
                elif kind == "close":
                    return


async def _load(running: Running, ruleset: str, games: int, tally: Tally, peak: list[int], think: float) -> float:
    """Every seat connects (timed from the first connection to the last hello: the server's joining cost), then
    all play: the run is timed from the moment the last seat has its hello to the last close."""
    tables = [running.table(ruleset, DECKS[ruleset], ["human", "human"], clock=0, seed=i) for i in range(games)]
    peak.append(rss_kib(running.proc.pid))
    connect_at = time.perf_counter()
    clients = []
    for i, made in enumerate(tables):
        shared: dict[str, float] = {}
        for seat in (0, 1):
            url = f"ws://127.0.0.1:{running.port}/ws/{made['table']}?token={made['tokens'][seat]}&boards=0"
            clients.append(_seat(url, shared, tally, i * 2 + seat, think))

    async def sample() -> None:
        while True:
            peak.append(rss_kib(running.proc.pid))
            await asyncio.sleep(0.2)

    sampler = asyncio.create_task(sample())
    await asyncio.gather(*clients)
    sampler.cancel()
    tally.connect_s = tally.started - connect_at
    return time.perf_counter() - tally.started


def in_process(ruleset: str, games: int, folder: Path) -> tuple[int, float]:
    rules = get_ruleset(ruleset)
    decisions = 0
    start_at = time.perf_counter()
    for i in range(games):
        cap = rules.default_max_turns  # the server's tables' own cap: random play may never end a Miras 9 game
        header = make_header(rules, i, DECKS[ruleset], ["external"] * 2, known_agents=["external"], max_turns=cap)
        table = LiveTable(rules, header, folder / f"{i}.log")
        result = run_table(table, [RandomClient(table, i * 2), RandomClient(table, i * 2 + 1)])
        decisions += result.decisions
    return decisions, time.perf_counter() - start_at


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--ruleset", default="morana", choices=sorted(DECKS))
    parser.add_argument("--think-ms", type=float, default=0, help="each client's mean time to answer (0: at once)")
    parser.add_argument("--profile", type=Path, help="run the server under cProfile; its stats to this file")
    args = parser.parse_args(argv)
    if args.profile:
        os.environ[PROFILE_ENV] = str(args.profile.resolve())
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        ceiling_decisions, ceiling_s = in_process(args.ruleset, args.games, Path(tmp))
        running = start(Path(tmp) / "served")
        try:
            base = rss_kib(running.proc.pid)
            tally, peak = Tally(2 * args.games, running.proc.pid), [base]
            load = _load(running, args.ruleset, args.games, tally, peak, args.think_ms / 1000)
            with ThreadPoolExecutor(1) as pool:  # a loop of its own: a test session's Playwright may run this thread's
                wall = pool.submit(asyncio.run, load).result()
            server_cpu = cpu_s(running.proc.pid) - tally.cpu_at_go[0]
            clients_cpu = time.process_time() - tally.cpu_at_go[1]
        finally:
            stop(running)
    rate = tally.decisions / wall
    ceiling = ceiling_decisions / ceiling_s
    lat = sorted(tally.latencies)
    p99 = lat[int(0.99 * (len(lat) - 1))] * 1000
    print(f"{args.games} concurrent {args.ruleset} games over WebSocket on 127.0.0.1, clients answering after "
          f"{args.think_ms:.0f} ms on average: {tally.decisions} decisions in {wall:.1f} s "
          f"(after {2 * args.games} seats joined in {tally.connect_s:.1f} s)")  # fmt: skip
    print(f"  decisions/s: {rate:,.0f}; in-process ceiling (LiveTable, no network): {ceiling:,.0f}/s; "
          f"ratio {rate / ceiling:.2f}")  # fmt: skip
    print(f"  round trip per decision: median {statistics.median(lat) * 1000:.2f} ms, p99 {p99:.2f} ms, "
          f"max {lat[-1] * 1000:.0f} ms (goal p99 < 10 ms: {'met' if p99 < 10 else 'NOT met'})")  # fmt: skip
    if not args.think_ms:
        print(f"  (clients answering at once keep one question per game waiting: by Little's law the mean round "
              f"trip is at least {args.games} / throughput = {args.games / rate * 1000:.0f} ms here)")  # fmt: skip
    print(f"  CPU while playing: server {server_cpu:.1f} s ({server_cpu / max(tally.decisions, 1) * 1000:.2f} ms per "
          f"decision), clients {clients_cpu:.1f} s, over {wall:.1f} s of wall time")  # fmt: skip
    per_game = (max(peak) - base) / args.games
    print(f"  server memory: {base / 1024:.0f} MiB at start, {max(peak) / 1024:.0f} MiB at peak; "
          f"{per_game:.0f} KiB per open game")  # fmt: skip
    print(f"  machine: {os.cpu_count()} cores, load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after")


if __name__ == "__main__":
    main()
