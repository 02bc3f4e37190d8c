"""The Miras 9 heuristic bot beats the uniformly random one in at least 80% of games, over every ordered pairing of
shipped decks (the windrunner deck's movement, crews and Spot included, and the corsairs deck's Ship-Sites); both
bots move Ship-Sites."""

from __future__ import annotations

from pathlib import Path

from annals.engine.miras9.pool import DECKS
from annals.engine.simulate import simulate
from annals.ingest.flatten import collect
from annals.schemas import miras9 as ev
from annals.schemas.logfile import read_log


def test_heuristic_beats_random_in_80_percent() -> None:
    """A bot-strength test (it cites no rule): 4 games per ordered deck pairing (196), seats alternating; the
    heuristic wins >= 80% overall and at least half of every pairing."""
    wins = games = 0
    worst = 1.0
    for a in sorted(DECKS):
        for b in sorted(DECKS):
            results = list(simulate("miras9", 4, 7000, [a, b], ["heuristic", "random"], None))
            won = sum(r.winner == i % 2 for i, r in enumerate(results))  # heuristic: seat 0 on even games
            worst = min(worst, won / len(results))
            wins += won
            games += len(results)
    assert wins / games >= 0.8, f"heuristic won {wins} of {games}"
    assert worst >= 0.5, worst


def test_both_bots_move_ship_sites_and_the_heuristic_contests_M9_063(tmp_path: Path) -> None:
    """[M9-063] Ship-Site moves are among the bots' choices: in corsairs mirror games the random bot and the
    heuristic both move Ship-Sites, and the heuristic contests enemy positions."""
    list(simulate("miras9", 4, 21, ["corsairs", "corsairs"], ["heuristic", "random"], tmp_path))
    kinds: dict[str, set[str]] = {"heuristic": set(), "random": set()}
    for path in collect([tmp_path]):
        log = read_log(path)
        for e in log.events:
            if type(e) is ev.ShipSiteMoved:
                kinds[log.header.players[e.player].agent].add(e.kind)
    assert "contest" in kinds["heuristic"] and kinds["random"], kinds
