"""A saved Miras 9 state read back (a position file's ``state``, a log header's ``start_position``): checked against
the Struct twins of the native state, card, player and wave classes, then made an ``M9State``
(``engine.savedstate``).

Compiled, the state, a card, a player and the wave are mypyc native classes (``gamestate``, ``cardstate``,
``playerstate``), into which msgspec would decode a card without its ``owner`` as owned by seat 0 and a card
without its ``loc`` at position 0 (its default is -1: off the board); interpreted they are the Structs, which
refuse the first and default the second. ``CheckedState`` is the state with the Structs, which the compiled build
decodes into first (the interpreted ``M9State`` holds them already), so a file reads alike in both.
"""

from __future__ import annotations

from typing import Final

from annals.engine import compiled, savedstate
from annals.engine.miras9.state import M9State, StructCard, StructM9State, StructPlayer, StructWave


class CheckedState(StructM9State, kw_only=True, dict=True):
    """``StructM9State`` (the state's own Struct twin) with the Struct twins of its card, player and wave: what a
    saved state is decoded into first, compiled."""

    cards: dict[int, StructCard] = {}  # type: ignore[assignment]
    players: list[StructPlayer] = []  # type: ignore[assignment]
    wave: StructWave | None = None  # type: ignore[assignment]


# What each required field (and the fields a person most often gets wrong) holds, for a refusal's fix
FIXES: Final = {
    "cards.iid": "the card's instance number, the same as its key (seat 0's cards are 1000.., seat 1's 2000..)",
    "cards.cid": "the card's id, as the file's \"cards\" legend lists it for this instance",
    "cards.owner": "the seat that owns the card: 0 or 1 (1000.. are seat 0's, 2000.. seat 1's)",
    "cards.ctrl": "the seat that controls the card: 0 or 1, its owner unless a card took control of it",
    "cards.zone": "where the card is: deck, hand, resource, used, discard, exile, planet, stack, or a board zone "
    "such as lane:0:exterior (another card of the same pile shows the spelling)",
    "cards.loc": "the card's board position, 0..5 (side * 3 + lane), or -1 off the board (the default)",
    "cards.origin": "the board position an En Route card left, or -1 (the default)",
    "wave.number": "the wave's number in the game, counting from 1",
    "wave.lane": "the lane attacked: 0 Exterior, 1 Interior, 2 Space",
    "wave.attacker": "the attacking seat: 0 or 1",
    "players": "a list of two players, each with its piles (deck, hand, ...)",
}


def decode_state(data: bytes, *, json: bool = False) -> M9State:
    """``data`` as a Miras 9 state, or ``SavedStateError`` naming the field (the module's text)."""
    checked = CheckedState if compiled.is_compiled() else None  # interpreted, M9State holds the Structs already
    return savedstate.decode(M9State, data, json=json, checked=checked, fixes=FIXES)
