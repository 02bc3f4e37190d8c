"""The shared core's contracts: the reducer is the only writer, illegal choices change nothing, caps end games."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import msgspec
import pytest

from annals.engine.core import DecisionPoint, EventOrderError, UnknownEventError
from annals.engine.registry import get_ruleset
from annals.engine.rng import Rng
from annals.engine.runner import TURN_CAP_REASON, Game, play
from annals.engine.simulate import make_header
from annals.schemas.errors import IllegalDecisionError
from annals.schemas.logfile import read_log
from annals.schemas.records import Event
from tests.toyrules.toy_schema import Take, Took

TOY = get_ruleset("toy")


def toy_header(seed: int = 5, max_turns: int = 0) -> Any:
    return make_header(TOY, seed, ["pile", "pile"], ["random", "random"], max_turns=max_turns)


class Cheater:
    """Asks for more counters than the rules allow."""

    def choose(self, state: Any, point: DecisionPoint[Any]) -> Any:
        return Take(4)


class Greedy:
    def choose(self, state: Any, point: DecisionPoint[Any]) -> Any:
        return point.options[-1]


def test_an_illegal_choice_raises_and_changes_nothing() -> None:
    game = Game(TOY, toy_header(), [Cheater(), Cheater()])
    game.step()  # set-up: pile, first player, first turn
    before = msgspec.msgpack.encode(game.state)
    events_before = list(game.events)
    with pytest.raises(IllegalDecisionError, match=r"chose Take\(amount=4\) at 'take', which is not one of the 3"):
        game.step()
    assert msgspec.msgpack.encode(game.state) == before
    assert game.events == events_before
    assert game.decisions == []


def test_unknown_events_raise() -> None:
    class Stranger(Event, tag=99):
        pass

    state = TOY.new_state(toy_header())
    with pytest.raises(UnknownEventError, match="no reducer handler for event Stranger"):
        TOY.apply(state, Stranger(0, 0, "setup", -1))
    assert state.n == 0


def test_events_must_arrive_in_order() -> None:
    state = TOY.new_state(toy_header())
    with pytest.raises(EventOrderError, match="expects event number 0"):
        TOY.apply(state, Took(3, 1, "take", 0, 1, 9))


def test_a_game_without_views_emits_through_the_reducers_checks() -> None:
    """With random bots no seat view is folded, so ``Game.emit`` is ``Reducer.recorder``'s one call: it refuses
    unknown and out-of-order events as ``apply`` does, recording nothing, and a batch handed over stays as it was."""

    class Stranger(Event, tag=98):
        pass

    header = toy_header()
    game = Game(TOY, header, [TOY.agents()["random"](p, Rng(p)) for p in range(2)])
    assert not game.views
    game.step()
    n, recorded = game.state.n, list(game.events)
    with pytest.raises(UnknownEventError, match="no reducer handler for event Stranger"):
        game.emit(Stranger(n, 0, "setup", -1))
    with pytest.raises(EventOrderError, match=f"expects event number {n}"):
        game.emit(Took(n + 5, 1, "take", 0, 1, 9))
    assert (game.state.n, game.events) == (n, recorded)
    batch, _ = game.take_batch()
    game.step()
    assert batch == recorded and game.events and game.events[0].n == n  # the next events went to a new list


def test_decisions_record_what_was_offered_and_chosen(tmp_path: Path) -> None:
    path = tmp_path / "greedy.log"
    play(TOY, toy_header(), [Greedy(), Greedy()], path)
    game = read_log(path)
    assert game.decisions, "a toy game has decisions"
    for decision in game.decisions:
        assert decision.point == "take"
        assert decision.chosen == len(decision.offered) - 1
        took = game.events[decision.at + 0]
        assert isinstance(took, Took) and took.amount == decision.offered[decision.chosen].amount


def test_turn_cap_ends_the_game_with_its_reason(tmp_path: Path) -> None:
    path = tmp_path / "capped.log"
    result = play(TOY, toy_header(max_turns=2), [Greedy(), Greedy()], path)
    assert (result.winner, result.end_reason) == (-1, TURN_CAP_REASON)
    close = read_log(path).close
    assert close.end_reason == TURN_CAP_REASON and close.turns == 3


def test_an_interrupted_game_leaves_a_readable_prefix(tmp_path: Path) -> None:
    """A crash mid-game: every event emitted so far reads back; the missing close is reported."""
    from annals.schemas.errors import TruncatedLogError
    from annals.schemas.logfile import LogReader

    class Crash(Exception):
        pass

    class CrashesOnTurnFive:
        def choose(self, state: Any, point: DecisionPoint[Any]) -> Any:
            if state.turn == 5:
                raise Crash
            return point.options[0]

    path = tmp_path / "crash.log"
    with pytest.raises(Crash):
        play(TOY, toy_header(), [CrashesOnTurnFive(), CrashesOnTurnFive()], path)
    seen: list[Any] = []
    with pytest.raises(TruncatedLogError, match="no closing record"), LogReader(path) as reader:
        seen.extend(e for batch in reader.batches() for e in batch.events)
    assert seen and seen[-1].turn >= 4
    assert [e.n for e in seen] == list(range(len(seen)))


def test_the_generator_is_injected_not_global() -> None:
    """Two games with the same seed, interleaved step by step, stay identical."""
    a = Game(TOY, toy_header(9), [Greedy(), Greedy()], rng=Rng(9))
    b = Game(TOY, toy_header(9), [Greedy(), Greedy()], rng=Rng(9))
    while not a.state.over:
        a.step()
        b.step()
    assert a.events == b.events


def test_a_live_game_writes_every_decision_at_once(tmp_path: Path) -> None:
    """Recorded live, each decision's frame is on disk before the next question is asked."""
    path = tmp_path / "live.log"
    sizes: list[int] = []

    class Watcher:
        def choose(self, state: Any, point: DecisionPoint[Any]) -> Any:
            sizes.append(path.stat().st_size)
            return point.options[0]

    play(TOY, toy_header(), [Watcher(), Watcher()], path, live=True)
    assert len(sizes) >= 3
    assert all(later > earlier for earlier, later in itertools.pairwise(sizes)), sizes
    assert read_log(path).close.end_reason == "took_last"


class Copier:
    """Answers with an equal copy of the last option, not the option itself."""

    def choose(self, state: Any, point: DecisionPoint[Any]) -> Any:
        return msgspec.structs.replace(point.options[-1])


def test_the_played_loop_records_the_chosen_options_index_by_value(tmp_path: Path) -> None:
    """``drive`` finds the choice among the options by value: an agent handing back an equal copy is recorded at
    the same index as one handing back the option itself, and a choice that is no option is refused as
    ``Game.step`` refuses it, naming it."""
    by_identity = play(TOY, toy_header(), [Greedy(), Greedy()], tmp_path / "a.log")
    by_value = play(TOY, toy_header(), [Copier(), Copier()], tmp_path / "b.log")
    assert by_identity.digest == by_value.digest and by_identity.decisions > 0
    decisions = read_log(tmp_path / "b.log").decisions
    assert decisions and all(d.chosen == len(d.offered) - 1 for d in decisions)
    with pytest.raises(IllegalDecisionError, match=r"chose Take\(amount=4\) at 'take', which is not one of the"):
        play(TOY, toy_header(), [Cheater(), Cheater()], tmp_path / "c.log")
