"""MORANA's fitted cut-off evaluation: it reads the margins that decide the game, and its fit learns from outcomes."""

from __future__ import annotations

from annals.engine.morana.state import MoranaState
from annals.engine.search.morana_eval import NAMES, WEIGHTS, chance, evaluate, features
from bench.morana_eval import QUICK, fit, game_samples, main


def _state(slava: list[int], turn: int) -> MoranaState:
    return MoranaState(slava=slava, turn=turn, step="commit", ids=[[""] * 21, [""] * 21])


def test_a_slava_lead_is_a_winning_chance_that_firms_as_the_turns_run_out() -> None:
    """[MOR-05]: the most Slava at the end of Turn 8 wins, 13 at once; the same lead is worth more late."""
    early, late = evaluate(_state([5, 3], 2))[0], evaluate(_state([9, 7], 8))[0]
    assert 0.5 < early < late < 1.0
    assert evaluate(_state([3, 5], 2))[0] < 0.5  # behind: the other side of the curve
    assert evaluate(_state([13, 9], 5)) == (1.0, 0.0) and evaluate(_state([2, 13], 5)) == (0.0, 1.0)
    assert sum(evaluate(_state([4, 6], 4))) == 1.0


def test_features_are_margins_of_player_0_over_player_1() -> None:
    s = _state([4, 1], 3)
    s.hand = [[1, 2, 3], [22]]
    x = features(s)
    assert len(x) == len(NAMES) == len(WEIGHTS)
    mirrored = _state([1, 4], 3)
    mirrored.hand = [[22], [1, 2, 3]]
    assert features(mirrored)[1:] == [-v for v in x[1:]]  # the seat's constant aside, swapping sides negates them


def test_the_fit_finds_the_feature_that_decides_the_outcome() -> None:
    """Logistic regression by Newton's method: a result that follows the first feature gets it a large weight."""
    rows = [([1.0, v, 0.3 * ((i * 7) % 5 - 2)], 1.0 if v > 0 else 0.0) for i, v in enumerate([-2, -1, 1, 2] * 10)]
    rows += [([1.0, 0.5, 0.0], 0.0), ([1.0, -0.5, 0.0], 1.0)]  # two upsets keep the weights finite
    w = fit(rows, ridge=0.1)
    assert w[1] > 2.0 and abs(w[2]) < 1.0
    assert chance(w, [1.0, 2.0, 0.0]) > 0.9


def test_heuristic_games_give_a_sample_per_turn_with_the_winner() -> None:
    samples = game_samples([("clash", "glory")], 7, 0, keep_states=False)
    assert 1 <= len(samples) <= 7  # turns 2..8, fewer if someone reaches 13 early
    assert {y for _, y, _ in samples} <= {0.0, 0.5, 1.0} and len({y for _, y, _ in samples}) == 1
    main(QUICK)
