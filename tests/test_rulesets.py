"""Properties every registered ruleset must have (the toy, Miras 9, MORANA): determinism, replay, fold == play.

Each runs a handful of seeded random games by default; ``--soak`` runs thousands.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from annals.engine.registry import get_ruleset
from annals.engine.replay import rerun
from annals.schemas.logfile import read_log
from tests.rulesets import ALL_RULESETS, play_to_file, states_at_every_event

SEEDS = range(1, 6)
SOAK_GAMES = 2000


@pytest.mark.parametrize("name", ALL_RULESETS)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32))
def test_same_inputs_write_byte_identical_logs(tmp_path: Path, name: str, seed: int) -> None:
    """Determinism: a game is a pure function of header and decisions; two runs give the same bytes."""
    a, b = tmp_path / "a.log", tmp_path / "b.log"
    play_to_file(name, seed, a)
    play_to_file(name, seed, b)
    assert a.read_bytes() == b.read_bytes()


@pytest.mark.parametrize("name", ALL_RULESETS)
@pytest.mark.parametrize("seed", SEEDS)
def test_fold_of_the_log_equals_the_engine_state_at_every_event(name: str, seed: int) -> None:
    ruleset = get_ruleset(name)
    header, events, snapshots = states_at_every_event(name, seed)
    state = ruleset.new_state(header)
    for i, event in enumerate(events):
        ruleset.apply(state, event)
        assert msgspec.msgpack.encode(state) == snapshots[i], f"{name} seed {seed}: fold differs after event {i}"


@pytest.mark.parametrize("name", ALL_RULESETS)
@pytest.mark.parametrize("seed", SEEDS)
def test_rerunning_the_decisions_reproduces_every_event(tmp_path: Path, name: str, seed: int) -> None:
    path = tmp_path / "game.log"
    result = play_to_file(name, seed, path)
    game = read_log(path)
    assert len(game.events) == result.events
    report = rerun(game)
    assert report.ok, report
    assert report.events_checked == result.events


@pytest.mark.parametrize("name", ALL_RULESETS)
def test_rerun_names_the_first_event_that_differs(tmp_path: Path, name: str) -> None:
    path = tmp_path / "game.log"
    play_to_file(name, 3, path)
    game = read_log(path)
    k = len(game.events) // 2
    tampered = msgspec.structs.replace(game.events[k], turn=game.events[k].turn + 1000)
    game.events[k] = tampered
    report = rerun(game)
    assert not report.ok
    assert report.first_difference == k
    assert "turn=" in report.expected and report.expected != report.actual


@pytest.mark.parametrize("name", ALL_RULESETS)
def test_positions_never_hold_negative_counters(name: str) -> None:
    ruleset = get_ruleset(name)
    for seed in SEEDS:
        header, events, _ = states_at_every_event(name, seed)
        state = ruleset.new_state(header)
        for event in events:
            ruleset.apply(state, event)
            position = ruleset.position(state)
            negative = {k: v for k, v in position.counters.items() if v < 0}
            assert not negative, f"{name} seed {seed} after event {event.n}: {negative}"


@pytest.mark.parametrize("name", ALL_RULESETS)
@pytest.mark.parametrize("viewer", [0, 1, -1])
def test_the_reducer_folds_any_players_redacted_stream(name: str, viewer: int) -> None:
    """Hidden information is a view: a player's or spectator's stream folds to the same public outcome."""
    ruleset = get_ruleset(name)
    for seed in SEEDS:
        header, events, _ = states_at_every_event(name, seed)
        full = ruleset.new_state(header)
        seen = ruleset.new_state(header)
        for event in events:
            ruleset.apply(full, event)
            ruleset.apply(seen, ruleset.redact(event, viewer))
        assert (seen.n, seen.turn, seen.over, seen.winner) == (full.n, full.turn, full.over, full.winner)


@pytest.mark.soak
@pytest.mark.parametrize("name", ALL_RULESETS)
def test_soak_thousands_of_games_replay_exactly(tmp_path: Path, name: str) -> None:
    for seed in range(SOAK_GAMES):
        path = tmp_path / "soak.log"
        play_to_file(name, seed, path)
        report = rerun(read_log(path))
        assert report.ok, (seed, report)
