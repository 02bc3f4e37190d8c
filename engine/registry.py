"""Rulesets by name, loaded lazily (``annals simulate NAME`` and log headers name them).

A ruleset is two modules: the engine's, defining ``RULESET`` (the ``core.Ruleset`` contract), and the schema's,
defining ``SCHEMA`` (``schemas.rulesets``). Miras 9 and MORANA are built in. Add another with
``register_ruleset(name, "package.rules", "package.events")``, or ship it in a distribution that names the modules
in the entry-point groups ``annals.rulesets`` and ``annals.schemas``::

    [project.entry-points."annals.rulesets"]
    nim = "nim_rules.ruleset"
    [project.entry-points."annals.schemas"]
    nim = "nim_rules.events"
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from annals.engine.core import Ruleset
from annals.schemas.carddefs import CardDefinition, load_card_file
from annals.schemas.errors import CardDataError
from annals.schemas.header import LogHeader
from annals.schemas.rulesets import RulesetRegistrationError, UnknownRulesetError, register_schema

ENTRY_POINT_GROUP = "annals.rulesets"

_RULESETS: dict[str, str] = {
    "miras9": "annals.engine.miras9.ruleset",
    "morana": "annals.engine.morana.ruleset",
}


def register_ruleset(name: str, module: str, schema_module: str) -> None:
    """Make ``name`` playable and readable: ``module.RULESET`` plays it, ``schema_module.SCHEMA`` decodes its logs.

    Registering the same modules again is a no-op; another module under a taken name raises
    ``RulesetRegistrationError``.
    """
    _discovered()
    taken = _RULESETS.get(name)
    if taken is not None and taken != module:
        raise RulesetRegistrationError(
            f"ruleset {name!r} is already registered with module {taken!r}; choose another name for {module!r}"
        )
    register_schema(name, schema_module)
    _RULESETS[name] = module


def engine_registrations() -> dict[str, str]:
    """Ruleset name -> rules module, everything known in this process (for a worker process to repeat)."""
    _discovered()
    return dict(_RULESETS)


@cache
def _discovered() -> None:
    """Add the rulesets installed distributions name in the ``annals.rulesets`` entry-point group, once."""
    for point in entry_points(group=ENTRY_POINT_GROUP):
        _RULESETS.setdefault(point.name, point.module)


def ruleset_names() -> list[str]:
    _discovered()
    return sorted(_RULESETS)


def get_ruleset(name: str) -> Ruleset[Any]:
    _discovered()
    module = _RULESETS.get(name)
    if module is None:
        raise UnknownRulesetError("ruleset", name, ruleset_names())
    ruleset: Ruleset[Any] = importlib.import_module(module).RULESET
    return ruleset


def with_cards(ruleset: Ruleset[Any], cards: Sequence[CardDefinition]) -> Ruleset[Any]:
    """``ruleset`` played with the shipped pool plus ``cards`` (itself when there are none); ``CardDataError`` for a
    ruleset that has no card pool to extend."""
    if not cards:
        return ruleset
    extend = getattr(ruleset, "with_cards", None)
    if extend is None:
        raise CardDataError(f"ruleset {ruleset.schema.name!r} takes no card definitions; remove them")
    extended: Ruleset[Any] = extend(cards)
    return extended


def ruleset_for(header: LogHeader) -> Ruleset[Any]:
    """The ruleset a log's game was played with: its ruleset, with the card definitions its header embeds (on the
    pool its header names, for a ruleset that keeps earlier editions: its optional ``for_header``)."""
    ruleset = get_ruleset(header.ruleset)
    pick = getattr(ruleset, "for_header", None)
    if pick is not None:
        chosen: Ruleset[Any] = pick(header)
        return chosen
    return with_cards(ruleset, header.cards)


def load_cards(ruleset_name: str, path: str | Path) -> list[CardDefinition]:
    """The card definitions of a TOML card file for ``ruleset_name`` (its pool file's tables: ``[[cards]]``, and
    for MORANA ``[[wardens]]``), each checked by building the pool with them (``CardDataError`` naming the card and
    field)."""
    ruleset = get_ruleset(ruleset_name)
    cards = load_card_file(path, getattr(ruleset, "card_sections", ("cards",)))
    try:
        with_cards(ruleset, cards)
    except CardDataError as exc:
        raise CardDataError(f"{path}: {exc}") from None
    return cards
