"""The MORANA reducer's dispatch of its frequent events (``reducer._handle``, a chain of type tests) agrees with its
table of handlers: folding a game's events, or a player's redacted stream of them, through ``apply`` or through the
runner's one-call ``recorder`` gives, after every event, the state the table's handlers give. Errors stay the
table's: an event out of order, or of a kind no handler knows, is refused the same way."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from annals.engine.core import EventOrderError, UnknownEventError
from annals.engine.morana import reducer
from annals.engine.morana.ruleset import RULESET
from annals.engine.morana.state import MoranaState
from annals.engine.simulate import make_header, play_one
from annals.schemas import morana as ev
from annals.schemas.header import LogHeader
from annals.schemas.logfile import read_log
from annals.schemas.records import ClockCharged
from tests.toyrules.toy_schema import TurnBegan

TABLE = reducer.apply.__self__._handlers  # type: ignore[attr-defined]
CHAIN = reducer.MoranaReducer(TABLE)  # ``reducer.apply`` itself when compiled; in Python the table is (see there)


def _by_table(state: MoranaState, event: Any) -> None:
    TABLE[type(event)](state, event)
    state.n += 1


def _game(tmp_path: Any, seed: int) -> tuple[LogHeader, list[Any]]:
    header = make_header(RULESET, seed, ["clash", "glory"] if seed % 2 else ["starter-sun", "clash"], ["random"] * 2)
    play_one(RULESET, header, tmp_path / f"{seed}.log")
    return header, read_log(tmp_path / f"{seed}.log").events


def _same_fold(header: LogHeader, events: list[Any]) -> None:
    by_apply, by_recorder, by_table = (RULESET.new_state(header) for _ in range(3))
    recorded: list[Any] = []
    record = CHAIN.recorder(by_recorder, recorded)
    for event in events:
        CHAIN.apply(by_apply, event)
        record(event)
        _by_table(by_table, event)
        expected = msgspec.msgpack.encode(by_table)
        assert msgspec.msgpack.encode(by_apply) == expected, event
        assert msgspec.msgpack.encode(by_recorder) == expected, event
    assert recorded == events


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_chain_folds_as_the_table_does(tmp_path: Any, seed: int) -> None:
    header, events = _game(tmp_path, seed)
    assert {type(e) for e in events} >= {ev.EmbersChanged, ev.PowerChanged, ev.Flipped, ev.DeckShuffled}
    _same_fold(header, events)


@pytest.mark.parametrize("viewer", [0, 1])
def test_a_redacted_stream_folds_as_the_table_does(tmp_path: Any, viewer: int) -> None:
    header, events = _game(tmp_path, 5)
    _same_fold(header, [RULESET.redact(e, viewer) for e in events])


def test_out_of_order_and_unknown_events_are_refused_as_before(tmp_path: Any) -> None:
    header, events = _game(tmp_path, 6)
    state = RULESET.new_state(header)
    with pytest.raises(EventOrderError):
        CHAIN.apply(state, msgspec.structs.replace(events[0], n=1))
    record = CHAIN.recorder(state, [])
    with pytest.raises(EventOrderError):
        record(ev.StepBegan(5, 1, "commit", -1))
    for n in (0, 7):  # another game's event: unknown, whether or not its number is the one expected
        with pytest.raises(UnknownEventError):
            record(TurnBegan(n, 1, "turn", -1))
        with pytest.raises(UnknownEventError):
            CHAIN.apply(state, TurnBegan(n, 1, "turn", -1))
    record(ClockCharged(0, 0, "setup", 0, 10, 20))  # the table's own events still go through the table
    assert state.n == 1
