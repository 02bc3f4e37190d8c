"""The small records a Miras 9 state holds in its lists: a once-per-turn mark and a reaction stack item. msgspec
Structs (array-like: a saved state holds each as a short array), kept in a module the compiled build does not
compile (a Struct class defined in a compiled module fails mypyc's checks of its instances), so that both the
native state (``miras9.gamestate``) and the Struct one (``state.StructM9State``) can name them."""

from __future__ import annotations

import msgspec

REPLACEMENT = -1  # the ``Spent.ability`` of a card's replacement effect (its abilities are numbered from 0)


class Spent(msgspec.Struct, array_like=True, frozen=True):
    """A once-per-turn limit used this turn [M9-044]: which card, and which of its abilities or its replacement."""

    card: int
    ability: int


class StackItem(msgspec.Struct, array_like=True):
    """A pending Reaction or activated ability on the reaction stack [M9-114] (top = end of ``M9State.stack``)."""

    card: int
    ability: int  # -1: the card itself
    target: int
    controller: int
    dest: int = -1  # an announced destination (board position), e.g. Escape Route's
