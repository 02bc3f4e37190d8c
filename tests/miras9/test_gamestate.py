"""The whole Miras 9 state is a dataclass (``miras9.gamestate``, native when compiled) or, interpreted, the msgspec
Struct it always was (``state.StructM9State``): either way a saved state and a position file keep their bytes, a
decoded state has its pool, a position numbered afresh keeps its boundary, and a clone shares nothing the reducer
changes."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from annals.engine import compiled, statecopy
from annals.engine.core import from_event_zero
from annals.engine.forward import ForwardModel
from annals.engine.miras9 import gamestate
from annals.engine.miras9.pool import SHIPPED
from annals.engine.miras9.state import CardState, M9State, StackItem, StructM9State, Wave
from annals.engine.registry import get_ruleset
from annals.engine.rng import Rng
from annals.engine.simulate import make_header
from annals.schemas.carddefs import definition
from tests.test_forward import assert_shares_nothing_mutable

ENCODERS = [msgspec.json.encode, msgspec.msgpack.encode]
DECODERS = [msgspec.json.decode, msgspec.msgpack.decode]


def mid_game_states(seed: int, every: int = 7) -> list[Any]:
    """States of a random game, every ``every`` decisions: piles, waves, windows and the stack along the way."""
    ruleset = get_ruleset("miras9")
    decks = sorted(ruleset.decks())
    header = make_header(ruleset, seed, [decks[seed % len(decks)], decks[-1]], ["random", "random"], max_turns=40)
    model = ForwardModel.start(ruleset, header)
    chooser = Rng(seed)
    states, decisions = [], 0
    while not model.is_over():
        if decisions % every == 0:
            states.append(statecopy.clone(model.state))
        model.step(chooser.choice(model.legal_options()))
        decisions += 1
    return states


def test_the_state_is_native_where_the_engine_is_compiled() -> None:
    assert M9State is (gamestate.M9State if compiled.is_compiled() else StructM9State)
    ruleset = get_ruleset("miras9")
    header = make_header(ruleset, 1, list(ruleset.default_decks()), ["random", "random"])
    assert type(ruleset.new_state(header)) is M9State


def test_the_dataclass_has_the_structs_fields_in_its_order_with_its_defaults() -> None:
    assert tuple(f.name for f in dataclasses.fields(gamestate.M9State)) == StructM9State.__struct_fields__
    for encode in ENCODERS:
        assert encode(gamestate.M9State()) == encode(StructM9State())


@pytest.mark.parametrize("encode", ENCODERS)
def test_a_mid_game_state_encodes_as_the_struct_does(encode: Callable[[object], bytes]) -> None:
    """Each state of a game encoded as it is (native when compiled) and as its Struct twin: the same bytes."""
    states = mid_game_states(5)
    assert any(s.wave is not None for s in states) and any(s.stack or s.window for s in states)
    for state in states:
        twin = msgspec.convert(msgspec.to_builtins(state), StructM9State)
        assert encode(state) == encode(twin)


@pytest.mark.parametrize(("encode", "decode"), list(zip(ENCODERS, DECODERS, strict=True)))
def test_a_state_round_trips_with_its_pool(encode: Callable[[object], bytes], decode: Any) -> None:
    for state in mid_game_states(8, every=11):
        back = decode(encode(state), type=M9State)
        assert type(back) is M9State and back == state and back.pool is state.pool
        assert all(type(cs) is CardState for cs in back.cards.values())
        assert back.wave is None or type(back.wave) is Wave
        assert all(type(item) is StackItem for item in back.stack)
    assert msgspec.json.decode(b"{}", type=M9State).pool is SHIPPED  # (its missing ints: see gamestate.__post_init__)


def test_a_state_with_its_own_cards_decodes_with_their_pool() -> None:
    card = next(iter(SHIPPED.cards.values()))
    renamed = definition("cards", {**msgspec.to_builtins(card), "name": "Renamed"})
    state = msgspec.json.decode(msgspec.json.encode({"card_defs": [renamed]}), type=M9State)
    assert state.pool is not SHIPPED and state.pool[card.id].name == "Renamed"


def test_a_position_numbered_afresh_keeps_its_boundary() -> None:
    """``from_event_zero`` (a position file continued): n is 0 and a position held at a boundary still is [M9-031]."""
    held = M9State(n=40, boundary=40, turn=3)
    fresh = from_event_zero(held)
    assert type(fresh) is M9State and (fresh.n, fresh.boundary, fresh.turn) == (0, 0, 3) and held.n == 40
    assert fresh.pool is held.pool
    assert from_event_zero(M9State(n=40, boundary=12)).boundary == -1


def test_a_clone_shares_nothing_and_keeps_the_pool() -> None:
    """The native state copies itself (``__copy__``): every field, and no list, dict, card, player, wave or stack
    item shared; what the Struct plan of ``statecopy`` does for the Struct."""
    for state in mid_game_states(13, every=5):
        twin = statecopy.clone(state)
        assert type(twin) is type(state) and twin.pool is state.pool
        assert msgspec.msgpack.encode(twin) == msgspec.msgpack.encode(state)
        assert_shares_nothing_mutable(state, twin)
        twin.n += 1
        twin.board.append(9999)
        assert state.n == twin.n - 1 and 9999 not in state.board
