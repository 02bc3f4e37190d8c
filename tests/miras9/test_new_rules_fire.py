"""The rules of issue 14's combat half happen in bot games, with every invariant checked at every event: Blackwake
checks and each outcome [M9-088], [M9-089], Killing Machine grants and extra waves [M9-083], [M9-073], Escape Route
destinations [M9-117]; each seat's view still folds [M9-011]. ``--soak`` plays many more and prints how often. No
bot takes a pick back (a random one would undo half its picks and never end a game): tests/miras9/test_take_back.py
scripts those."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from annals.engine.miras9.ruleset import DEFAULT_MAX_TURNS, RULESET
from annals.engine.miras9.state import M9State
from annals.engine.runner import Game
from annals.engine.simulate import bots_for, make_header
from annals.schemas import miras9 as ev
from tests.miras9.test_properties import _check, play_folding

DECKS = sorted(RULESET.decks())
BOTS = ["heuristic", "random"]
WANTED = ("check", "check:replace", "check:effect", "replaced", "effect", "declined", "grant", "extra wave", "escape")
REPORTED = (*WANTED, "extra let go")  # a granted attack let go: only the random bot does, and grants are rare


def _tally(e: Any, c: Counter[str]) -> None:
    kind = type(e)
    if kind is ev.BlackwakeChecked:
        c["check"] += 1
        if e.instruction:
            c[f"check:{e.instruction}"] += 1
    elif kind is ev.BlackwakeResolved:
        c[e.outcome] += 1
    elif kind is ev.ExtraAttackGranted:
        c["grant"] += 1
    elif kind is ev.ExtraAttackTaken:
        c["extra wave" if e.taken else "extra let go"] += 1
    elif kind is ev.DestinationChosen:
        c["escape"] += 1


def play(games: int, fold_every: int = 5, *, until: tuple[str, ...] = ()) -> Counter[str]:
    """Seeded games of the wreckers deck against every shipped deck, both bots in both seats; each event checked
    (every card in one place, no negative value) and the fold compared with the engine. With ``until``, stop as
    soon as each of those counts is above 0."""
    c: Counter[str] = Counter()
    current: list[Game] = []

    def check(event: Any) -> None:
        state = current[-1].state
        assert isinstance(state, M9State)
        _check(state)
        _tally(event, c)

    for seed in range(games):
        if until and all(c[k] for k in until):
            break
        decks = ["wreckers", DECKS[seed % len(DECKS)]][:: 1 if seed % 2 else -1]
        bots = [BOTS[(seed // 2) % 2], BOTS[(seed // 4) % 2]]
        h = make_header(RULESET, seed, decks, bots, max_turns=DEFAULT_MAX_TURNS)
        g = Game(RULESET, h, bots_for(RULESET, h), on_event=check)
        current.append(g)
        play_folding(g, fold_every)
        for view in g.views:  # a seat's view folds the redacted stream (Blackwake cards revealed, then hidden)
            seen, state = view.state, g.state
            assert isinstance(seen, M9State) and isinstance(state, M9State)
            for mine, real in zip(seen.players, state.players, strict=True):
                for pile in ("deck", "hand", "resource", "used", "discard"):
                    assert len(getattr(mine, pile)) == len(getattr(real, pile)), (seed, pile)
                assert mine.discard == real.discard
        c["games"] += 1
    return c


def test_the_new_rules_fire_in_bot_games_M9_088_M9_089_M9_083_M9_073_M9_117() -> None:
    """[M9-088] [M9-089] [M9-083] [M9-073] [M9-117] seeded games (sixteen today, at most 64) make every
    one of them happen."""
    c = play(64, until=WANTED)
    assert all(c[k] for k in WANTED), c


@pytest.mark.soak
def test_soak_how_often_the_new_rules_fire(capsys: pytest.CaptureFixture[str]) -> None:
    c = play(400, fold_every=25)
    with capsys.disabled():
        print("\nissue 14 combat rules in", c["games"], "games:", ", ".join(f"{k} {c[k]}" for k in REPORTED))
    assert all(c[k] for k in WANTED), c
