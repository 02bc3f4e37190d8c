"""Which event and option types each ruleset's logs hold, looked up by the name in the log header.

A ruleset's schema module defines ``SCHEMA = RulesetSchema(...)``. The two rulesets annals ships are built in;
another one is added by ``register_schema(name, "package.module")``, or by an installed distribution that names
its module in the ``annals.schemas`` entry-point group (``[project.entry-points."annals.schemas"]``, ``NAME =
"package.module"``); its engine half goes in ``annals.rulesets`` (``annals.engine.registry``). Modules load lazily,
so reading a MORANA log never imports the Miras 9 card code.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from functools import cache
from importlib.metadata import entry_points
from typing import Any, NamedTuple

from annals.schemas.errors import AnnalsError, UnknownNameError
from annals.schemas.records import Decision

ENTRY_POINT_GROUP = "annals.schemas"


class RulesetSchema(NamedTuple):
    name: str
    version: str
    event_type: Any  # a Union of the ruleset's Event subclasses
    option_type: Any  # a Union of the ruleset's decision option Structs
    # Coordinate names for ``annals position --at NAME:K`` (``wave`` -> ``WaveDeclared``): see
    # queries.positions.timeline.
    aliases: Mapping[str, str] = {}
    # Both players take each turn together (MORANA [MOR-13]): there is no first player, so ingest stores NULL.
    simultaneous_turns: bool = False
    end_event: Any = None  # the event that ends a game: the last of a finished log, whose winner and reason it gives
    # Earlier versions whose logs this one still re-runs (the rules unchanged, only what an event records): for
    # each, the event as this version emits it turned into how that version recorded it, for ``verify`` to compare.
    earlier: Mapping[str, Callable[[Any], Any]] = {}

    @property
    def batch_type(self) -> Any:
        return tuple[list[self.event_type], list[Decision[self.option_type]]]  # type: ignore[name-defined]


BUILT_IN: dict[str, str] = {
    "miras9": "annals.schemas.miras9",
    "morana": "annals.schemas.morana",
}
_MODULES: dict[str, str] = dict(BUILT_IN)


class UnknownRulesetError(UnknownNameError, ValueError):
    """No ruleset by that name."""


class RulesetRegistrationError(AnnalsError, ValueError):
    """A ruleset name registered twice with different modules."""


def register_schema(name: str, module: str) -> None:
    """Make ``name`` (as log headers spell it) read with ``module.SCHEMA``; registering the same pair again is a
    no-op, another module under a taken name is refused."""
    _discovered()
    taken = _MODULES.get(name)
    if taken is not None and taken != module:
        raise RulesetRegistrationError(
            f"ruleset {name!r} is already registered with schema module {taken!r}; choose another name for {module!r}"
        )
    _MODULES[name] = module


@cache
def _discovered() -> None:
    """Add the schema modules installed distributions name in the ``annals.schemas`` entry-point group, once."""
    for point in entry_points(group=ENTRY_POINT_GROUP):
        _MODULES.setdefault(point.name, point.module)


def registrations() -> dict[str, str]:
    """Ruleset name -> schema module, everything known in this process (for a worker process to repeat)."""
    _discovered()
    return dict(_MODULES)


def ruleset_names() -> list[str]:
    _discovered()
    return sorted(_MODULES)


def schema_for(name: str) -> RulesetSchema:
    _discovered()
    module = _MODULES.get(name)
    if module is None:
        raise UnknownRulesetError("ruleset", name, ruleset_names())
    schema: RulesetSchema = importlib.import_module(module).SCHEMA
    return schema
