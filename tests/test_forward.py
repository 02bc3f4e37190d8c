"""The forward model a search steps: it plays what the runner logs; its copies step alike and never touch the source."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from annals.engine.forward import ForwardModel
from annals.engine.registry import get_ruleset
from annals.engine.rng import Rng
from annals.engine.simulate import make_header, play_one
from annals.engine.statecopy import clone
from annals.schemas.errors import IllegalDecisionError
from annals.schemas.logfile import read_log
from bench import forward

RULESETS = ["miras9", "morana", "toy", "cardtoy"]


def header(name: str, seed: int, max_turns: int = 30) -> Any:
    ruleset = get_ruleset(name)
    decks = sorted(ruleset.decks())
    return make_header(ruleset, seed, [decks[seed % len(decks)], decks[-1]], ["random", "random"], max_turns=max_turns)


def snapshot(model: ForwardModel[Any]) -> tuple[bytes, int, list[Any]]:
    return msgspec.msgpack.encode(model.state), model.rng.state, list(model.legal_options())


@pytest.mark.parametrize("name", RULESETS)
def test_the_model_plays_the_logged_game_from_its_decisions(name: str, tmp_path: Path) -> None:
    game_header = header(name, 3)
    play_one(get_ruleset(name), game_header, tmp_path / "game.log")
    log = read_log(tmp_path / "game.log")
    model = ForwardModel.start(get_ruleset(name), game_header)
    events: list[Any] = log.events[: model.state.n]  # the set-up up to the first decision
    for decision in log.decisions:
        assert (model.to_move(), model.state.n) == (decision.player, decision.at)
        assert list(model.legal_options()) == decision.offered
        events += model.step(decision.offered[decision.chosen])
    assert events == log.events
    assert model.is_over()
    assert model.winner() == log.close.winner


@settings(max_examples=20)  # each example plays up to 300 decisions twice
@given(name=st.sampled_from(RULESETS), seed=st.integers(0, 2**32), picks=st.lists(st.integers(0, 999), max_size=300))
def test_a_copy_stepped_makes_the_events_the_original_makes(name: str, seed: int, picks: list[int]) -> None:
    model = ForwardModel.start(get_ruleset(name), header(name, seed))
    for pick in picks:
        if model.is_over():
            break
        twin = model.copy()
        assert twin.legal_options() == model.legal_options()
        choice = model.legal_options()[pick % len(model.legal_options())]
        assert twin.step(choice) == model.step(choice)
        assert msgspec.msgpack.encode(twin.state) == msgspec.msgpack.encode(model.state)
        assert (twin.rng.state, twin.to_move(), twin.is_over()) == (model.rng.state, model.to_move(), model.is_over())


@settings(max_examples=20)  # each example plays three games out
@given(name=st.sampled_from(RULESETS), seed=st.integers(0, 2**32), at=st.integers(0, 200))
def test_playing_a_copy_out_never_changes_the_original(name: str, seed: int, at: int) -> None:
    model = ForwardModel.start(get_ruleset(name), header(name, seed))
    chooser = Rng(seed)
    for _ in range(at):
        if model.is_over():
            break
        model.step(chooser.choice(model.legal_options()))
    before = snapshot(model)
    for _ in range(3):
        playout = model.copy()
        while not playout.is_over():
            playout.step(chooser.choice(playout.legal_options()))
        assert snapshot(model) == before
    assert playout.winner() == (playout.state.winner if playout.state.over else -1)


def assert_shares_nothing_mutable(state: Any, twin: Any) -> None:
    """Every list, dict and mutable Struct reachable from ``state`` is a new object in ``twin``, of equal value."""
    seen: list[tuple[Any, Any]] = [(state, twin)]
    while seen:
        a, b = seen.pop()
        assert a == b
        mutable_struct = isinstance(a, msgspec.Struct) and not a.__struct_config__.frozen
        if isinstance(a, list | dict) or mutable_struct or dataclasses.is_dataclass(a):  # a Miras 9 card: a dataclass
            assert a is not b, f"{a!r} is shared by the clone"
        if isinstance(a, list):
            seen.extend(zip(a, b, strict=True))
        elif isinstance(a, dict):
            seen.extend((a[k], b[k]) for k in a)
        elif isinstance(a, msgspec.Struct):
            seen.extend((getattr(a, f), getattr(b, f)) for f in a.__struct_fields__)
        elif dataclasses.is_dataclass(a):
            seen.extend((getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))


@pytest.mark.parametrize("name", RULESETS)
def test_a_clone_shares_nothing_the_reducer_changes(name: str) -> None:
    """At every fifth decision of a game (waves, stacks, Commits and all), the clone is equal and shares no list,
    dict or mutable Struct, and keeps the derived pool."""
    model = ForwardModel.start(get_ruleset(name), header(name, 11))
    chooser = Rng(11)
    decisions = 0
    while not model.is_over():
        if decisions % 5 == 0:
            twin = clone(model.state)
            assert msgspec.msgpack.encode(twin) == msgspec.msgpack.encode(model.state)
            assert getattr(twin, "__dict__", None) == getattr(model.state, "__dict__", None)
            assert_shares_nothing_mutable(model.state, twin)
        model.step(chooser.choice(model.legal_options()))
        decisions += 1


def test_an_illegal_choice_raises_and_changes_nothing() -> None:
    model = ForwardModel.start(get_ruleset("toy"), header("toy", 5))
    before = snapshot(model)
    with pytest.raises(IllegalDecisionError, match="is not a legal option"):
        model.step("no such option")
    assert snapshot(model) == before


def test_a_capped_game_is_over_without_a_winner() -> None:
    model = ForwardModel.start(get_ruleset("miras9"), header("miras9", 2, max_turns=3))
    chooser = Rng(2)
    while not model.is_over():
        model.step(chooser.choice(model.legal_options()))
    assert model.state.turn == 4 and not model.state.over
    assert (model.winner(), model.to_move(), list(model.legal_options())) == (-1, -1, [])


def test_the_benchmark_runs_to_its_end(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m bench.forward`` at its quick sizes: a line per ruleset, each with its ceiling (nothing timed)."""
    forward.main(forward.QUICK)
    lines = capsys.readouterr().out.splitlines()[1:]
    assert [line.split(":")[0].strip() for line in lines] == sorted(RULESETS)
    assert all("events applied" in line and "of the reducer's fold" in line for line in lines)
