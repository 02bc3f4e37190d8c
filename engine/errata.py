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

A log of an earlier rules edition (a ruleset's optional ``edition_note``: Miras 9 keeps each earlier pool's
edition, ruling R-M9-45) is re-run by that edition's rules, the changed cards on that edition's pool (ruling
R-M9-61: the re-run's header names their hash over that pool, so its game is that edition's), and its line says so.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import msgspec

from annals.engine.core import DecisionPoint, State
from annals.engine.registry import ruleset_for, with_cards
from annals.engine.replay import check_pool
from annals.engine.runner import Game
from annals.engine.words import Words
from annals.schemas.carddefs import CardDefinition
from annals.schemas.header import JUDGE_REASON_PREFIX, SCENARIO_REASON, TURN_CAP_REASON
from annals.schemas.logfile import GameLog, read_log
from annals.schemas.records import TABLE_EVENTS

OUTCOMES = ("unchanged", "same_result", "result_changed", "illegal", "off_log")
"""What a game becomes under the errata, one of:

* ``unchanged``: it replays event for event;
* ``same_result``: every recorded decision is still legal and answers the same question, some event differs,
  and the game ends as it did (same winner and end reason);
* ``result_changed``: every recorded decision is still legal and answers the same question, up to an end that
  differs (another winner or end reason): *it would have ended differently*;
* ``illegal``: a recorded decision is asked (same player, same decision point) but the choice the log made there is
  not offered any more: *under the errata the game could not have been played as it was*; what it would have
  become after is unknown;
* ``off_log``: the game asks a question the log never answered at that point (another player or decision point,
  or more questions after the log's last decision): it went another way, and the log cannot say how it ends."""


class ErrataReplay(msgspec.Struct, frozen=True):
    """What one game becomes under the changed cards."""

    path: str
    game_id: str
    replays: bool  # every recorded decision still legal, none missing or left over
    first_difference: int  # the first event number that differs from the log; -1 when none does
    difference: str  # what differs there ("" when nothing does)
    illegal_decision: int  # the recorded decision whose choice is not offered any more (-1: none)
    reason: str  # why it stopped replaying ("" when it replays)
    winner: int  # the re-run's (-1: none or not reached)
    end_reason: str  # the re-run's ("" when it did not reach an end)
    result_changed: bool
    outcome: str = "unchanged"  # one of OUTCOMES
    logged_winner: int = -1  # the log's result, to say what changed
    logged_end_reason: str = ""
    illegal_at: int = -1  # the event count at which the illegal decision was asked (-1: none)
    edition: str = ""  # the log's rules edition when it is not today's, in words ("" for today's)
    ruleset: str = ""  # the game's, and its players' names: to say each end as every reader says it
    players: tuple[str, ...] = ()

    def line(self) -> str:
        head = f"{self.path}: {self.outcome.replace('_', ' ')}: "
        if self.edition:
            head += f"[{self.edition}: re-run by its own edition's rules, the changed cards on its pool] "
        differs = (
            f"first differs at event {self.first_difference} ({self.difference})" if self.first_difference >= 0 else ""
        )
        logged = self._result(self.logged_winner, self.logged_end_reason)
        if self.outcome == "unchanged":
            return head + "replays event for event"
        if self.outcome == "illegal":
            before = (
                f"; the game had already diverged: {differs}"
                if 0 <= self.first_difference < self.illegal_at
                else " (the game was the log's, event for event, until then)"
            )
            return (head + f"under the errata the game could not have been played as it was: {self.reason}{before}; "
                    f"the log ended {logged}")  # fmt: skip
        if self.outcome == "off_log":
            return (
                head + f"the game goes another way ({self.reason}); {differs}; the log ended {logged}, the re-run's "
                "end is unknown"
            )
        now = self._result(self.winner, self.end_reason)
        if self.outcome == "result_changed":
            return (
                head
                + f"it would have ended {now}, not {logged}; {differs}"
                + (f"; {self.reason}" if self.reason else "")
            )
        return head + f"{differs}; it ends as it did: {now}" + (f"; {self.reason}" if self.reason else "")

    def _result(self, winner: int, reason: str) -> str:
        """An end as every reader says it (``Words.ending``): ``Ann wins by Battle Damage``; it read ``player 0
        (battle_damage)``."""
        if not reason:
            return "without an end" if winner < 0 else f"player {winner}"
        return Words(self.ruleset, lambda _card: "", list(self.players)).ending(winner, reason)


class ErrataSummary(msgspec.Struct, frozen=True):
    """Over many games: how many became each outcome (they add up to ``games``); ``diverged`` is every game but the
    unchanged ones."""

    games: int
    unchanged: int
    diverged: int
    same_result: int
    result_changed: int
    illegal: int
    off_log: int
    earlier_edition: int = 0  # games of an earlier rules edition, each re-run by its own (ruling R-M9-61)

    def line(self) -> str:
        editions = (f"; {self.earlier_edition} of them of an earlier rules edition, each re-run by its own"
                    if self.earlier_edition else "")  # fmt: skip
        return (f"{self.games} games: {self.unchanged} unchanged, {self.diverged} diverged: {self.same_result} ending "
                f"as they did, {self.result_changed} that would have ended differently, {self.illegal} that could "
                f"not have been played as they were (a recorded decision became illegal), {self.off_log} that went "
                f"another way the log cannot follow{editions}")  # fmt: skip


class _Stop(Exception):
    def __init__(self, outcome: str, reason: str, decision: int = -1, at: int = -1):
        self.outcome, self.reason, self.decision, self.at = outcome, reason, decision, at


class _LogEnd(Exception):
    """A log stopped before the game's end (``_ByValue.partial``) has no more decisions: the re-run stops there."""


class _ByValue:
    """Answers each question with the next recorded choice, if it is still offered at the same point."""

    def __init__(self, log: GameLog):
        self.decisions = log.decisions
        self.next = 0
        self.state: State | None = None
        # a log stopped before the game's end (a judge ended it, a scenario's decisions ran out): it is followed
        # as far as it goes, and the game's questions after its last decision are where it stops
        reason = log.close.end_reason
        self.partial = reason.startswith(JUDGE_REASON_PREFIX) or (reason == SCENARIO_REASON and log.header.sandbox)

    def choose(self, view: object, point: DecisionPoint[Any]) -> Any:
        k = self.next
        if k >= len(self.decisions) and self.partial:
            raise _LogEnd
        if k >= len(self.decisions):
            raise _Stop("off_log", f"the game asks {point.point!r} of player {point.player} after the log's last "
                        "decision")  # fmt: skip
        d = self.decisions[k]
        if (d.player, d.point) != (point.player, point.point):
            raise _Stop("off_log", f"decision {k} was player {d.player}'s {d.point!r}; the game now asks player "
                        f"{point.player}'s {point.point!r}")  # fmt: skip
        chosen = d.offered[d.chosen]
        if chosen not in point.options:
            at = self.state.n if self.state is not None else -1
            raise _Stop("illegal", f"decision {k} (player {d.player} at {d.point!r}) chose {chosen!r}, which is no "
                        "longer offered", k, at)  # fmt: skip
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


def errata_header(log: GameLog, cards: Sequence[CardDefinition]) -> tuple[Any, Any]:
    """The ruleset and header ``log``'s game is re-run with under ``cards``: ``cards`` added to (or put in place
    in) the cards it was played with, on the pool it was played with (for a log of an earlier edition, that
    edition's: the header then names their hash over that pool, so the re-run keeps the edition, ruling R-M9-61)."""
    header = log.header
    played = ruleset_for(header)
    merged = {(d.section, d.id): d for d in header.cards}
    merged.update({(d.section, d.id): d for d in cards})
    extra = tuple(merged.values())
    ruleset = with_cards(played, extra)
    return ruleset, msgspec.structs.replace(header, cards=extra, card_pool_hash=ruleset.card_pool_hash())


def replay_with(log: GameLog, cards: Sequence[CardDefinition], path: str = "") -> ErrataReplay:
    """``log``'s decisions re-run with ``cards`` added to (or replacing in) the pool it was played with, by the
    rules edition it was played by."""
    header = log.header
    played = ruleset_for(header)
    check_pool(log, played, path)  # a header naming the wrong pool would re-run by the wrong rules
    note = getattr(played, "edition_note", None)
    edition: str = note(header) if note is not None else ""
    ruleset, new_header = errata_header(log, cards)
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
    s: State = game.state
    script.state = s
    cap = header.max_turns
    reason, illegal, illegal_at, stopped, log_end = "", -1, -1, "", False
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
        reason, illegal, illegal_at, stopped = stop.reason, stop.decision, stop.at, stop.outcome
    except _LogEnd:
        log_end = True
    if not reason and script.next < len(log.decisions):
        reason = f"the game ends with {len(log.decisions) - script.next} recorded decision(s) left"
    if first < 0 and len(expected) != len(events):
        first = min(len(expected), len(events))
    difference = ""
    if first >= 0:
        logged = expected[first] if first < len(expected) else None
        now = events[first] if first < len(events) else None
        difference = _describe(logged, now)
    ended = bool(s.over or (cap and s.turn > cap)) and not stopped
    winner, end_reason = (s.winner, s.end_reason) if s.over else (-1, TURN_CAP_REASON if ended else "")
    logged = (log.close.winner, log.close.end_reason)
    if log_end:  # stopped where the log stops, as the log did
        winner, end_reason = logged
    changed = ended and (winner, end_reason) != logged  # an end reached with every recorded decision legal
    if stopped:
        outcome = stopped
    elif changed:
        outcome = "result_changed"
    else:
        outcome = "same_result" if first >= 0 else "unchanged"
    return ErrataReplay(path, header.game_id, not reason, first, difference, illegal, reason,
                        winner if ended else -1, end_reason, changed, outcome, *logged, illegal_at,
                        edition, header.ruleset, tuple(p.name for p in header.players))  # fmt: skip


def replay_logs(paths: Sequence[str | os.PathLike[str]], cards: Sequence[CardDefinition]) -> list[ErrataReplay]:
    return [replay_with(read_log(p), cards, str(p)) for p in paths]


def summarize(reports: Sequence[ErrataReplay]) -> ErrataSummary:
    count = {name: sum(r.outcome == name for r in reports) for name in OUTCOMES}
    return ErrataSummary(len(reports), count["unchanged"], len(reports) - count["unchanged"], count["same_result"],
                         count["result_changed"], count["illegal"], count["off_log"],
                         sum(bool(r.edition) for r in reports))  # fmt: skip
