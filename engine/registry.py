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
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from annals.engine.core import Ruleset
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
