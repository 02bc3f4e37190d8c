"""Hidden information is a view: a whole log as one player, or a spectator, may see it.

Logs are omniscient. A view passes every event through the ruleset's ``redact`` (the opponent's hand, deck order
and face-down cards become unknown) and keeps only the viewer's own decisions in full: of anyone else's it keeps
who decided and at which point, not the options offered (they can list hidden cards) nor the choice.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from annals.engine.core import Position, Ruleset, State
from annals.engine.names import VIEW_ALIASES, view_named
from annals.engine.names import VIEWERS as VIEWERS  # defined there, light, for the command line
from annals.engine.registry import get_ruleset
from annals.schemas.errors import UnknownNameError
from annals.schemas.header import LogHeader
from annals.schemas.logfile import GameLog
from annals.schemas.records import CARDS_PER_PLAYER, LEADER_INDEX, TOKEN_BASE, Decision, instance_owner
from annals.schemas.text import card_names


class UnknownViewError(UnknownNameError, ValueError):
    """A view name that is not one of ``VIEWERS``."""


def viewer_of(view: str) -> int | None:
    """The viewer a view name stands for (``p0``/``p1`` as aliases of ``player0``/``player1``)."""
    named = view_named(view)
    if named not in VIEWERS:
        raise UnknownViewError("view", view, [*VIEWERS, *VIEW_ALIASES])
    return VIEWERS[named]


def hidden_decision(decision: Decision[Any]) -> Decision[Any]:
    return Decision(decision.n, decision.at, decision.player, decision.point, [], -1)


def view_log(game: GameLog, viewer: int | None) -> GameLog:
    """The log as ``viewer`` sees it (``None``: omniscient, ``-1``: a spectator, else a player index)."""
    if viewer is None:
        return game
    redact = get_ruleset(game.header.ruleset).redact
    events = [redact(event, viewer) for event in game.events]
    decisions = [d if d.player == viewer else hidden_decision(d) for d in game.decisions]
    # Judges' records are public; abandoned branches hold hidden cards like the game does, and are left out.
    return GameLog(game.header, events, decisions, game.close, game.digest, game.judged)


def view_state(ruleset: Ruleset[Any], header: LogHeader, events: Iterable[Any], viewer: int) -> State:
    """The state as ``viewer`` knows it: the reducer folded over the events as ``redact`` shows them (hidden cards
    are placeholders, below 1000). This is all a player's client or bot is given."""
    state: State = ruleset.new_state(header)
    redact, apply = ruleset.redact, ruleset.apply
    for event in events:
        apply(state, redact(event, viewer))
    return state


def visible_position(ruleset: Ruleset[Any], state: State) -> Position:
    """``Ruleset.position`` of a view's state without its placeholders (cards the viewer cannot identify) and
    without counters at 0."""
    position = ruleset.position(state)
    cards = {c: zone for c, zone in position.cards.items() if c > 0}
    return Position(cards, {k: v for k, v in position.counters.items() if v})


_NEVER_AN_INSTANCE = (str, bool, float)


def _instance_fields(kind: type[Any]) -> tuple[str, ...]:
    """The fields past the envelope (n, turn, step, player) that can hold an instance: not those declared as
    text, a flag or a fraction."""
    return tuple(f.name for f in msgspec.structs.fields(kind)[4:] if f.type not in _NEVER_AN_INSTANCE)


_FIELDS: dict[type[Any], tuple[str, ...]] = {}
_last: tuple[Any, list[int]] = (None, [])  # the last event asked about: every seat's view asks of the same one


def instances_in(event: Any) -> list[int]:
    """Every card instance an event names (an int, or a list of ints, in the deck instances' range). The list
    is shared with the next caller asking of the same event: read it, never change it."""
    global _last
    last = _last
    if last[0] is event:
        return last[1]
    kind = type(event)
    fields = _FIELDS.get(kind)
    if fields is None:
        fields = _FIELDS[kind] = _instance_fields(kind)
    out: list[int] = []
    for name in fields:
        v = getattr(event, name)
        if type(v) is int:
            if CARDS_PER_PLAYER <= v < TOKEN_BASE:
                out.append(v)
        elif type(v) is list:
            out.extend(c for c in v if type(c) is int and CARDS_PER_PLAYER <= c < TOKEN_BASE)
    _last = (event, out)
    return out


def _whole(event: Any, viewer: int) -> Any:
    return event


class SeatView:
    """One seat's running view of a game: what a player's client, bot or spectator is given, never more.

    ``state`` is the reducer folded over the events as ``redact`` shows them to ``viewer``; card ids are blanked
    (``Ruleset.set_card_id``) for every instance the viewer has not seen, and filled in the moment an event
    shows the instance. ``known`` maps each instance the viewer can identify to its card id: its own deck, both
    leaders (face-up from the start), and every card an event has shown it.

    A game continued from a position file (``header.start_position``) is the exception: that state is the whole
    position as written, so its seats see the whole game (``annals continue`` is a tool for studying a position,
    not a contest).
    """

    def __init__(self, ruleset: Ruleset[Any], header: LogHeader, viewer: int):
        self.ruleset = ruleset
        self.viewer = viewer
        self.state: State = ruleset.new_state(header)
        self._ids = card_names(header)
        self.known: dict[int, str] = {
            c: cid
            for c, cid in self._ids.items()
            if instance_owner(c) == viewer or c % CARDS_PER_PLAYER == LEADER_INDEX
        }
        self._redact, self._apply = ruleset.redact, ruleset.apply
        if header.start_position:
            self.known = dict(self._ids)
            self._redact = _whole
        for c in self._ids:
            if c not in self.known:
                ruleset.set_card_id(self.state, c, "")

    def feed(self, event: Any) -> tuple[Any, dict[int, str]]:
        """Fold one omniscient event into the view: returns the event as the viewer sees it and the card ids
        of the instances it shows for the first time."""
        seen = self._redact(event, self.viewer)
        new: dict[int, str] = {}
        for c in instances_in(seen):
            if c not in self.known and c in self._ids:
                new[c] = self.known[c] = self._ids[c]
                self.ruleset.set_card_id(self.state, c, new[c])
        self._apply(self.state, seen)
        return seen, new
