"""Plays one game with agents and writes its log: the only loop that drives a ruleset.

The loop asks the ruleset for the next decision point; with none it lets the rules proceed, otherwise it asks
the deciding player's agent (handing it that player's view, ``engine.views.SeatView``, never the state), checks
the choice is one of the options offered (``IllegalDecisionError`` otherwise, with the state untouched), records
the decision and lets the rules act on it. Events reach the state only through ``emit``, which applies the
reducer, folds each seat's view and buffers the event for the next frame.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any, Final

import msgspec

from annals.engine.core import Agent, DecisionPoint, Reducer, Ruleset, State
from annals.engine.errors import StalledGameError as StalledGameError
from annals.engine.rng import Rng
from annals.engine.structs import GameResult as GameResult
from annals.engine.views import SeatView
from annals.schemas.errors import IllegalDecisionError
from annals.schemas.files import FileSystemError, os_error
from annals.schemas.header import TURN_CAP_REASON as TURN_CAP_REASON
from annals.schemas.header import LogClose, LogHeader, game_id_of
from annals.schemas.logfile import GROUP_BYTES, LogWriter
from annals.schemas.records import Decision

# A frame holds whole turns: it closes at the first new turn once it has FRAME_EVENTS events (or at
# MAX_FRAME_EVENTS whatever the turn). Per-frame costs (header, CRC, digest) are then a few percent of encoding:
# one frame per Miras 9 turn (~30 events) made the log writer cost 2x its encoding.
FRAME_EVENTS: Final = 256  # Final: compiled, a constant, not a lookup in the module's globals each decision
MAX_FRAME_EVENTS: Final = 4096
_DECISION: Final = Decision  # a C static compiled, where the imported name is a lookup in the module's dict


def stalled_error(state: State) -> StalledGameError:
    """The error of a game whose rules emitted nothing with no decision pending (``Game.step``, ``drive``)."""
    return StalledGameError(
        f"the rules have nothing to do at step {state.step!r} of turn {state.turn} and no "
        "decision is pending (a position saved in the middle of an action?)"
    )


def _illegal(point: DecisionPoint[Any], choice: Any) -> IllegalDecisionError:
    return IllegalDecisionError(
        f"player {point.player} chose {choice!r} at {point.point!r}, which is not one of the "
        f"{len(point.options)} legal options; choose one of those offered"
    )


def finalize_header(header: LogHeader) -> LogHeader:
    return header if header.game_id else msgspec.structs.replace(header, game_id=game_id_of(header))


class Game:
    """One game in progress: the state, its generator, the agents, and the buffered log output."""

    def __init__(
        self,
        ruleset: Ruleset[Any],
        header: LogHeader,
        agents: Sequence[Agent],
        *,
        state: State | None = None,
        rng: Rng | None = None,
        on_event: Callable[[Any], None] | None = None,
        views: bool = True,
    ):
        self.ruleset = ruleset
        self.header = finalize_header(header)
        self.agents = agents
        self.state = state if state is not None else ruleset.new_state(self.header)
        self.rng = rng if rng is not None else Rng(self.header.seed)
        self.events: list[Any] = []
        self.decisions: list[Decision[Any]] = []
        self.decision_count = 0
        # Each seat's view, folded as events happen: what its agent is given. Not folded for an agent that says it
        # reads none (``reads_view = False``: the random bot) nor with ``views=False`` (a re-run's scripted agents);
        # those get None.
        self._seat_views: list[SeatView | None] = [
            SeatView(ruleset, self.header, p) if views and getattr(agent, "reads_view", True) else None
            for p, agent in enumerate(agents)
        ]
        self.views = [view for view in self._seat_views if view is not None]
        self._on_event = on_event
        self._apply = ruleset.apply
        self._pending = ruleset.pending
        self._advance = ruleset.advance
        # ``emit``: with nothing but the state to fold the events into (no seat view, no ``on_event``) and a
        # ``Reducer``'s ``apply``, one call that applies and records into ``events`` (``Reducer.recorder``, bound
        # anew to each new ``events`` list by ``take_batch``); else ``_emit``. The state is this game's for good.
        reducer = getattr(self._apply, "__self__", None)
        self._recorder = reducer.recorder if isinstance(reducer, Reducer) and not self.views else None
        self.emit: Callable[[Any], None] = self._emit
        self._bind_emit()

    def set_on_event(self, on_event: Callable[[Any], None] | None) -> None:
        """Call ``on_event`` with each event from now on, after the state has it (a table's seats, say)."""
        self._on_event = on_event
        self._bind_emit()

    def _bind_emit(self) -> None:
        recorder = self._recorder if self._on_event is None else None
        self.emit = self._emit if recorder is None else recorder(self.state, self.events)

    def _emit(self, event: Any) -> None:
        self._apply(self.state, event)
        self.events.append(event)
        for view in self.views:
            view.feed(event)
        if self._on_event is not None:
            self._on_event(event)

    def step(self) -> None:
        """One move of the game: an automatic advance, or one decision and its consequences."""
        state = self.state
        point = self._pending(state)
        if point is None:
            before = state.n
            self._advance(state, None, self.emit, self.rng)
            if state.n == before:  # no event, so no change: the next step would be this one again, forever
                raise stalled_error(state)
            return
        view = self._seat_views[point.player] if self._seat_views else None
        self.answer(point, self.agents[point.player].choose(view.state if view is not None else None, point))

    def answer(self, point: DecisionPoint[Any], choice: Any, *, automatic: bool = False) -> None:
        """Record ``choice`` at ``point`` (one of its options, else ``IllegalDecisionError``, the state untouched)
        and let the rules act on it; ``automatic``: the table answered it for the seat (``engine.forced``)."""
        offered = list(point.options)
        try:
            chosen = offered.index(choice)
        except ValueError:
            raise _illegal(point, choice) from None
        state = self.state
        decision = Decision(self.decision_count, state.n, point.player, point.point, offered, chosen, automatic)
        self.decisions.append(decision)
        self.decision_count += 1
        self._advance(state, choice, self.emit, self.rng)

    def take_batch(self) -> tuple[list[Any], list[Decision[Any]]]:
        batch = self.events, self.decisions
        self.events, self.decisions = [], []
        self._bind_emit()  # a caller may hold on to the batch's list: the next events go to the new one
        return batch


def play(
    ruleset: Ruleset[Any],
    header: LogHeader,
    agents: Sequence[Agent],
    out: str | os.PathLike[str] | None = None,
    *,
    state: State | None = None,
    rng: Rng | None = None,
    live: bool = False,
    overwrite: bool = False,
) -> GameResult:
    """Play to the end (or the header's turn cap), writing the log to ``out`` when given.

    ``live`` (a game recorded as people play it): every decision closes a frame and reaches the file at once,
    so a crash loses nothing that was decided. An existing file at ``out`` is never replaced (``FileExistsError``)
    unless ``overwrite``.
    """
    game = Game(ruleset, header, agents, state=state, rng=rng)
    writer = (
        None
        if out is None
        else LogWriter(out, game.header, group_bytes=0 if live else GROUP_BYTES, overwrite=overwrite)
    )
    return drive(game, writer, live=live)


def drive(
    game: Game, writer: LogWriter | None, *, live: bool = False, events: int = 0, decisions: int = 0
) -> GameResult:
    """Play ``game`` to its end (or the header's turn cap), writing its frames and closing record to ``writer``.

    ``events`` and ``decisions`` count what the log holds already (a game resumed after a judge's backup or a
    crash), so that the closing record counts the whole game."""
    total_events, total_decisions = events, decisions
    frame_turn = game.state.turn
    cap = game.header.max_turns
    s = game.state
    # ``Game.step`` and ``Game.answer`` written out: this loop runs once per decision and per automatic advance, and
    # the two calls it saves per decision are 4% of a random Miras 9 game's Python calls. Same order, same checks.
    # The agents' bound ``choose`` and the views' states are looked up once, not per decision; a list of options
    # is recorded as it is (a ruleset builds a fresh one per decision point, or offers a constant no one changes).
    pending, advance, rng = game._pending, game._advance, game.rng
    seat_views = game._seat_views
    choosers = [agent.choose for agent in game.agents]
    viewed = any(view is not None for view in seat_views)
    emit, decided = game.emit, game.decisions  # appended to directly: compiled, a list append, not a call
    try:
        while not s.over:
            if cap and s.turn > cap:
                break
            point = pending(s)
            if point is None:
                before = s.n
                advance(s, None, emit, rng)
                if s.n == before:
                    raise stalled_error(s)
            else:
                player = point.player
                view = seat_views[player] if viewed else None
                choice = choosers[player](view.state if view is not None else None, point)
                offered = point.options
                if type(offered) is not list:
                    offered = list(offered)
                try:
                    index = offered.index(choice)
                except ValueError:
                    raise _illegal(point, choice) from None
                count = game.decision_count
                decided.append(_DECISION(count, s.n, player, point.point, offered, index))
                game.decision_count = count + 1
                advance(s, choice, emit, rng)
            if writer is not None and (
                (len(game.events) >= FRAME_EVENTS and (s.turn != frame_turn or len(game.events) >= MAX_FRAME_EVENTS))
                or (live and game.decisions)
            ):
                batch, chosen = game.take_batch()
                emit, decided = game.emit, game.decisions  # bound to the new lists
                writer.write_batch(batch, chosen)
                total_events += len(batch)
                total_decisions += len(chosen)
                frame_turn = s.turn
        batch, chosen = game.take_batch()
        total_events += len(batch)
        total_decisions += len(chosen)
        winner, reason = (s.winner, s.end_reason) if s.over else (-1, TURN_CAP_REASON)
        close = LogClose(winner, reason, total_events, total_decisions, s.turn)
        digest = ""
        if writer is not None:
            if batch or chosen:
                writer.write_batch(batch, chosen)
            writer.close(close)
            digest = writer.digest
    except BaseException as exc:
        if writer is not None:  # keep every event that happened: the log reads as a truncated game
            kept = writer.abandon(*game.take_batch())
            if not kept and isinstance(exc, OSError):
                if exc.filename is None:  # a short write names no file: this log is the one
                    exc.filename = os.fspath(writer.path)
                error = os_error(exc, "write the log")
                raise FileSystemError(f"{error}; nothing of the game could be written, so it was removed") from None
        raise
    seats = [f"{p.agent}/{d.name}" for p, d in zip(game.header.players, game.header.decks, strict=True)]
    path = "" if writer is None else os.fspath(writer.path)
    return GameResult(game.header.game_id, winner, reason, total_events, total_decisions, s.turn, digest, seats, path)
