"""The demo: simulate a small tournament of each real ruleset, ingest it, run a few reports, rebuild a position.

Until a real ruleset is registered, the card toy stands in for it, so the demo always runs end to end.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from engine.registry import get_ruleset, ruleset_names
from engine.simulate import simulate
from ingest.loader import IngestReport, ingest
from ingest.schema import open_database
from queries.board import Board, board
from queries.positions import Timeline
from queries.reports import ReportResult, run_report

DEMO_REPORTS = ("first_player", "deck_matrix", "game_length", "card_winrate")
GAME_REPORTS = {"miras9": ("damage_payments", "stack_depth"), "morana": ("slava_curves", "site_control")}
MAX_TURNS = 40


class DemoResult(NamedTuple):
    database: Path
    logs: Path
    rulesets: list[str]
    ingest: IngestReport
    reports: list[ReportResult]
    board: Board


def demo_rulesets() -> list[str]:
    real = [name for name in ruleset_names() if name in ("miras9", "morana")]
    return real or ["cardtoy"]


def run_demo(
    folder: Path, *, games: int = 32, seed: int = 1, on_step: Callable[[str], None] | None = None
) -> DemoResult:
    """Simulate ``games`` games per ruleset into ``folder/logs``, ingest into ``folder/annals.duckdb``."""
    say = on_step or (lambda _msg: None)
    logs = folder / "logs"
    database = folder / "annals.duckdb"
    if logs.exists():
        shutil.rmtree(logs)
    database.unlink(missing_ok=True)
    rulesets = demo_rulesets()
    for name in rulesets:
        decks = sorted(get_ruleset(name).decks())[:2]
        pair = decks if len(decks) == 2 else decks * 2
        bots = sorted(get_ruleset(name).agents())
        pair_bots = [bots[-1], bots[0]]
        say(f"simulating {games} {name} games ({pair[0]} vs {pair[1]}, {pair_bots[0]} vs {pair_bots[1]})")
        for _ in simulate(name, games, seed, pair, pair_bots, logs / name, max_turns=MAX_TURNS):
            pass
    say(f"ingesting {logs} into {database}")
    report = ingest([logs], database)
    con = open_database(database, read_only=True)
    try:
        names = list(DEMO_REPORTS) + [r for name in rulesets for r in GAME_REPORTS.get(name, ())]
        results = [run_report(con, n, min_games=5, database=str(database)) for n in names]
        (file,) = con.execute("SELECT file FROM games ORDER BY game LIMIT 1").fetchall()[0]
    finally:
        con.close()
    timeline = Timeline.from_file(file)
    coordinate = "turn:3" if any(e.turn == 3 for e in timeline.events) else "end"
    rebuilt = board(timeline, timeline.resolve(coordinate), "omniscient", coordinate)
    return DemoResult(database, logs, rulesets, report, results, rebuilt)
