"""Stop anywhere, go on identically: a real game's position at a coordinate, written as a scenario spec
(``to_spec``), read back (``from_spec``) and played on with the game's own later decisions must give the rest of
the game's log event for event.

A rebuilt position numbers its card instances afresh (in the order the spec writes them), so events are compared
with every instance of the original translated to the rebuilt one: labelled cards by their label, deck cards by
their place in the deck, tokens made later by the offset of the token counter.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from annals.engine.core import DecisionPoint
from annals.engine.registry import get_ruleset
from annals.engine.replay import fold
from annals.engine.runner import Game, drive
from annals.engine.spec import Built
from annals.queries.positions.stops import stops as game_stops
from annals.queries.workbench.scenario import scenario_header
from annals.schemas.logfile import GameLog
from annals.schemas.records import CARDS_PER_PLAYER, TOKEN_BASE


class Diverged(AssertionError):
    """The rebuilt position did not go on as the game did."""


def _label(iid: int) -> str:
    """The label ``to_spec`` gives: ``a``/``b`` and the instance's index + 1, ``t`` and a token's number + 1."""
    if iid >= TOKEN_BASE:
        return f"t{iid - TOKEN_BASE + 1}"
    return f"{'ab'[iid // CARDS_PER_PLAYER - 1]}{iid % CARDS_PER_PLAYER + 1}"


def renumbering(real: Any, built: Built) -> Callable[[int], int]:
    """Original instance -> rebuilt instance (identity for what is no instance)."""
    mine = built.state
    table: dict[int, int] = {}
    labels = built.labels
    if hasattr(real, "players"):  # Miras 9
        for p in (0, 1):
            table.update(zip(real.players[p].deck, mine.players[p].deck, strict=True))
        table.update((iid, labels[_label(iid)]) for iid in real.cards if _label(iid) in labels)
        offset: int = mine.next_token - real.next_token
    else:  # MORANA
        for p in (0, 1):
            table.update(zip(real.deck[p], mine.deck[p], strict=True))
            for i in range(len(real.ids[p])):
                iid = CARDS_PER_PLAYER * (p + 1) + i
                if _label(iid) in labels:
                    table[iid] = labels[_label(iid)]
        offset = 0
    for iid in (1999, 2999):  # the leaders keep their instances
        table.setdefault(iid, iid)

    def new(value: int) -> int:
        if value < CARDS_PER_PLAYER:
            return value
        if value >= TOKEN_BASE and value not in table:
            return value + offset  # a token made after the stop
        return table.get(value, value)

    return new


def _translated(value: Any, new: Callable[[int], int]) -> Any:
    if type(value) is int:
        return new(value)
    if isinstance(value, list | tuple):
        return [_translated(v, new) for v in value]
    if isinstance(value, msgspec.Struct):
        fields = {f: _translated(getattr(value, f), new) for f in value.__struct_fields__ if f != "n"}
        return msgspec.structs.replace(value, **fields)
    return value


def _key(event: Any) -> tuple[Any, ...]:
    return (type(event).__name__, *(getattr(event, f) for f in event.__struct_fields__ if f != "n"))


class _Script:
    """Answers each question with the game's own choice there, translated; refuses to go off the log."""

    def __init__(self, decisions: list[Any], new: Callable[[int], int]):
        self.decisions, self.new, self.i = decisions, new, 0

    def choose(self, view: object, point: DecisionPoint[Any]) -> Any:
        if self.i >= len(self.decisions):
            raise Diverged(f"asked {point.point!r} after the game's last decision")
        d = self.decisions[self.i]
        self.i += 1
        want = _translated(d.offered[d.chosen], self.new)
        if (point.player, point.point) != (d.player, d.point) or want not in point.options:
            asked = f"p{point.player} {point.point!r} with {len(point.options)} options"
            raise Diverged(f"decision {d.n}: the game asked p{d.player} {d.point!r} for {want!r}; rebuilt: {asked}")
        return want


def resume_matches(log: GameLog, count: int, builder: Any) -> int:
    """Rebuild the position after ``count`` events through a spec, play on with the log's decisions, and raise
    ``Diverged`` naming the first difference; the number of events compared otherwise. ``SpecError`` (from
    ``to_spec``) when the position is one a spec cannot hold."""
    ruleset = get_ruleset(log.header.ruleset)
    real = fold(log, count)
    built: Built = builder.from_spec(builder.to_spec(real))
    new = renumbering(real, built)
    later = [d for d in log.decisions if d.at >= count]
    script = _Script(later, new)
    header = msgspec.structs.replace(scenario_header(ruleset, built), max_turns=log.header.max_turns)
    mine: list[Any] = []
    game = Game(ruleset, header, [script, script], state=built.state, views=False, on_event=mine.append)
    drive(game, None)
    theirs = [_translated(e, new) for e in log.events[count:]]
    for i, (a, b) in enumerate(zip(mine, theirs, strict=False)):
        if _key(a) != _key(b):
            raise Diverged(f"after event {count}: event {count + i} is {b!r} in the game, {a!r} rebuilt")
    if len(mine) != len(theirs):
        raise Diverged(f"after event {count}: the game has {len(theirs)} events more, the rebuilt one {len(mine)}")
    if script.i != len(later):
        raise Diverged(f"after event {count}: {len(later) - script.i} of the game's decisions were never asked")
    return len(mine)


def stops(log: GameLog) -> list[int]:
    """The coordinates (event counts) where a game stops (``queries.positions.stops``): between two moves of the rules,
    and at the boundaries a state holds inside one (MORANA's Dawn, Dusk and Rite; Miras 9's turn, Awaken phase and
    the wave steps whose window opens next)."""
    return game_stops(log)
