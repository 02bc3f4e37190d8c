"""How ``annals scenario run`` prints a scenario's play: in words by default, as a judge reads a game (``annals
show``'s sentences, each card by its name and label), or as the records themselves (``--records``), field by
field, for whoever writes an expectation about an event's fields.

Every option it lists carries, in brackets, the decision line that picks it (``[p0 add_attacker card=a1]``): the
next line of a scenario is copied from what ``next:`` offers.
"""

from __future__ import annotations

import re
from typing import Any

from annals.engine.core import DecisionPoint
from annals.engine.spec import PLAYERS
from annals.engine.words import Words
from annals.schemas.text import INSTANCE_FIELDS, describe_event


def _snake(kind: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", kind).lower()


class Steps:
    """The printed lines of one scenario's play (``words`` False: the records as they are)."""

    def __init__(self, ruleset: str, names: dict[int, str], labels: dict[str, int], *, words: bool = True):
        self.names = names
        self.label_of = {iid: label for label, iid in labels.items()}
        self.words = Words(ruleset, lambda iid: names.get(iid, str(iid)), PLAYERS) if words else None

    def record(self, option: Any) -> str:
        """An option as its record reads: ``AddAttacker card=Raider[a1] target=0``."""
        fields = []
        for f in option.__struct_fields__:
            v = getattr(option, f)
            fields.append(f"{f}={self.names.get(v, v) if f in INSTANCE_FIELDS else v}")
        return " ".join([type(option).__name__, *fields])

    def line(self, option: Any, point: DecisionPoint[Any]) -> str:
        """The decision line that picks ``option`` among those offered: its kind, then as many of its fields
        (cards by label) as tell it from the other options of its kind."""
        others = [o for o in point.options if type(o) is type(option) and o is not option]
        parts = [PLAYERS[point.player], _snake(type(option).__name__)]
        for f in option.__struct_fields__:
            if not others:
                break
            v = getattr(option, f)
            if isinstance(v, (list, tuple, dict)):
                continue  # a decision line writes single values only
            word = "true" if v is True else "false" if v is False else self.label_of.get(v, str(v))
            parts.append(f"{f}={word}")
            others = [o for o in others if getattr(o, f) == v]
        return " ".join(parts)

    def option(self, option: Any, point: DecisionPoint[Any]) -> str:
        if self.words is None:
            return self.record(option)
        return f"{self.words.option(option, point.point)} [{self.line(option, point)}]"

    def decision(self, number: int, option: Any, point: DecisionPoint[Any]) -> str:
        if self.words is None:
            return f"? decision {number} ({PLAYERS[point.player]} at {point.point}): {self.record(option)}"
        return f"? decision {number} ({PLAYERS[point.player]}): {self.option(option, point)}"

    def event(self, event: Any) -> str | None:
        """An event's line, or None for one the words leave unsaid (as ``annals show`` does)."""
        if self.words is None:
            return "  " + describe_event(event, self.names)
        said = self.words.event(event)
        return None if said is None else f"  #{event.n:<4} t{event.turn:<3} {said}"

    def offered(self, point: DecisionPoint[Any], most: int = 12) -> str:
        shown = "; ".join(self.option(o, point) for o in point.options[:most])
        more = f" (and {len(point.options) - most} more)" if len(point.options) > most else ""
        return shown + more

    def next(self, point: DecisionPoint[Any], most: int = 12) -> list[str]:
        """Where play stopped: who decides what, and the options offered, one a line in words."""
        if self.words is None:
            return [f"  next: {PLAYERS[point.player]} decides {point.point!r}: {self.offered(point, most)}"]
        lines = [f"  next: {PLAYERS[point.player]}, {self.words.point(point.point)}:"]
        lines += [f"    - {self.option(o, point)}" for o in point.options[:most]]
        if len(point.options) > most:
            lines.append(f"    (and {len(point.options) - most} more)")
        return lines

    def over(self, winner: int, reason: str) -> str:
        if self.words is None:
            return f"  game over: {'winner ' + PLAYERS[winner] if winner >= 0 else 'no winner'} ({reason})"
        return f"  game over: {self.words.ending(winner, reason)}"
