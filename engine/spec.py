"""What the per-ruleset position builders share: a position written the way a judge writes it, as plain data.

A spec is a decoded TOML document (``queries.workbench.scenario`` reads the files): the players are ``p0`` and ``p1``
(seats 0 and 1), each card is written ``"LABEL=card-id"`` (or just ``"card-id"``; a printed name works too) and
is then named by its label in decisions and expectations. Each builder (``engine.miras9.builder.from_spec``,
``engine.morana.builder.from_spec``) numbers the instances per owner in the order they are written and gives
back the state, the labels and the deck lists that name every instance's card. A problem raises ``SpecError``
naming the field (``p0.hand[2]``) and the fix.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import msgspec

from annals.schemas.errors import AnnalsError, did_you_mean
from annals.schemas.header import DeckList

PLAYERS = ("p0", "p1")  # the players as annals numbers them everywhere a person reads: logs, boards, judges


class SpecError(AnnalsError, ValueError):
    """A position spec names something impossible; ``field`` is where (``p0.board[0].lane``)."""

    def __init__(self, field: str, message: str, value: Any = None):
        self.field = field
        self.value = value  # the offending value as written, to find its line
        super().__init__(f"{field}: {message}")


class Built(msgspec.Struct):
    """A position built from a spec: the state, each label's card instance, and the decks naming every instance."""

    state: Any
    labels: dict[str, int]
    decks: list[DeckList]


def seat(value: Any, field: str) -> int:
    """``"p0"``/``"p1"`` as seat 0/1."""
    if value in PLAYERS:
        return PLAYERS.index(value)
    raise SpecError(field, f'{value!r} is not a player; write "p0" or "p1"', value)


def entry(value: Any, field: str) -> tuple[str, str]:
    """``"LABEL=card"`` or ``"card"`` as (label, card as written); ``""`` label when none."""
    if not isinstance(value, str) or not value.strip():
        raise SpecError(field, f'{value!r} is not a card; write "card-id" or "LABEL=card-id"', value)
    label, _, card = value.partition("=")
    if not card:
        return "", label.strip()
    return label.strip(), card.strip()


def card_id(known: Mapping[str, Any], names: Mapping[str, str], written: str, field: str) -> str:
    """The id of a card written by id or printed name; ``SpecError`` with the closest names otherwise."""
    if written in known:
        return written
    by_name = names.get(written.lower())
    if by_name is not None:
        return by_name
    from difflib import get_close_matches

    close = get_close_matches(written, [*known, *names], n=3)
    hint = f"did you mean {', '.join(repr(c) for c in close)}?" if close else "use a pool id or a [[cards]] table"
    raise SpecError(field, f"unknown card {written!r}; {hint}", written)


class Numbering:
    """Instances per owner in the order written, with their labels (each label once in the whole position)."""

    def __init__(self, instance: Callable[[int, int], int]):
        self._instance = instance
        self.cards: list[list[str]] = [[], []]
        self.labels: dict[str, int] = {}

    def add(self, owner: int, cid: str, label: str, field: str) -> int:
        iid = self._instance(owner, len(self.cards[owner]))
        self.cards[owner].append(cid)
        self.label(label, iid, field)
        return iid

    def label(self, label: str, iid: int, field: str) -> None:
        if not label:
            return
        if label in self.labels:
            raise SpecError(field, f"label {label!r} is used twice; each card is in one place: rename one", f"{label}=")
        if label in PLAYERS or not label.replace("_", "").isalnum():
            raise SpecError(field, f"label {label!r} must be letters and digits (and not p0/p1)", label)
        self.labels[label] = iid


def table(spec: Mapping[str, Any], key: str, where: str, allowed: frozenset[str]) -> dict[str, Any]:
    """The sub-table ``key`` of ``spec`` (empty when absent), refusing keys it does not know."""
    value = spec.get(key, {})
    if not isinstance(value, dict):
        raise SpecError(f"{where}{key}", f"must be a table ([{where}{key}])", key)
    unknown = sorted(set(value) - allowed)
    if unknown:
        raise SpecError(f"{where}{key}.{unknown[0]}", unknown_field(unknown[0], allowed), unknown[0])
    return value


def unknown_field(name: str, allowed: Iterable[str]) -> str:
    """``unknown field; did you mean 'echo'? the fields are: ...``: the closest known field, then them all."""
    fields = sorted(allowed)
    return f"unknown field;{did_you_mean(name, fields)} the fields are: {', '.join(fields)}"


def integer(value: Any, field: str, low: int = 0) -> int:
    if type(value) is not int or value < low:
        raise SpecError(field, f"{value!r} must be a whole number, at least {low}", value)
    return value


def flag(value: Any, field: str) -> int:
    if type(value) is bool:
        return int(value)
    raise SpecError(field, f"{value!r} must be true or false", value)


def cards_list(value: Any, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise SpecError(field, 'must be a list of cards, e.g. ["a1=char-raider", "char-recruit"]', value)
    return value
