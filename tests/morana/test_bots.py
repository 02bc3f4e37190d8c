"""The heuristic bot beats the uniformly random one in at least 80% of games, over every pairing of shipped decks."""

from __future__ import annotations

from annals.engine.core import DecisionPoint
from annals.engine.morana.bots import HeuristicAgent
from annals.engine.rng import Rng
from annals.engine.simulate import simulate
from annals.schemas.morana import Done, Invoke, Place
from tests.morana.build import Table, build

DECKS = ["starter-winter", "starter-sun", "clash", "glory"]


def test_heuristic_beats_random_in_80_percent() -> None:
    """A bot-strength test (it cites no rule): 10 games per ordered deck pairing (160), seats alternating; the
    heuristic wins >= 80%."""
    wins = games = 0
    for a in DECKS:
        for b in DECKS:
            for i, result in enumerate(simulate("morana", 10, 7000, [a, b], ["heuristic", "random"], None)):
                wins += result.winner == i % 2  # the heuristic sits in seat 0 on even games, seat 1 on odd ones
                games += 1
    assert wins / games >= 0.8, f"heuristic won {wins} of {games}"


def test_heuristic_choice_does_not_depend_on_the_opponents_sealed_cards() -> None:
    """[MOR-15] The bot in seat 1 decides after seat 0 has sealed, with the whole state in hand: its choices must
    be the same whatever seat 0 sealed (its look-ahead removes those cards and the Invocation first)."""
    spec0 = "hand: storm-of-perun bannik; site1: vodyanoy"
    spec1 = "hand: bannik kikimora ember-sprite; site2: bannik"
    choices = []
    for sealed in ([Done()], [Invoke()], [Place(1000, 1), Invoke()], [Place(1001, 2), Place(1000, 2)]):
        t = Table(build(spec0, spec1, turn=7))
        t.commit(*sealed, *([] if type(sealed[-1]) is Done else [Done()]))
        bot = HeuristicAgent(1, Rng(0))
        picked = []
        while t.s.committing == 1:
            choice = bot.choose(t.s, DecisionPoint(1, "commit", t.options()))
            picked.append(choice)
            t.commit(choice)
        choices.append(picked)
    assert choices[1:] == [choices[0]] * 3 and len(choices[0]) > 1
