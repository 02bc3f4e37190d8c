"""A live table: one game played by seats that answer when they like, recorded live, with a chess clock.

The server, the local ``annals play`` and the JSON-lines seats all drive a game through ``LiveTable``:

* ``question()`` lets the rules run until a seat must decide (or the game ends) and returns the decision point;
  everything up to it is already on disk, so each decision is written before the next question is asked;
* ``answer(index)`` charges the seat's time bank (a ``ClockCharged`` event), records the choice and lets the
  rules act on it; a bad index raises ``IllegalDecisionError`` and changes nothing;
* ``forfeit(seat, reason)`` ends the game outside the rules (``Forfeited``: ``"time"`` or ``"concession"``);
* ``expired()`` says whether the seat being asked has run out of time (the caller then forfeits it);
* ``no_show(absent)`` ends a game never begun: the seats that did not sit down lose (``Forfeited``, ``"no-show"``);
* ``award(record)`` writes a judge's extra time between the game's frames and adds it to the banks (R-CORE-7).

``listeners`` get every omniscient event as it happens (the server turns them into each seat's view).

A table is rebuilt from its live log (``LiveTable.resume``) after a crash: the decisions and table events read
back are re-run through the rules (as ``annals verify`` does), each seat's time bank is set to what the log last
recorded for it, plus any extra time a judge awarded after that (``recorded_clocks``), and the game goes on
from the same question, appending to the same log (``LogWriter.reopen``): a judge's frames, abandoned branches and
signatures already in it stay as they are. A torn last frame (a write cut by a power loss) is moved aside to
``LOG.torn-OFFSET`` before appending.

The time a question has been open is kept beside the log while a person is being asked (``note_open`` writes
``LOG.open``: the decision, the seat, the milliseconds it has waited so far; the server renews it every second or
so; each write fsynced, the log first). A resumed table (``resume`` here, ``judge.resume_table`` for ``annals
resume``: both through ``charge_open``) charges that seat what the file last said, as a ``ClockCharged`` written
before the question is asked again: the time the question was open before the crash counts, the time the server
was down does not (R-CORE-6).
"""

from __future__ import annotations

import os
import time
from bisect import bisect_right
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from annals.engine.agents import ScriptedAgent
from annals.engine.core import DecisionPoint, Ruleset
from annals.engine.registry import get_ruleset
from annals.engine.runner import TURN_CAP_REASON, Game, finalize_header
from annals.schemas.errors import AnnalsError, IllegalDecisionError, TruncatedLogError
from annals.schemas.header import LogClose, LogHeader
from annals.schemas.judge import Intervention
from annals.schemas.logfile import LogReader, LogWriter
from annals.schemas.records import NO_SHOW_REASON, TABLE_EVENTS, ClockCharged, Decision, Forfeited

MINUTE_MS = 60_000


class ResumeError(AnnalsError, ValueError):
    """A live log that cannot be continued: closed already, or its decisions do not re-run."""


class OpenQuestion(msgspec.Struct, frozen=True):
    """``LOG.open``: the question being asked of a person, and how long it had waited when last written."""

    decision: int
    player: int
    open_ms: int


def open_path(log: str | os.PathLike[str]) -> Path:
    return Path(f"{os.fspath(log)}.open")


def read_open(log: str | os.PathLike[str]) -> OpenQuestion | None:
    """The open question a server left beside ``log`` (None if none, or unreadable: then nothing is charged)."""
    try:
        return msgspec.json.decode(open_path(log).read_bytes(), type=OpenQuestion)
    except (OSError, msgspec.DecodeError):
        return None


def charge_open(
    ruleset: Ruleset[Any], game: Game, path: str | os.PathLike[str], bank_ms: int, clock: list[int]
) -> bool:
    """R-CORE-6 for a game re-run from its live log ``path`` (the server's crash resume and ``annals resume``
    alike): if ``LOG.open`` says the question now pending was open for a while before the crash, that seat is
    charged it (``clock`` updated, a ``ClockCharged`` emitted into ``game``, to be written by the caller before
    it removes the file). True if a charge was made. Nothing without a clock, or when the file is of another
    question (a judge's backup since, or a decision taken after it was written)."""
    mark = read_open(path)
    s = game.state
    if not bank_ms or mark is None or s.over:
        return False
    point = ruleset.pending(s)
    if point is None or (mark.decision, mark.player) != (game.decision_count, point.player):
        return False
    spent = min(max(mark.open_ms, 0), clock[point.player])  # the time it was open before the crash
    clock[point.player] -= spent
    game.emit(ClockCharged(s.n, s.turn, s.step, point.player, spent, clock[point.player]))
    return True


def with_decisions(events: list[Any], decisions: list[Decision[Any]]) -> list[tuple[Any, int]]:
    """Each event with the number of decisions taken before it."""
    ats = [d.at for d in decisions]
    return [(e, bisect_right(ats, e.n)) for e in events]


def read_prefix(path: str | os.PathLike[str]) -> tuple[LogHeader, list[Any], list[Decision[Any]], LogClose | None]:
    """Everything intact in a log written live: a crash leaves whole frames and a torn tail at most."""
    header, events, decisions, close, _ = read_live(path)
    return header, events, decisions, close


def read_live(
    path: str | os.PathLike[str],
) -> tuple[LogHeader, list[Any], list[Decision[Any]], LogClose | None, list[Any]]:
    """``read_prefix`` and the log's clock trail (``clock_trail``)."""
    events: list[Any] = []
    decisions: list[Decision[Any]] = []
    batches = []
    with LogReader(path) as reader:
        try:
            for batch in reader.batches():
                batches.append(batch)
                events.extend(batch.events)
                decisions.extend(batch.decisions)
        except TruncatedLogError:
            pass
        trail = clock_trail([(b.index, b.events) for b in batches], [(j.frame, j.record) for j in reader.judged])
        return reader.header, events, decisions, reader.close_record, trail


def clock_trail(batches: list[tuple[int, list[Any]]], judged: list[tuple[int, Intervention]]) -> list[Any]:
    """What moved the clocks, in the order of the log's frames: each ``ClockCharged`` of the game as it stands
    and each judge's ``extra_time`` award (a judge writes to a log while no server holds it, between frames)."""
    items: list[tuple[int, int, Any]] = [(index, 1, r) for index, r in judged if r.kind == "extra_time"]
    for index, events in batches:
        items.extend((index, 0, e) for e in events if type(e) is ClockCharged)
    items.sort(key=lambda item: (item[0], item[1]))
    return [item for _, _, item in items]


class LiveTable:
    def __init__(
        self,
        ruleset: Ruleset[Any],
        header: LogHeader,
        out: str | os.PathLike[str],
        *,
        bank_ms: int = 0,
        now: Callable[[], float] = time.monotonic,
        _game: Game | None = None,
        _clock: list[int] | None = None,
        _writer: LogWriter | None = None,
        _replayed: list[Any] | None = None,
        _replayed_decisions: list[Decision[Any]] | None = None,
    ):
        self.ruleset = ruleset
        self.header = finalize_header(header)
        self.path = Path(out)
        self.bank_ms = bank_ms
        self.clock_ms = _clock if _clock is not None else [bank_ms] * len(self.header.players)
        self.listeners: list[Callable[[Any], None]] = []
        self._now = now
        self.game = _game if _game is not None else Game(ruleset, self.header, [], views=False)
        self.game.set_on_event(self._event)
        self.replayed: list[Any] = _replayed if _replayed is not None else []  # a resumed game's events so far
        self.replayed_decisions: list[Decision[Any]] = _replayed_decisions or []  # and its decisions
        # a log reopened to append to (``judge.resume_table``) holds the game so far already
        self._writer = _writer if _writer is not None else LogWriter(self.path, self.header, group_bytes=0)
        self.events_total = self.game.state.n
        self.decisions_total = self.game.decision_count
        self.closed: LogClose | None = None
        self._point: DecisionPoint[Any] | None = None
        self._asked_at = 0.0
        self._marked = False  # a LOG.open was written for the question being asked

    def replayed_with_decisions(self) -> list[tuple[Any, int]]:
        """Each replayed event with the number of decisions taken before it (a spectator's delay counts them)."""
        return with_decisions(self.replayed, self.replayed_decisions)

    def _event(self, event: Any) -> None:
        for listener in self.listeners:
            listener(event)

    @property
    def state(self) -> Any:
        return self.game.state

    @property
    def over(self) -> bool:
        return self.closed is not None

    def _flush(self) -> None:
        events, decisions = self.game.take_batch()
        if events or decisions:
            self._writer.write_batch(events, decisions)
            self.events_total += len(events)
            self.decisions_total += len(decisions)

    def question(self) -> DecisionPoint[Any] | None:
        """The decision being asked (the same one until it is answered), or None once the game is over."""
        if self._point is not None:
            return self._point
        if self.closed is not None:
            return None
        s, cap = self.game.state, self.header.max_turns
        while not s.over and not (cap and s.turn > cap):
            point = self.ruleset.pending(s)
            if point is not None:
                self._flush()  # every event and decision so far on disk before the question goes out
                self._point, self._asked_at = point, self._now()
                return point
            self.ruleset.advance(s, None, self.game.emit, self.game.rng)
        self._close()
        return None

    def left_ms(self, seat: int) -> int:
        """The seat's time bank now (counting the time the current question has been waiting on it)."""
        left = self.clock_ms[seat]
        if self._point is not None and self._point.player == seat and self.bank_ms:
            left -= int((self._now() - self._asked_at) * 1000)
        return max(left, 0)

    def clocks(self) -> list[int]:
        return [self.left_ms(seat) for seat in range(len(self.clock_ms))]

    @property
    def decision_count(self) -> int:
        return self.game.decision_count

    def note_open(self) -> None:
        """Write beside the log how long the question now asked has waited (``LOG.open``, replaced whole), so a
        server that dies while a person thinks still charges that time on resume. Nothing without a clock."""
        point = self._point
        if point is None or not self.bank_ms or self.closed is not None:
            return
        mark = OpenQuestion(self.game.decision_count, point.player, int((self._now() - self._asked_at) * 1000))
        if not self._marked:  # the question's frame durable before a file that names it (a power loss)
            self._writer.sync()
        path = open_path(self.path)
        aside = path.with_name(path.name + ".new")
        with open(aside, "wb") as f:
            f.write(msgspec.json.encode(mark))
            f.flush()
            os.fsync(f.fileno())  # whole on disk before it replaces the last one: never an empty or torn file
        os.replace(aside, path)
        self._marked = True

    def _unmark(self) -> None:
        if self._marked:
            open_path(self.path).unlink(missing_ok=True)
            self._marked = False

    def expired(self) -> bool:
        point = self._point
        return point is not None and self.bank_ms > 0 and self.left_ms(point.player) <= 0

    def answer(self, index: int, *, automatic: bool = False) -> None:
        """The seat being asked chooses option ``index`` (``automatic``: the table chose it for the seat, as its
        settings asked; ``engine.forced``). Either way the seat's clock is charged the time since the question."""
        point = self._point
        if point is None:
            raise IllegalDecisionError("no decision is being asked; wait for a decide message")
        if not (type(index) is int and 0 <= index < len(point.options)):
            raise IllegalDecisionError(
                f"option {index!r} is not offered at {point.point!r}; choose a number from 0 to "
                f"{len(point.options) - 1}"
            )
        s = self.game.state
        if self.bank_ms:
            spent = int((self._now() - self._asked_at) * 1000)
            left = max(self.clock_ms[point.player] - spent, 0)
            self.clock_ms[point.player] = left
            self.game.emit(ClockCharged(s.n, s.turn, s.step, point.player, spent, left))
        self._point = None
        self._unmark()
        self.game.answer(point, point.options[index], automatic=automatic)

    def forfeit(self, seat: int, reason: str) -> None:
        """``seat`` loses now (time, or a concession); written and closed at once."""
        if self.closed is not None:
            return
        s = self.game.state
        if self.bank_ms and self._point is not None and self._point.player == seat:
            spent = int((self._now() - self._asked_at) * 1000)
            left = max(self.clock_ms[seat] - spent, 0)
            self.clock_ms[seat] = left
            self.game.emit(ClockCharged(s.n, s.turn, s.step, seat, spent, left))
        self._point = None
        self.game.emit(Forfeited(s.n, s.turn, s.step, seat, 1 - seat, reason))
        self._close()

    def no_show(self, absent: list[int]) -> None:
        """The seats in ``absent`` never sat down before the grace period ran out (R-CORE-8): one absent seat
        loses to the other; both absent, the game ends without a winner. Written and closed at once."""
        if self.closed is not None or not absent:
            return
        s = self.game.state
        seat, winner = (absent[0], 1 - absent[0]) if len(absent) == 1 else (-1, -1)
        self._point = None
        self.game.emit(Forfeited(s.n, s.turn, s.step, seat, winner, NO_SHOW_REASON))
        self._close()

    def award(self, record: Intervention) -> Intervention:
        """A judge's extra time given at a table being played (R-CORE-7): the record goes into the log as a judge
        frame after the frames written so far, and its minutes into the banks (the named player's, or every
        seat's), so the seat being asked is charged from the bank with the extra time. Returns the record as
        written (``at_event`` set). ``ResumeError`` if the game is over or has no clock."""
        if self.closed is not None:
            raise ResumeError(f"{self.path}: the game is over; extra time has nothing to go to")
        if not self.bank_ms:
            raise ResumeError(f"{self.path}: the table has no clock; extra time has nothing to go to")
        self._flush()
        record = msgspec.structs.replace(record, at_event=self.events_total)
        self._writer.write_judge(record)
        for seat in awarded(record, len(self.clock_ms)):
            self.clock_ms[seat] += record.minutes * MINUTE_MS
        return record

    def _close(self) -> None:
        s = self.game.state
        self._flush()
        winner, reason = (s.winner, s.end_reason) if s.over else (-1, TURN_CAP_REASON)
        self.closed = LogClose(winner, reason, self.events_total, self.decisions_total, s.turn)
        self._writer.close(self.closed)
        open_path(self.path).unlink(missing_ok=True)

    def abandon(self) -> None:
        """Stop without a result (the server shutting down): the log stays open, to be resumed."""
        if self.closed is None:
            self._flush()
            self._writer.abandon()

    @classmethod
    def resume(
        cls, path: str | os.PathLike[str], *, bank_ms: int = 0, now: Callable[[], float] = time.monotonic
    ) -> LiveTable:
        """The table of a live log cut short (a crash, a kill): re-run, its clocks as recorded, appended to."""
        header, events, decisions, close, trail = read_live(path)
        if close is not None:
            raise ResumeError(f"{path}: the game is over ({close.end_reason}); there is nothing to resume")
        ruleset = get_ruleset(header.ruleset)
        seats = len(header.players)
        agents = [ScriptedAgent([d for d in decisions if d.player == p]) for p in range(seats)]
        game = Game(ruleset, header, agents, views=False)
        done = 0
        s = game.state
        try:
            while not s.over:
                if s.n < len(events) and type(events[s.n]) in TABLE_EVENTS:
                    game.emit(events[s.n])
                    continue
                point = ruleset.pending(s)
                if point is None:
                    ruleset.advance(s, None, game.emit, game.rng)
                elif done < len(decisions):
                    game.step()
                    done += 1
                else:
                    break
        except AnnalsError as exc:
            raise ResumeError(f"{path}: the recorded decisions do not re-run ({exc})") from None
        if game.events[: len(events)] != events:
            raise ResumeError(f"{path}: re-running the decisions does not give the recorded events")
        writer = append_to(path)
        bank_ms, clock = recorded_clocks(trail, seats, bank_ms)
        charge_open(ruleset, game, path, bank_ms, clock)
        more_events, more_decisions = game.events[len(events) :], game.decisions[len(decisions) :]
        game.take_batch()
        if more_events or more_decisions:  # the rules went on past the last frame written: record it now
            writer.write_batch(more_events, more_decisions)
        open_path(path).unlink(missing_ok=True)  # charged (and on disk): a second crash does not charge it again
        return cls(ruleset, header, path, bank_ms=bank_ms, now=now, _game=game, _clock=clock, _writer=writer,
                   _replayed=events + more_events, _replayed_decisions=decisions + more_decisions)  # fmt: skip


def awarded(record: Intervention, seats: int) -> list[int]:
    """The seats a judge's ``extra_time`` goes to: the match's clock is every seat's, unless it names a player
    (R-CORE-7)."""
    return [record.player] if 0 <= record.player < seats else list(range(seats))


def recorded_clocks(trail: list[Any], seats: int, bank_ms: int = 0) -> tuple[int, list[int]]:
    """The time banks a log left, from its clock trail (``clock_trail``; a plain list of events also does): each
    seat's last ``ClockCharged``, the bank itself for a seat not yet charged, plus the minutes of every judge's
    ``extra_time`` after that charge (R-CORE-7). With ``bank_ms`` 0 (not known: ``annals resume`` of a log) the bank
    is read from a first charge (spent + left, less the extra time awarded before it; a log with none had no
    clock, or no decision timed yet: then no clock, and extra time has nothing to go to)."""
    if not bank_ms:
        extra, banks = [0] * seats, dict[int, int]()
        for item in trail:
            if type(item) is ClockCharged and item.player not in banks:
                banks[item.player] = item.spent_ms + item.left_ms - extra[item.player]
            elif type(item) is Intervention and item.kind == "extra_time":
                for seat in awarded(item, seats):
                    extra[seat] += item.minutes * MINUTE_MS
        bank_ms = max(banks.values(), default=0)
    clock = [bank_ms] * seats
    if not bank_ms:
        return 0, clock
    for item in trail:
        if type(item) is ClockCharged:
            clock[item.player] = item.left_ms
        elif type(item) is Intervention and item.kind == "extra_time":
            for seat in awarded(item, seats):
                clock[seat] += item.minutes * MINUTE_MS
    return bank_ms, clock


def append_to(path: str | os.PathLike[str]) -> LogWriter:
    """A writer appending to a live log cut short. A torn last frame (only a write cut by the machine stopping
    leaves one) is kept aside as ``LOG.torn-OFFSET`` and cut off, so that the log goes on from its whole frames."""
    try:
        with LogReader(path) as reader:
            reader.read_to_end()
    except TruncatedLogError as exc:
        if exc.offset is None:
            raise
        with open(path, "r+b") as f:
            f.seek(exc.offset)
            Path(f"{os.fspath(path)}.torn-{exc.offset}").write_bytes(f.read())
            f.truncate(exc.offset)
    return LogWriter.reopen(path, group_bytes=0)
