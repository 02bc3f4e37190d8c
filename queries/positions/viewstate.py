"""A viewer's own state of a game: the events as ``Ruleset.redact`` shows them to that viewer, folded by the one
reducer. What the state holds is what the viewer could know, so a board drawn from it (``queries.pictures.svgboard``) or
a replay written from it (``queries.pictures.viewer``) cannot show anything else: the opponent's hidden cards are
unknown placeholders, and a MORANA Commit behind its screen has changed nothing until it is flipped.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from annals.engine.core import Ruleset, State
from annals.engine.registry import get_ruleset
from annals.schemas.header import LogHeader


class ViewState:
    """``viewer``'s fold of a game: ``None`` omniscient, ``-1`` a spectator, else a player index. Feed it the
    omniscient events in order with ``apply``; ``state`` is the viewer's state after them."""

    def __init__(self, header: LogHeader, viewer: int | None):
        self.viewer = viewer
        self.ruleset: Ruleset[Any] = get_ruleset(header.ruleset)
        self.state: State = self.ruleset.new_state(header)

    def redact(self, event: Any) -> Any:
        return event if self.viewer is None else self.ruleset.redact(event, self.viewer)

    def apply(self, event: Any) -> Any:
        """Apply ``event`` as the viewer sees it; returns that redacted event."""
        seen = self.redact(event)
        self.ruleset.apply(self.state, seen)
        return seen

    def apply_all(self, events: Iterable[Any]) -> State:
        for event in events:
            self.apply(event)
        return self.state
