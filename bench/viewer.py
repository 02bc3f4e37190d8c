"""Replay viewer: the file's size for a ~600-event Miras 9 game, the time to write it, and the time to move to
an event inside the page (headless Chromium, ``performance.now()`` around the move plus the style and layout it
causes), each with its ratio to the ceiling the issue sets: 1 MB, 200 ms, 16 ms (one frame at 60 Hz).

Run: ``python -m bench.viewer [--events 600]``. Moves are timed twice over every position in a shuffled order: the
first pass is cold (each board's lines parsed for the first time), the second warm; the page is as a reader has it
once they have looked around. Then with the event list's scroll (which a move leaves to the next frame), stepping
through every event in order, and once more one move per animation frame, as a reader's key presses and drags
arrive (the page idles between moves, and collects its garbage there rather than inside a tight loop of moves).
The median is the cost of a move; on a machine whose cores other processes share, the tail also holds the time
spent waiting for a core, so the load average is printed too, and each move is timed once more by its CPU time in
a Chromium trace (which waiting does not stretch).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from annals.engine.simulate import simulate
from annals.queries.pictures.viewer import write_viewer
from annals.schemas.logfile import GameLog, read_log

SIZE_CEILING = 1_000_000
WRITE_CEILING_S = 0.200
MOVE_CEILING_MS = 16.0
CHROMIUM = "/usr/bin/chromium"
QUICK = ["--ruleset", "morana", "--seeds", "1", "--runs", "1", "--moves", "3"]  # every stage at tiny sizes, for tests
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]  # fmt: skip


def game_near(ruleset: str, decks: list[str], events: int, root: Path, seeds: int = 60) -> GameLog:
    """The first seeded game within 15% of ``events`` events (bounded: ``seeds`` seeds), else the closest seen."""
    best: GameLog | None = None
    for seed in range(1, seeds + 1):
        out = root / f"{ruleset}-{seed}"
        list(simulate(ruleset, 1, seed, decks, ["heuristic", "random"], out))
        log = read_log(next(out.glob("*.log")))
        if best is None or abs(len(log.events) - events) < abs(len(best.events) - events):
            best = log
        if abs(len(log.events) - events) <= events * 0.15:
            break
    assert best is not None
    return best


def write_times(log: GameLog, path: Path, view: str, runs: int) -> tuple[float, float]:
    """Best of ``runs`` wall-clock and CPU seconds to write the file (CPU time is what a busy machine does not
    inflate)."""
    wall = cpu = float("inf")
    for _ in range(runs):
        w, c = time.perf_counter(), time.process_time()
        write_viewer(log, path, view)
        wall, cpu = min(wall, time.perf_counter() - w), min(cpu, time.process_time() - c)
    return wall, cpu


def moves(path: Path, limit: int) -> dict[str, list[float]]:
    """The moves timed in a browser driven from a thread of its own: Playwright's sync API refuses to start on a
    thread that already runs one (a test session's browser, when the quick mode runs inside pytest)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(_moves, path, limit).result()


def _moves(path: Path, limit: int) -> dict[str, list[float]]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        page.goto(path.as_uri())
        page.wait_for_function("() => window.annalsViewer !== undefined")
        n = page.evaluate("() => window.annalsViewer.N")
        order = list(range(n + 1))
        random.Random(7).shuffle(order)
        if limit:
            order, n = order[:limit], min(n, limit)
        out: dict[str, list[float]] = {}
        for name in ("cold", "warm"):
            out[name] = page.evaluate("order => order.map(c => window.annalsViewer.timeMove(c))", order)
        out["scroll"] = page.evaluate(
            "order => order.map(c => window.annalsViewer.timeMove(c) + window.annalsViewer.timeScroll())", order
        )
        out["step"] = page.evaluate(
            "n => { const V = window.annalsViewer; V.go(0); const t = []; "
            "for (let c = 1; c <= n; c++) t.push(V.timeMove(c)); return t; }",
            n,
        )
        out["framed"] = page.evaluate(
            "async order => { const V = window.annalsViewer, t = []; for (const c of order) {"
            " await new Promise(r => requestAnimationFrame(r)); t.push(V.timeMove(c)); } return t; }",
            order,
        )
        out["cpu"], out["frame_cpu"] = move_cpu(browser, page, order)
        browser.close()
    return out


def move_cpu(browser: Any, page: Any, order: list[int]) -> tuple[list[float], list[float]]:
    """Each move as its own task under a Chromium trace: the CPU time of the renderer's main thread for the move
    (the trace's thread clock, which a busy machine does not stretch as it does the wall clock), and per move all
    that thread's CPU time, the frame's style, layout and paint after it included."""
    browser.start_tracing(
        page=page, categories=["toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline"]
    )
    for c in order:
        page.evaluate("c => window.annalsViewer.timeMove(c)", c)
    events = json.loads(browser.stop_tracing())["traceEvents"]
    main = {(e["pid"], e["tid"]) for e in events
            if e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"}  # fmt: skip
    done = [e for e in events if (e["pid"], e["tid"]) in main and e.get("ph") == "X"]
    moves = sorted(e.get("tdur", 0) / 1000 for e in done if e["name"] == "Receive mojo message")[-len(order) :]
    total = sum(e.get("tdur", 0) for e in done if e["name"] == "ThreadControllerImpl::RunTask") / 1000
    return moves, [total / len(order)]


def summary(ms: list[float]) -> str:
    s = sorted(ms)
    p99 = s[min(len(s) - 1, int(len(s) * 0.99))]
    return (f"median {statistics.median(s):5.2f} ms, p99 {p99:5.2f} ms, max {s[-1]:5.2f} ms "
            f"(max/ceiling {s[-1] / MOVE_CEILING_MS:.2f}, p99/ceiling {p99 / MOVE_CEILING_MS:.2f})")  # fmt: skip


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=600)
    parser.add_argument("--seeds", type=int, default=60, help="seeds tried for a game of about that length")
    parser.add_argument("--runs", type=int, default=5, help="timed writes of each file (the best counts)")
    parser.add_argument("--ruleset", action="append", choices=["miras9", "morana"], help="repeatable; default: both")
    parser.add_argument("--moves", type=int, default=0, help="time only this many moves of each kind (0: all)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        games = (("miras9", ["bastion", "tempest"], args.events), ("morana", ["clash", "glory"], 300))
        for ruleset, decks, events in games:
            if args.ruleset and ruleset not in args.ruleset:
                continue
            log = game_near(ruleset, decks, events, root, args.seeds)
            print(f"{ruleset}: game {log.header.game_id}, {len(log.events)} events")
            for view in ("omniscient", "player0", "spectator"):
                path = root / f"{ruleset}-{view}.html"
                size = write_viewer(log, path, view)
                seconds, cpu = write_times(log, path, view, args.runs)
                print(f"  {view:10} size {size / 1e6:6.3f} MB (size/ceiling {size / SIZE_CEILING:.2f}); "
                      f"write {seconds * 1000:6.1f} ms best of {args.runs} "
                      f"(write/ceiling {seconds / WRITE_CEILING_S:.2f}), "
                      f"{cpu * 1000:.1f} ms of CPU")  # fmt: skip
            if not Path(CHROMIUM).exists():
                print(f"  move: skipped, {CHROMIUM} is not installed")
                continue
            started = time.perf_counter()
            load = os.getloadavg()[0]
            timed: Any = moves(root / f"{ruleset}-player0.html", args.moves)
            print(f"  move to any event, player0 file, cold: {summary(timed['cold'])}")
            print(f"  move to any event, player0 file, warm: {summary(timed['warm'])}")
            print(f"  move and the event list's scroll:      {summary(timed['scroll'])}")
            print(f"  step through every event in order:    {summary(timed['step'])}")
            print(f"  one move per frame, shuffled:         {summary(timed['framed'])}")
            print(f"  move CPU (main thread, from a trace):  {summary(timed['cpu'])}")
            print(f"  main-thread CPU per move, frame included: {timed['frame_cpu'][0]:.2f} ms")
            print(f"  (browser part {time.perf_counter() - started:.1f} s; load average {load:.1f} on "
                  f"{os.cpu_count()} cores: a busy machine stretches the tail, not the median)")  # fmt: skip


if __name__ == "__main__":
    main()
