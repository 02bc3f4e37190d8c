"""Options that read alike: one choice for copies a player cannot tell apart, the difference said where they can.

A deck holds copies ([M9-015] three, [MOR-35] two), so a question can offer the same move with two instances of
one card: two Kikimoras in hand make two ``Commit Kikimora at Site 1``. Ruling R-CORE-10 decides what the player
is offered:

* options are *the same for the player* when they are of one kind, with the same fields, and every card instance
  in them that differs is of the same card, in the same place, with the same marks (counters) as the reader sees
  them. Only the first (lowest index) of such options is a choice; each later one is ``same_as`` it, so a client
  shows one button and the answer is always that first option: a log stays reproducible;
* options that read alike but differ in something the reader can see (a place, a mark, which card) say it: the
  text gets what tells it apart, ``Pay with Recruit from your hand (tapped)``, ``... (in the discard pile)``;
* a card the reader cannot identify is never the same as another (it may not be): its options are told apart by
  their order, ``(the first of 2)``.

``Look`` is what the reader sees of an instance: its card id ("" when it cannot identify it), what it calls the
card, then phrases for its place and its marks (``in hand``, ``tapped``, ``2 wounds``, ``carrying Vibro Blade``).
The caller (``engine.seats.SeatStream``) builds it from the seat's own view only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from annals.engine.words import Words, ordinal
from annals.schemas.records import CARDS_PER_PLAYER

Look = Callable[[int], tuple[str, ...]]


class Told(msgspec.Struct, frozen=True):
    """Each option's text, and ``same_as``: -1 for a choice of its own, else the earlier option it is the same as."""

    texts: list[str]
    same_as: list[int]


def _instances(option: Any) -> list[tuple[str, int]]:
    """The card instances an option names, by field (a list field gives one entry per instance)."""
    out = []
    for name in option.__struct_fields__:
        value = getattr(option, name)
        if type(value) is int and value >= CARDS_PER_PLAYER:
            out.append((name, value))
        elif type(value) is list:
            out.extend((name, v) for v in value if type(v) is int and v >= CARDS_PER_PLAYER)
    return out


def _key(option: Any, look: Look) -> tuple[Any, ...]:
    """What the reader can tell of an option: its kind and fields, each instance as what it sees of it."""
    fields: list[Any] = []
    for name in option.__struct_fields__:
        value = getattr(option, name)
        values = value if type(value) is list else [value]
        said = []
        for v in values:
            if type(v) is int and v >= CARDS_PER_PLAYER:
                seen = look(v)
                said.append(seen if seen[:1] != ("",) else ("instance", v))  # an unidentified card stays itself
            else:
                said.append(v)
        fields.append((name, tuple(said)))
    return (type(option).__name__, *fields)


def _differences(options: Sequence[Any], look: Look) -> list[list[str]]:
    """For options that read alike, what tells each apart: the phrases of its instances the others lack."""
    seen = [[look(c) for _, c in _instances(o)] for o in options]
    phrases = [[p for s in looks for p in s[1:] if p] for looks in seen]  # the card's name, place and marks
    common = set.intersection(*(set(p) for p in phrases)) if phrases else set()
    return [[p for p in ps if p not in common] for ps in phrases]


def tell_apart(words: Words, options: Sequence[Any], point: str, look: Look) -> Told:
    """Each option's text and what it is the same as (see the module): the words every client shows."""
    texts = [words.option(o, point) for o in options]
    same_as = [-1] * len(options)
    by_text: dict[str, list[int]] = {}
    for i, text in enumerate(texts):
        by_text.setdefault(text, []).append(i)
    for text, group in by_text.items():
        if len(group) == 1:
            continue
        firsts: dict[tuple[Any, ...], int] = {}
        kept = []
        for i in group:
            key = _key(options[i], look)
            if key in firsts:
                same_as[i] = firsts[key]
            else:
                firsts[key] = i
                kept.append(i)
        if len(kept) == 1:
            continue
        told = _differences([options[i] for i in kept], look)
        for i, extra in zip(kept, told, strict=True):
            texts[i] = f"{text} ({', '.join(extra) if extra else 'no marks'})"
        if len(set(texts[i] for i in kept)) < len(kept):  # still alike: by order, as the board lists them
            for k, i in enumerate(kept):
                texts[i] = f"{text} (the {ordinal(k)} of {len(kept)})"
    return Told(texts, same_as)
