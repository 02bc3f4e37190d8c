"""Errata replay: a recorded game's decisions re-run under changed card text (``annals replay --cards``).

For each log, the game is played again from its header, but with its pool changed by the given definitions
(added to, or put in place of, what the log was played with), answering every question of the rules with the
recorded decisions in order: the recorded choice *by value* (the same option), so a decision still answers the
same question when the options around it change. It tells

* whether the game still replays: every recorded decision is asked (same player, same decision point) and its
  choice is among the options now offered, and the game ends with the log's last decision; otherwise the first
  decision that became illegal (or the point where the decisions ran out, or were left over);
* the first event that differs from the log (``-1``: none), field by field as ``verify`` compares;
* whether the result changed (winner or end reason), when the re-run reached an end.

Chance is the header's seed, as in the game (R-CORE-3), so a difference is the errata's, or follows from it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import msgspec

from annals.engine.core import DecisionPoint, GameState
from annals.engine.registry import get_ruleset, ruleset_for, with_cards
from annals.engine.replay import check_pool
from annals.engine.runner import Game
from annals.schemas.carddefs import CardDefinition
from annals.schemas.header import TURN_CAP_REASON
from annals.schemas.logfile import GameLog, read_log
from annals.schemas.records import TABLE_EVENTS


class ErrataReplay(msgspec.Struct, frozen=True):
    """What one game becomes under the changed cards."""

    path: str
    game_id: str
    replays: bool  # every recorded decision still legal, none missing or left over
    first_difference: int  # the first event number that differs from the log; -1 when none does
    difference: str  # what differs there ("" when nothing does)
    illegal_decision: int  # the first recorded decision not offered any more (-1: none)
    reason: str  # why it stopped replaying ("" when it replays)
    winner: int  # the re-run's (-1: none or not reached)
    end_reason: str  # the re-run's ("" when it did not reach an end)
    result_changed: bool

    def line(self) -> str:
        head = f"{self.path}: "
        if self.replays and self.first_difference < 0:
            return head + "unchanged: replays event for event"
        parts = ["replays" if self.replays else f"no longer replays ({self.reason})"]
        if self.first_difference >= 0:
            parts.append(f"first differs at event {self.first_difference} ({self.difference})")
        if self.end_reason:
            parts.append(f"result {'changed' if self.result_changed else 'unchanged'}: "
                         f"{_result(self.winner, self.end_reason)}")  # fmt: skip
        return head + "; ".join(parts)


class ErrataSummary(msgspec.Struct, frozen=True):
    games: int
    replayed: int  # still replay
    diverged: int  # some event differs
    result_changed: int
    illegal: int  # games where a recorded decision became illegal

    def line(self) -> str:
        return (f"{self.games} games: {self.replayed} still replay, {self.diverged} diverged, {self.result_changed} "
                f"with a changed result, {self.illegal} with a decision that became illegal")  # fmt: skip


def _result(winner: int, reason: str) -> str:
    return f"{'player ' + str(winner) if winner >= 0 else 'no winner'} ({reason})"


class _Stop(Exception):
    def __init__(self, reason: str, decision: int = -1):
        self.reason, self.decision = reason, decision


class _ByValue:
    """Answers each question with the next recorded choice, if it is still offered at the same point."""

    def __init__(self, log: GameLog):
        self.decisions = log.decisions
        self.next = 0

    def choose(self, view: object, point: DecisionPoint[Any]) -> Any:
        k = self.next
        if k >= len(self.decisions):
            raise _Stop(f"the game asks {point.point!r} of player {point.player} after the log's last decision")
        d = self.decisions[k]
        if (d.player, d.point) != (point.player, point.point):
            raise _Stop(f"decision {k} was player {d.player}'s {d.point!r}; the game now asks player {point.player}'s "
                        f"{point.point!r}", k)  # fmt: skip
        chosen = d.offered[d.chosen]
        if chosen not in point.options:
            raise _Stop(f"decision {k} chose {chosen!r}, which is no longer offered", k)
        self.next = k + 1
        return chosen


def _describe(logged: Any, now: Any) -> str:
    if logged is None:
        return f"the log had ended; now {type(now).__name__}"
    if now is None:
        return f"the log has {type(logged).__name__}; the re-run ended"
    if type(logged) is not type(now):
        return f"{type(logged).__name__} became {type(now).__name__}"
    for name in logged.__struct_fields__:
        if getattr(logged, name) != getattr(now, name):
            return f"{type(logged).__name__}.{name} {getattr(logged, name)!r} became {getattr(now, name)!r}"
    return type(logged).__name__


def replay_with(log: GameLog, cards: Sequence[CardDefinition], path: str = "") -> ErrataReplay:
    """``log``'s decisions re-run with ``cards`` added to (or replacing in) the pool it was played with."""
    header = log.header
    check_pool(log, ruleset_for(header), path)  # a header naming the wrong pool would re-run by the wrong rules
    merged = {(d.section, d.id): d for d in header.cards}
    merged.update({(d.section, d.id): d for d in cards})
    extra = tuple(merged.values())
    ruleset = with_cards(get_ruleset(header.ruleset), extra)
    new_header = msgspec.structs.replace(header, cards=extra, card_pool_hash=ruleset.card_pool_hash())
    script = _ByValue(log)
    expected = log.events
    events: list[Any] = []
    first = -1  # the first event that differs from the log's

    def seen(event: Any) -> None:
        nonlocal first
        k = len(events)
        events.append(event)
        if first < 0 and (k >= len(expected) or expected[k] != event):
            first = k

    game = Game(ruleset, new_header, [script] * len(header.players), on_event=seen, views=False)
    s: GameState = game.state
    cap = header.max_turns
    reason, illegal = "", -1
    try:
        while not s.over:
            if cap and s.turn > cap:
                break
            k = len(events)
            if first < 0 and k < len(expected) and type(expected[k]) in TABLE_EVENTS:
                game.emit(expected[k])  # the table's clock and forfeits, while the game is still the log's
            else:
                game.step()
    except _Stop as stop:
        reason, illegal = stop.reason, stop.decision
    if not reason and script.next < len(log.decisions):
        reason = f"the game ends with {len(log.decisions) - script.next} recorded decision(s) left"
    if first < 0 and len(expected) != len(events):
        first = min(len(expected), len(events))
    difference = ""
    if first >= 0:
        logged = expected[first] if first < len(expected) else None
        now = events[first] if first < len(events) else None
        difference = _describe(logged, now)
    ended = s.over or (cap and s.turn > cap)
    winner, end_reason = (s.winner, s.end_reason) if s.over else (-1, TURN_CAP_REASON if ended else "")
    changed = bool(ended) and not reason and (winner, end_reason) != (log.close.winner, log.close.end_reason)
    return ErrataReplay(path, header.game_id, not reason, first, difference, illegal, reason,
                        winner if ended else -1, end_reason, changed)  # fmt: skip


def replay_logs(paths: Sequence[str | os.PathLike[str]], cards: Sequence[CardDefinition]) -> list[ErrataReplay]:
    return [replay_with(read_log(p), cards, str(p)) for p in paths]


def summarize(reports: Sequence[ErrataReplay]) -> ErrataSummary:
    return ErrataSummary(
        len(reports),
        sum(r.replays for r in reports),
        sum(r.first_difference >= 0 for r in reports),
        sum(r.result_changed for r in reports),
        sum(r.illegal_decision >= 0 for r in reports),
    )
