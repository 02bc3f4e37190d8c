"""The engine's errors, kept out of the modules the compiled build compiles (``engine.native``): mypyc cannot
compile a class deriving from a builtin exception. ``engine.core`` and ``engine.runner`` re-export them."""

from __future__ import annotations

from annals.schemas.errors import AnnalsError


class UnknownEventError(AnnalsError, NotImplementedError):
    """The reducer was handed an event kind it has no handler for."""


class EventOrderError(AnnalsError, ValueError):
    """An event's number does not follow the state's event count (a gap, a repeat, or another game's event)."""


class StalledGameError(AnnalsError, RuntimeError):
    """The game cannot go on: no decision pending and the rules emit nothing (only a damaged or edited position)."""


class SavedStateError(AnnalsError, ValueError):
    """A saved state (a position file's ``state``, a log header's ``start_position``) that is not one of its
    ruleset's states: ``path`` the field (``$.cards["1004"].owner``), ``problem`` what is wrong, ``fix`` what to do."""

    def __init__(self, path: str, problem: str, fix: str):
        super().__init__(f"{path}: {problem}; {fix}")
        self.path, self.problem, self.fix = path, problem, fix
