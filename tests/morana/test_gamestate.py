"""The MORANA state is a dataclass (``morana.gamestate``, native when compiled) or, interpreted, the msgspec Struct
it always was (``state.StructMoranaState``): either way a saved state and a position file keep their bytes, a
decoded state has its pool, a saved state missing a field reads as the Struct reads it, a position numbered afresh
keeps its hold at a Site [MOR-16], and a clone shares nothing the reducer changes."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from annals.engine import compiled, statecopy
from annals.engine.core import from_event_zero
from annals.engine.errors import SavedStateError
from annals.engine.forward import ForwardModel
from annals.engine.morana import gamestate
from annals.engine.morana.cards import shipped_pool
from annals.engine.morana.ruleset import RULESET
from annals.engine.morana.state import MoranaState, StructMoranaState
from annals.engine.rng import Rng
from annals.engine.simulate import make_header
from annals.schemas.carddefs import definition
from tests.test_forward import assert_shares_nothing_mutable

ENCODERS = [msgspec.json.encode, msgspec.msgpack.encode]
DECODERS = [msgspec.json.decode, msgspec.msgpack.decode]


def mid_game_states(seed: int, every: int = 3) -> list[Any]:
    """States of a random game, every ``every`` decisions (Commits sealed, Power, Nav and Slava along the way),
    and its last."""
    decks = sorted(RULESET.decks())
    header = make_header(RULESET, seed, [decks[seed % len(decks)], decks[-1]], ["random", "random"])
    model = ForwardModel.start(RULESET, header)
    chooser = Rng(seed)
    states, decisions = [], 0
    while not model.is_over():
        if decisions % every == 0:
            states.append(statecopy.clone(model.state))
        model.step(chooser.choice(model.legal_options()))
        decisions += 1
    return [*states, statecopy.clone(model.state)]


def test_the_state_is_native_where_the_engine_is_compiled() -> None:
    assert MoranaState is (gamestate.MoranaState if compiled.is_compiled() else StructMoranaState)
    header = make_header(RULESET, 1, list(RULESET.default_decks()), ["random", "random"])
    assert type(RULESET.new_state(header)) is MoranaState


def test_the_dataclass_has_the_structs_fields_in_its_order_with_its_defaults() -> None:
    assert tuple(f.name for f in dataclasses.fields(gamestate.MoranaState)) == StructMoranaState.__struct_fields__
    assert gamestate.MoranaState.HELD_AT == StructMoranaState.HELD_AT == ("site_begun",)
    for encode in ENCODERS:
        assert encode(gamestate.MoranaState()) == encode(StructMoranaState())


@pytest.mark.parametrize("encode", ENCODERS)
def test_a_mid_game_state_encodes_as_the_struct_does(encode: Callable[[object], bytes]) -> None:
    """Each state of a game encoded as it is (native when compiled) and as its Struct twin: the same bytes."""
    states = mid_game_states(5)
    assert any(s.power for s in states) and any(s.sealed for s in states) and states[-1].over
    for state in states:
        twin = msgspec.convert(msgspec.to_builtins(state), StructMoranaState)
        assert encode(state) == encode(twin)
        native = msgspec.convert(msgspec.to_builtins(state), gamestate.MoranaState)
        assert encode(native) == encode(twin)


@pytest.mark.parametrize(("encode", "decode"), list(zip(ENCODERS, DECODERS, strict=True)))
def test_a_state_round_trips_with_its_pool(encode: Callable[[object], bytes], decode: Any) -> None:
    for state in mid_game_states(8, every=5):
        back = decode(encode(state), type=MoranaState)
        assert type(back) is MoranaState and back == state and back.pool is state.pool
        assert all(type(c) is int and type(p) is int for c, p in back.power.items())  # JSON's keys made ints again
        assert RULESET.decode_state(encode(state), json=encode is msgspec.json.encode) == state


def test_a_saved_state_missing_a_field_reads_as_the_struct_reads_it() -> None:
    """Compiled, msgspec would decode a native class's missing int as 0; the Struct's defaults hold instead
    (``initiative`` and ``site_begun`` are -1: nobody, no Site held), and a wrong type is refused by its path."""
    for json in (True, False):
        encode = msgspec.json.encode if json else msgspec.msgpack.encode
        state = RULESET.decode_state(encode({"n": 3, "turn": 1}), json=json)
        assert type(state) is MoranaState
        assert (state.n, state.turn, state.initiative, state.site_begun, state.winner) == (3, 1, -1, -1, -1)
        assert state.sites == [[[], [], []], [[], [], []]] and state.pool.digest == shipped_pool().digest
        with pytest.raises(SavedStateError) as refused:
            RULESET.decode_state(encode({"power": {"1001": "three"}}), json=json)
        assert "$.power" in str(refused.value)


def test_a_state_with_its_own_cards_decodes_with_their_pool() -> None:
    card = next(iter(shipped_pool().cards.values()))
    renamed = definition("cards", {**msgspec.to_builtins(card), "name": "Renamed"})
    state = msgspec.json.decode(msgspec.json.encode({"card_defs": [renamed]}), type=MoranaState)
    assert state.pool is not shipped_pool() and state.pool.cards[card.id].name == "Renamed"


def test_a_position_numbered_afresh_keeps_its_hold_at_a_site() -> None:
    """``from_event_zero`` (a position file continued): n is 0 and a position held just after a Site's resolution
    began still is [MOR-16]; one that is not stays not."""
    held = MoranaState(n=40, site_begun=40, turn=3)
    fresh = from_event_zero(held)
    assert type(fresh) is MoranaState and (fresh.n, fresh.site_begun, fresh.turn) == (0, 0, 3) and held.n == 40
    assert fresh.pool is held.pool
    assert from_event_zero(MoranaState(n=40, site_begun=12)).site_begun == -1


def test_a_clone_shares_nothing_and_keeps_the_pool() -> None:
    """The native state copies itself (``__copy__``): every field, and no list or dict shared, down to each Site's
    pile; what the Struct plan of ``statecopy`` does for the Struct."""
    for state in mid_game_states(13, every=2):
        twin = statecopy.clone(state)
        assert type(twin) is type(state) and twin.pool is state.pool
        assert msgspec.msgpack.encode(twin) == msgspec.msgpack.encode(state)
        assert_shares_nothing_mutable(state, twin)
        twin.n += 1
        twin.sites[0][1].append(9999)
        twin.power[9999] = 1
        assert state.n == twin.n - 1 and 9999 not in state.sites[0][1] and 9999 not in state.power
