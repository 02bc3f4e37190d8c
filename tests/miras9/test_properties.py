"""Properties over seeded whole games with both bots: no exceptions, every card in exactly one place, no negative
values, the fold of the log equals the engine state, re-running decisions gives the same log bytes.

A few dozen games run by default; thousands behind ``--soak``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.miras9.ruleset import DEFAULT_MAX_TURNS, RULESET
from engine.miras9.state import M9State, card_zone_ok
from engine.replay import rerun
from engine.rng import Rng
from engine.runner import Game
from engine.simulate import make_header, play_one
from schemas.logfile import read_log

DECKS = sorted(RULESET.decks())
BOTS = ["random", "heuristic"]


def _check(s: M9State) -> None:
    problems = card_zone_ok(s)
    assert not problems, problems
    assert all(p.echo >= 0 for p in s.players)
    for cs in s.cards.values():
        assert cs.wounds >= 0 and cs.shield >= 0 and cs.tapped in (0, 1) and cs.attuned in (0, 1)
    assert s.passes in (0, 1, 2) and 0 <= s.bd_paid <= len(s.bd_sources)


def _game(seed: int, fold_every: int = 1) -> Game:
    d = [DECKS[seed % len(DECKS)], DECKS[(seed // len(DECKS)) % len(DECKS)]]
    bots = [BOTS[seed % 2], BOTS[(seed // 2) % 2]]
    h = make_header(RULESET, seed, d, bots, max_turns=DEFAULT_MAX_TURNS)
    seats = Rng(h.seed ^ 0x5EA7)
    factories = RULESET.agents()
    agents = [factories[p.agent](i, seats.fork(i)) for i, p in enumerate(h.players)]
    g = Game(RULESET, h, agents)
    folded = RULESET.new_state(h)
    steps = 0
    while not g.state.over and g.state.turn <= DEFAULT_MAX_TURNS:
        g.step()
        for e in g.events:
            RULESET.apply(folded, e)
        g.events.clear()
        steps += 1
        assert isinstance(g.state, M9State)
        _check(g.state)
        if steps % fold_every == 0:
            assert msgspec.msgpack.encode(folded) == msgspec.msgpack.encode(g.state)
    assert msgspec.msgpack.encode(folded) == msgspec.msgpack.encode(g.state)
    return g


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32))
def test_random_games_hold_invariants(seed: int) -> None:
    """[M9-007] no negative values; every card in one place; fold == engine state after every step."""
    _game(seed, fold_every=7)


@pytest.mark.soak
def test_thousands_of_games_hold_invariants() -> None:
    for seed in range(2000):
        _game(seed, fold_every=25)


def test_logs_rerun_identically(tmp_path: Path) -> None:
    """Re-running a written log's decisions reproduces every event; the same seed writes the same bytes."""
    for seed in (5, 6, 7):
        d = [DECKS[seed % 4], DECKS[(seed + 1) % 4]]
        h = make_header(RULESET, seed, d, ["random", "heuristic"], max_turns=30)
        a, b = tmp_path / f"a{seed}.log", tmp_path / f"b{seed}.log"
        ra, rb = play_one(RULESET, h, a), play_one(RULESET, h, b)
        assert a.read_bytes() == b.read_bytes() and ra == rb
        report = rerun(read_log(a))
        assert report.ok, report


def test_games_end_with_a_reason() -> None:
    """Heuristic games finish by the rules (Battle Damage or the survival clock), not only by the turn cap."""
    reasons: dict[str, Any] = {}
    for seed in range(6):
        h = make_header(RULESET, seed, [DECKS[seed % 4], DECKS[(seed + 2) % 4]], ["heuristic", "heuristic"])
        h = msgspec.structs.replace(h, max_turns=DEFAULT_MAX_TURNS)
        r = play_one(RULESET, h, None)
        reasons[r.end_reason] = reasons.get(r.end_reason, 0) + 1
    assert set(reasons) & {"battle_damage", "survival_clock"}


def test_redacted_stream_folds_to_the_public_position_M9_011() -> None:
    """[M9-011] a player's view (opponent's hidden cards and all deck orders unknown) still folds, and agrees with
    the real game on every public zone and on the viewer's own hand."""
    g = _game(11, fold_every=1000)
    for viewer in (0, 1):
        h = g.header
        view = RULESET.new_state(h)
        for e in _all_events(11):
            RULESET.apply(view, RULESET.redact(e, viewer))
        s = g.state
        assert isinstance(s, M9State)
        assert view.board == s.board and [p.sites for p in view.players] == [p.sites for p in s.players]
        assert [p.discard for p in view.players] == [p.discard for p in s.players]
        assert view.players[viewer].hand == s.players[viewer].hand
        assert all(c == -1 for c in view.players[1 - viewer].hand)
        assert [len(p.deck) for p in view.players] == [len(p.deck) for p in s.players]


def _all_events(seed: int) -> list[Any]:
    events: list[Any] = []
    d = [DECKS[seed % len(DECKS)], DECKS[(seed // len(DECKS)) % len(DECKS)]]
    bots = [BOTS[seed % 2], BOTS[(seed // 2) % 2]]
    h = make_header(RULESET, seed, d, bots, max_turns=DEFAULT_MAX_TURNS)
    seats = Rng(h.seed ^ 0x5EA7)
    factories = RULESET.agents()
    g = Game(
        RULESET, h, [factories[p.agent](i, seats.fork(i)) for i, p in enumerate(h.players)], on_event=events.append
    )
    while not g.state.over and g.state.turn <= DEFAULT_MAX_TURNS:
        g.step()
    return events


@pytest.mark.soak
def test_hundreds_of_logs_rerun_identically(tmp_path: Path) -> None:
    """Re-running the decisions of many written logs reproduces them event for event."""
    for seed in range(300):
        h = make_header(RULESET, seed, [DECKS[seed % 4], DECKS[(seed // 4) % 4]], [BOTS[seed % 2], "random"],
                        max_turns=DEFAULT_MAX_TURNS)  # fmt: skip
        path = tmp_path / f"{seed}.log"
        play_one(RULESET, h, path)
        assert rerun(read_log(path)).ok
        path.unlink()
