"""Events in words with card names, for the replay viewer's event list: the one renderer of ``engine.words``.

``describe(ruleset, event, name)`` takes an event as the viewer saw it (redacted: a hidden card is ``-1``) and
``name``, a function from a card instance to its name; "" for an event that changes nothing a person follows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from annals.engine.words import Printed, Words

Namer = Callable[[int], str]
_WORDS: dict[tuple[str, int, tuple[str, ...]], Words] = {}


def describe(ruleset: str, event: Any, name: Namer, players: Sequence[str] = (), printed: Printed | None = None) -> str:
    """``printed``: the cards' printed numbers, for the words that say where an amount comes from (``Words``)."""
    key = (ruleset, id(name), tuple(players))
    words = _WORDS.get(key)
    if words is None or words._name is not name:
        words = _WORDS[key] = Words(ruleset, name, players, printed=printed)
        while len(_WORDS) > 16:
            _WORDS.pop(next(iter(_WORDS)))
    return words.event(event) or ""
