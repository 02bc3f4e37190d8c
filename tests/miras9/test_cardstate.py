"""A card's state is a dataclass (``miras9.cardstate``, native when compiled) or, interpreted, a msgspec Struct
(``state.StructCard``): either way saved states and position files keep the bytes they had when it was always a
Struct, and a bad field is refused the same way."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from annals.engine import compiled
from annals.engine.miras9 import cardstate
from annals.engine.miras9.state import CardState, M9State, StructCard


class OldCard(msgspec.Struct, kw_only=True):
    """The card state as it was (a Struct): the encoding saved states and position files were written with."""

    iid: int
    cid: str
    owner: int
    ctrl: int
    zone: str
    loc: int = -1
    host: int = 0
    tapped: int = 0
    attuned: int = 0
    wounds: int = 0
    atk_mod: int = 0
    grit_mod: int = 0
    shield: int = 0
    token: bool = False
    face: int = 0
    spotted: int = 0
    origin: int = -1
    aboard: int = 0
    crew: int = 0


VALUES: dict[str, Any] = {
    "iid": 1003, "cid": "m9-x", "owner": 1, "ctrl": 0, "zone": "lane:1:2", "loc": 5, "tapped": 1, "wounds": 2,
    "atk_mod": -1, "token": True, "face": 1, "origin": 3, "crew": 2,
}  # fmt: skip


CARDS = [cardstate.CardState, StructCard]


@pytest.mark.parametrize("card", CARDS)
@pytest.mark.parametrize("encode", [msgspec.json.encode, msgspec.msgpack.encode])
def test_a_card_encodes_as_the_struct_did(card: type[Any], encode: Callable[[object], bytes]) -> None:
    assert encode(card(**VALUES)) == encode(OldCard(**VALUES))
    assert encode(card(iid=7, cid="c", owner=0, ctrl=0, zone="")) == encode(
        OldCard(iid=7, cid="c", owner=0, ctrl=0, zone="")
    )


def test_the_card_is_native_where_the_engine_is_compiled() -> None:
    assert CardState is (cardstate.CardState if compiled.is_compiled() else StructCard)


def test_a_state_round_trips_its_cards() -> None:
    state = M9State(cards={1003: CardState(**VALUES), 7: CardState(iid=7, cid="c", owner=0, ctrl=0, zone="deck")})
    for encode, decode in (
        (msgspec.json.encode, msgspec.json.decode),
        (msgspec.msgpack.encode, msgspec.msgpack.decode),
    ):
        back = decode(encode(state), type=M9State)
        assert back == state
        assert type(back.cards[1003]) is CardState and back.cards[1003].atk_mod == -1
    assert msgspec.convert(msgspec.to_builtins(state), M9State) == state


def test_a_bad_card_field_is_refused_by_name() -> None:
    raw = msgspec.json.encode({"cards": {"7": {**VALUES, "loc": "x"}}})
    with pytest.raises(msgspec.ValidationError, match=r"Expected `int`, got `str` - at `\$\.cards\[\.\.\.\]\.loc`"):
        msgspec.json.decode(raw, type=M9State)
    raw = msgspec.json.encode({"cards": {"7": {"iid": 7}}})
    with pytest.raises(msgspec.ValidationError, match="missing required field `cid`"):
        msgspec.json.decode(raw, type=M9State)


@pytest.mark.parametrize("card", CARDS)
def test_a_copy_is_equal_and_its_own(card: type[Any]) -> None:
    one = card(**VALUES)
    twin = copy.copy(one)
    assert twin == one and twin is not one
    twin.wounds += 1
    assert one.wounds == 2
