"""Re-running a log: its header and recorded decisions must reproduce its events exactly.

``verify`` in the CLI uses ``rerun``; a mismatch names the first event (or decision) that differs. ``fold``
rebuilds the state at any event by applying the reducer alone, without the rules.
"""

from __future__ import annotations

from typing import Any

import msgspec

from annals.engine.agents import ScriptedAgent
from annals.engine.core import GameState
from annals.engine.registry import get_ruleset
from annals.engine.runner import Game
from annals.schemas.errors import AnnalsError
from annals.schemas.judge import Intervention
from annals.schemas.logfile import AbandonedBranch, GameLog
from annals.schemas.records import TABLE_EVENTS, Decision


class ReplayReport(msgspec.Struct, frozen=True):
    ok: bool
    events_checked: int
    first_difference: int = -1  # event number of the first difference, or -1
    expected: str = ""
    actual: str = ""
    reason: str = ""


class _Diverged(Exception):
    def __init__(self, n: int, expected: Any, actual: Any):
        self.n, self.expected, self.actual = n, expected, actual


def _decisions_by_player(decisions: list[Decision[Any]], players: int) -> list[ScriptedAgent]:
    return [ScriptedAgent([d for d in decisions if d.player == p]) for p in range(players)]


def rerun(log: GameLog) -> ReplayReport:
    """Play the log's game again from its header and decisions; compare every event as it is emitted."""
    ruleset = get_ruleset(log.header.ruleset)
    expected = log.events
    checked = 0

    def compare(event: Any) -> None:
        nonlocal checked
        n = checked
        want = expected[n] if n < len(expected) else None
        if event != want:
            raise _Diverged(n, want, event)
        checked += 1

    agents = _decisions_by_player(log.decisions, len(log.header.players))
    try:
        game = Game(ruleset, log.header, agents, on_event=compare, views=False)
        while not game.state.over and checked < len(expected):
            if type(expected[checked]) in TABLE_EVENTS:  # the clock and forfeits come from the table, not the rules
                game.emit(expected[checked])
            else:
                game.step()
            game.take_batch()
    except _Diverged as d:
        return ReplayReport(False, d.n, d.n, repr(d.expected), repr(d.actual), "event differs")
    except AnnalsError as exc:
        return ReplayReport(False, checked, checked, "", "", str(exc))
    if checked != len(expected):
        return ReplayReport(False, checked, checked, repr(expected[checked]), "", "engine stopped early")
    return ReplayReport(True, checked)


def fold(log: GameLog, upto: int | None = None) -> GameState:
    """The state after applying events ``[0, upto)`` (all of them by default) with the reducer alone."""
    ruleset = get_ruleset(log.header.ruleset)
    state: GameState = ruleset.new_state(log.header)
    for event in log.events[: upto if upto is not None else len(log.events)]:
        ruleset.apply(state, event)
    return state


class BranchReport(msgspec.Struct, frozen=True):
    """A branch a judge's backup abandoned, re-run from the header to its end."""

    backup: Intervention
    report: ReplayReport
    events: int
    decisions: int
    finished: bool  # the branch reached a closing record before the backup
    shared: str = ""  # "" when the game after the backup starts with this branch's kept part; else what differs


def _shared_problem(branch: AbandonedBranch, after_events: list[Any], after_decisions: list[Any]) -> str:
    k, d = branch.backup.events, branch.backup.to_decision
    if branch.events[:k] != after_events[:k]:
        n = next(i for i, (a, b) in enumerate(zip(branch.events[:k], after_events[:k], strict=False)) if a != b)
        return f"event {n} before the backup differs between the abandoned branch and the game after it"
    if branch.decisions[:d] != after_decisions[:d]:
        return f"the {d} decisions before the backup differ between the abandoned branch and the game after it"
    return ""


def rerun_branches(log: GameLog) -> list[BranchReport]:
    """Re-run every abandoned branch up to its end, and check that the game after each backup starts with the
    part of the branch the backup kept (no earlier event was changed on the way)."""
    reports = []
    for i, branch in enumerate(log.branches):
        nxt = log.branches[i + 1] if i + 1 < len(log.branches) else None
        after_events, after_decisions = (nxt.events, nxt.decisions) if nxt is not None else (log.events, log.decisions)
        replay = GameLog(log.header, branch.events, branch.decisions, log.close, log.digest)
        reports.append(
            BranchReport(
                branch.backup,
                rerun(replay),
                len(branch.events),
                len(branch.decisions),
                branch.close is not None,
                _shared_problem(branch, after_events, after_decisions),
            )
        )
    return reports
