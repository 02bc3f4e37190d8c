"""Which event and option types each ruleset's logs hold, looked up by the name in the log header.

A ruleset's schema module defines ``SCHEMA = RulesetSchema(...)``; register it in ``_MODULES`` by name. Modules
load lazily, so reading a MORANA log never imports the Miras 9 card code.
"""

from __future__ import annotations

import importlib
from typing import Any, NamedTuple

from annals.schemas.errors import AnnalsError
from annals.schemas.records import Decision


class RulesetSchema(NamedTuple):
    name: str
    version: str
    event_type: Any  # a Union of the ruleset's Event subclasses
    option_type: Any  # a Union of the ruleset's decision option Structs
    end_event: Any = None  # the event that ends a game: the last of a finished log, whose winner and reason it gives

    @property
    def batch_type(self) -> Any:
        return tuple[list[self.event_type], list[Decision[self.option_type]]]  # type: ignore[name-defined]


_MODULES: dict[str, str] = {
    "miras9": "annals.schemas.miras9",
    "morana": "annals.schemas.morana",
    "toy": "annals.schemas.toy",
    "cardtoy": "annals.schemas.cardtoy",
}


class UnknownRulesetError(AnnalsError, ValueError):
    pass


def ruleset_names() -> list[str]:
    return sorted(_MODULES)


def schema_for(name: str) -> RulesetSchema:
    module = _MODULES.get(name)
    if module is None:
        raise UnknownRulesetError(f"unknown ruleset {name!r}; known rulesets: {', '.join(ruleset_names())}")
    schema: RulesetSchema = importlib.import_module(module).SCHEMA
    return schema
