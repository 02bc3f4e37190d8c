"""The Miras 9 heuristic bot beats the uniformly random one in at least 80% of games, and in every pairing better
than a coin flip (each at 95%), over every ordered pairing of shipped decks (the windrunner deck's movement, crews
and Spot included, the corsairs and shipwrights decks' Ship-Sites); both bots move Ship-Sites."""

from __future__ import annotations

from pathlib import Path

from annals.engine.miras9.pool import DECKS
from annals.engine.simulate import simulate
from annals.ingest.flatten import collect
from annals.schemas import miras9 as ev
from annals.schemas.logfile import read_log
from bench.bots import wilson

GAMES_PER_PAIR = 24  # 64 ordered pairings: 1,536 games, about ten seconds


def test_heuristic_beats_random_in_80_percent() -> None:
    """A bot-strength test (it cites no rule): 24 games per ordered deck pairing, seats alternating. Overall the
    heuristic's 95% Wilson lower bound is at least 80% (the goal, proved by the sample rather than only met by
    it); in every pairing it wins at least 17 of 24, the fewest whose Wilson lower bound is above 50%: each
    pairing on its own shows the heuristic better than a coin flip. Not flaky: at the rates measured over 400
    games a pairing (``python -m bench.bots --games-per-pair 400``: the weakest 88.5%, 95% 85.0-91.3%) the chance
    that any of the 64 falls below 17 of 24 is 0.7%, and 4% were every pairing at the lower end of its interval.
    The seeds are the simulator's (7000 for every pairing), not chosen by trial; the size was chosen for the bar."""
    wins = games = 0
    worst = (GAMES_PER_PAIR, "")
    for a in sorted(DECKS):
        for b in sorted(DECKS):
            results = list(simulate("miras9", GAMES_PER_PAIR, 7000, [a, b], ["heuristic", "random"], None))
            won = sum(r.winner == i % 2 for i, r in enumerate(results))  # heuristic: seat 0 on even games
            worst = min(worst, (won, f"{a} vs {b}"))
            wins += won
            games += len(results)
    assert wilson(wins, games)[0] >= 0.8, f"heuristic won {wins} of {games}"
    assert wilson(17, GAMES_PER_PAIR)[0] > 0.5 > wilson(16, GAMES_PER_PAIR)[0]
    assert worst[0] >= 17, f"heuristic won {worst[0]} of {GAMES_PER_PAIR} in {worst[1]}"


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
