"""The demo: a small round-robin tournament of each ruleset annals ships, ingested, a few reports, one rebuilt
position."""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from itertools import combinations
from pathlib import Path
from typing import NamedTuple

from annals.engine.registry import get_ruleset
from annals.engine.simulate import SEED_LIMIT, SeedRangeError, simulate
from annals.ingest.loader import IngestReport, ingest
from annals.ingest.schema import open_database
from annals.queries.pictures.board import Board, board
from annals.queries.positions.timeline import Timeline
from annals.queries.reports.run import ReportResult, run_report
from annals.schemas.rulesets import BUILT_IN

DEMO_REPORTS = ("first_player", "deck_matrix", "game_length", "card_winrate")
GAME_REPORTS = {"miras9": ("damage_payments", "stack_depth"), "morana": ("slava_curves", "site_control")}


DEMO_PLOTS = ("first_player", "deck_matrix", "game_length", "slava_curves", "damage_payments")


class DemoResult(NamedTuple):
    database: Path
    logs: Path
    rulesets: list[str]
    ingest: IngestReport
    ingest_seconds: float
    reports: list[ReportResult]
    board: Board
    pictures: list[Path] = []  # charts of some reports and a replay page per ruleset, beside the database


def demo_rulesets() -> list[str]:
    return list(BUILT_IN)


def run_demo(
    folder: Path, *, games: int = 8, seed: int = 1, on_step: Callable[[str], None] | None = None
) -> DemoResult:
    """Each real ruleset's decks in a round robin, ``games`` games per pairing (heuristic bots), logs in
    ``folder/logs``, ingested into ``folder/annals.duckdb``."""
    say = on_step or (lambda _msg: None)
    logs = folder / "logs"
    database = folder / "annals.duckdb"
    pairings_most = max(max(len(list(combinations(get_ruleset(n).decks(), 2))), 1) for n in demo_rulesets())
    span = 1000 * (pairings_most - 1) + games - 1  # the seeds it plays: seed .. seed + span
    if seed < 0 or seed + span >= SEED_LIMIT:  # checked before the last demo is removed: a bad seed keeps it
        raise SeedRangeError(
            f"--seed {seed}: the demo plays seeds {seed} .. {seed + span}, outside 0 .. {SEED_LIMIT - 1}; "
            f"pick a seed from 0 to {SEED_LIMIT - 1 - span}"
        )
    folder.mkdir(parents=True, exist_ok=True)
    if logs.exists():
        shutil.rmtree(logs)
    database.unlink(missing_ok=True)
    rulesets = demo_rulesets()
    for name in rulesets:
        ruleset = get_ruleset(name)
        decks = sorted(ruleset.decks())
        bot = "heuristic" if "heuristic" in ruleset.agents() else "random"
        pairings = list(combinations(decks, 2)) or [(decks[0], decks[0])]
        say(f"simulating {name}: {len(pairings)} deck pairings x {games} games, {bot} bots")
        for i, (a, b) in enumerate(pairings):
            out = logs / name / f"{a}-vs-{b}"
            for _ in simulate(name, games, seed + 1000 * i, [a, b], [bot, bot], out, event=f"demo-{name}"):
                pass
    say(f"ingesting {logs} into {database}")
    start = time.perf_counter()
    report = ingest([logs], database)
    seconds = time.perf_counter() - start
    con = open_database(database, read_only=True)
    try:
        names = list(DEMO_REPORTS) + [r for name in rulesets for r in GAME_REPORTS.get(name, ())]
        results = [run_report(con, n, min_games=min(5, games), database=str(database)) for n in names]
        (file,) = con.execute("SELECT file FROM games ORDER BY game LIMIT 1").fetchall()[0]
        firsts = con.execute("SELECT ruleset, min_by(file, game) FROM games GROUP BY ruleset ORDER BY 1").fetchall()
    finally:
        con.close()
    timeline = Timeline.from_file(file)
    coordinate = "turn:5" if any(e.turn == 5 for e in timeline.events) else "end"
    rebuilt = board(timeline, timeline.resolve(coordinate), "omniscient", coordinate)
    say(f"drawing charts and replay pages into {folder}")
    pictures = _pictures(folder, results, firsts)
    return DemoResult(database, logs, rulesets, report, seconds, results, rebuilt, pictures)


def _pictures(folder: Path, results: list[ReportResult], firsts: list[tuple[str, str]]) -> list[Path]:
    from annals.queries.pictures.plots import write_plot
    from annals.queries.pictures.viewer import write_viewer
    from annals.schemas.logfile import read_log

    out: list[Path] = []
    (folder / "plots").mkdir(exist_ok=True)
    for r in results:
        if r.name in DEMO_PLOTS and r.frame.height:
            out.append(write_plot(r, folder / "plots" / f"{r.name}.svg"))
    (folder / "replays").mkdir(exist_ok=True)
    for ruleset, file in firsts:
        log = read_log(file)
        page = folder / "replays" / f"{ruleset}-{log.header.game_id}-spectator.html"
        write_viewer(log, page, "spectator")
        out.append(page)
    return out
