"""Card definitions that are not in a ruleset's shipped pool: how a game, a log and a scenario carry them.

A game may be played with the shipped pool plus extra cards, or with shipped cards changed (an errata, a
hypothetical). Each such definition travels as a ``CardDefinition``: the ruleset's pool section it belongs to
(``cards``; MORANA also ``wardens``), the card id, the definition as canonical JSON (the TOML table as written,
keys sorted) and a BLAKE2b-64 digest of that text. The log header lists them (``LogHeader.cards``) and so does
the game state, so any annals reads, replays and verifies the game without the card file; a definition edited in
a log no longer matches its digest and is named (``digest_problems``).

The pool's hash (``LogHeader.card_pool_hash``) stays the shipped file's hash when no definition is added;
otherwise it is ``extended_pool_hash``: a hash of the shipped hash and each definition's id and digest.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from annals.schemas.errors import AnnalsError, CardDataError
from annals.schemas.inputs import InputFileError, check_tree, load_toml

# Every number a card has (cost, stats, amounts, counts): the shipped pools' run -1 .. 12. An attack of 2**63 asked the
# engine for that many damage sources (a MemoryError traceback).
CARD_INT_RANGE = (-999, 999)


class CardDefinition(msgspec.Struct, frozen=True, array_like=True):
    """One card definition not in the shipped pool (or changed from it)."""

    section: str  # the pool file's table array: "cards" (MORANA also "wardens")
    id: str
    table: str  # the definition as canonical JSON
    digest: str  # BLAKE2b-64 (hex) of ``table``


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def definition(section: str, table: dict[str, Any], where: str = "card definition") -> CardDefinition:
    """A ``CardDefinition`` from a decoded TOML table (which must have an ``id``)."""
    cid = table.get("id")
    if not isinstance(cid, str) or not cid:
        raise CardDataError(f'{where}: a {section} table needs an `id` (a non-empty string); add `id = "..."`')
    text = json.dumps(table, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return CardDefinition(section, cid, text, _digest(text))


def decoded(d: CardDefinition) -> dict[str, Any]:
    """The definition's table back as builtins."""
    table: dict[str, Any] = json.loads(d.table)
    return table


def definitions_from_tables(tables: dict[str, Any], sections: Sequence[str], where: str) -> list[CardDefinition]:
    """The definitions of a decoded card file: every table of each of ``sections`` (anything else is refused)."""
    out: list[CardDefinition] = []
    for key, value in tables.items():
        if key not in sections:
            raise CardDataError(f"{where}: unknown table {key!r}; a card file holds only {', '.join(sections)}")
        if not isinstance(value, list) or not all(isinstance(t, dict) for t in value):
            raise CardDataError(f"{where}: {key} must be an array of tables ([[{key}]] entries)")
        for i, table in enumerate(value):
            out.append(definition(key, table, f"{where}: {key}[{i}]"))
    ids = [d.id for d in out]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise CardDataError(f"{where}: card id {twice[0]!r} is defined twice; give each card one definition")
    return out


def load_card_file(path: str | Path, sections: Sequence[str] = ("cards",)) -> list[CardDefinition]:
    """The definitions of a TOML card file (``[[cards]]`` tables, as the pool file writes them)."""
    p = Path(path)
    try:
        tables = load_toml(p, what="card")
    except FileNotFoundError:
        missing = CardDataError(f"{p}: no such card file; give the path of a TOML file of [[cards]] tables")
        raise missing.about(p) from None
    except AnnalsError as exc:  # not a regular file, too big, not UTF-8, not TOML, too deep, a number too big
        raise CardDataError(str(exc)) from None
    return definitions_from_tables(tables, sections, str(p))


def extended_pool_hash(shipped: str, extra: Sequence[CardDefinition]) -> str:
    """The hash of the shipped pool (hash ``shipped``) with ``extra`` added or put in place; ``shipped`` itself
    when there is nothing extra, so every game of the shipped pool keeps the hash it always had."""
    if not extra:
        return shipped
    lines = [shipped] + [f"{d.section}:{d.id}:{d.digest}" for d in sorted(extra, key=lambda d: (d.section, d.id))]
    return _digest("\n".join(lines))


def digest_problems(extra: Sequence[CardDefinition]) -> list[str]:
    """Each embedded definition whose text no longer matches its digest (it was edited), by card id."""
    return [
        f"card {d.id!r}: its embedded definition does not match its digest {d.digest} (it was edited after the game)"
        for d in extra
        if _digest(d.table) != d.digest
    ]


def convert(d: CardDefinition, typ: type[Any], where: str = "") -> Any:
    """Decode a definition into the pool's schema type, naming the card and the field on an error."""
    table = decoded(d)
    try:  # from a card file or embedded in a log: no card needs more than a few dozen of anything
        check_tree(table, where=f"{where or 'card'} {d.id!r}", what="card", int_range=CARD_INT_RANGE)
    except InputFileError as exc:
        raise CardDataError(str(exc)) from None
    try:
        return msgspec.convert(table, typ)
    except msgspec.ValidationError as exc:
        raise CardDataError(f"{where or 'card'} {d.id!r}: {exc}; fix that field of its definition") from None
