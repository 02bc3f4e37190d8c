"""Rulesets by name, loaded lazily (``annals simulate NAME`` and log headers name them)."""

from __future__ import annotations

import importlib
from typing import Any

from annals.engine.core import Ruleset
from annals.schemas.rulesets import UnknownRulesetError

_RULESETS: dict[str, str] = {
    "miras9": "annals.engine.miras9.ruleset",
    "morana": "annals.engine.morana.ruleset",
    "toy": "annals.engine.toy",
    "cardtoy": "annals.engine.cardtoy",
}


def ruleset_names(*, include_toy: bool = False) -> list[str]:
    return sorted(name for name in _RULESETS if include_toy or name not in ("toy", "cardtoy"))


def get_ruleset(name: str) -> Ruleset[Any]:
    module = _RULESETS.get(name)
    if module is None:
        raise UnknownRulesetError("ruleset", name, ruleset_names())
    ruleset: Ruleset[Any] = importlib.import_module(module).RULESET
    return ruleset
