"""A table of the server: one live game, its seats' connections, and the loop that asks each decision.

Each seat (and the spectators) has a ``SeatStream``: every event becomes that seat's own message at once, kept in
the seat's history, so a client that connects (or reconnects with its token) gets the hello, the whole history
of its view, the board and, if it is being asked, the decision again. Spectators get the spectator view, held back
by ``delay`` decisions. The loop writes every decision to the live log before the next question (``LiveTable``),
waits for the seat's answer no longer than its time bank (then it forfeits on time, recorded as ``Forfeited``),
sends errors for answers it cannot take and asks again. Bots sit in seats too, answering from their own view.
A new table asks nothing, so no clock runs, until every person's seat has been taken (a client has joined it
with its token: ``present``), or until the table's grace period runs out: then a seat still empty loses the game,
``Forfeited`` with the reason ``no-show`` (R-CORE-8). A resumed game that had begun does not wait again. A judge's
extra time (``Table.award``) goes into the live log and the banks at once (R-CORE-7).
While a person thinks on a clock, the table renews ``LOG.open`` every ``mark_s`` seconds (``LiveTable.note_open``),
so a crash charges the time the question was open (R-CORE-6).

A table whose game is over is dropped from the server's memory after a grace period (``Server.keep_s``); a
client that comes for it later gets it read back from its closed log (``Table.finished``): the hello, its whole
view, the result and the close, as if it had stayed.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgspec

from annals.engine import forced
from annals.engine.core import Agent, DecisionPoint
from annals.engine.registry import get_ruleset
from annals.engine.seats import SeatStream
from annals.engine.simulate import seat_rngs
from annals.engine.table import LiveTable, read_live, recorded_clocks, with_decisions
from annals.queries.pictures.svgboard import render_svg
from annals.schemas import protocol as p
from annals.schemas.errors import IllegalDecisionError
from annals.schemas.header import LogClose, LogHeader
from annals.schemas.judge import Intervention
from annals.schemas.records import CONCESSION_REASON, TIME_REASON
from annals.server.store import TableError, TableRecord, matches

SPECTATOR = -1
MARK_S = 1.0  # how often the time a person has been thinking is written beside the log
Sender = Callable[[bytes], Awaitable[None]]
Hangup = Callable[[], Awaitable[None]]


class Finished:
    """A game over, read back from its closed log: what a ``Table`` shows its clients once the live game has
    left memory (no rules run, nothing is written)."""

    over = True

    def __init__(self, record: TableRecord, path: Path):
        header, events, decisions, close, trail = read_live(path)
        if close is None:
            raise TableError(f"{path}: the game is not over; it is resumed as a live table, not read back")
        self.header: LogHeader = header
        self.path = path
        self.closed: LogClose | None = close
        self.decision_count = close.decisions
        self.listeners: list[Callable[[Any], None]] = []
        self._clocks = recorded_clocks(trail, len(header.players), record.bank_ms)[1]
        self._replayed = with_decisions(events, decisions)

    def replayed_with_decisions(self) -> list[tuple[Any, int]]:
        return self._replayed

    def clocks(self) -> list[int]:
        return list(self._clocks)


class Connection:
    """One client's socket: messages wait here and a writer task sends them in order, so a slow client never
    holds up the table. Whatever has gathered when the writer runs goes out as one frame (``p.join_frame``): the
    table queues a decision's events, board and next question without yielding, so a seat gets one frame per
    decision, not one per message."""

    def __init__(
        self, seat: int, send: Sender, *, boards: bool = True, svg: bool = False, hangup: Hangup | None = None
    ):
        self.seat = seat
        self._hangup = hangup  # closes the socket, when the table leaves memory (``Table.hang_up``)
        self.boards = boards  # a board message after each decision (a bot client may not want them)
        self.svg = svg  # and with it the board drawn as SVG (the browser client)
        self._send = send
        self._waiting: list[bytes] = []
        self._closing = False
        self._ready = asyncio.Event()
        self.task = asyncio.create_task(self._writer())
        self.sent = 0  # spectators: how many of the spectator history it has been sent

    def put(self, message: bytes) -> None:
        self._waiting.append(message)
        self._ready.set()

    def close(self, *, hang_up: bool = False) -> None:
        self._closing = True
        if not hang_up:
            self._hangup = None
        self._ready.set()

    async def _writer(self) -> None:
        with contextlib.suppress(Exception):  # a socket gone mid-send: the reader side detaches it
            while True:
                await self._ready.wait()
                self._ready.clear()
                if self._waiting:
                    frame, self._waiting = p.join_frame(self._waiting), []
                    await self._send(frame)
                if self._closing:
                    if self._hangup is not None:
                        await self._hangup()
                    return


class Table:
    def __init__(
        self,
        record: TableRecord,
        live: LiveTable | Finished,
        *,
        mark_s: float = MARK_S,
        cover_s: tuple[float, float] = forced.COVER_S,
    ):
        self.record = record
        self.live = live
        self.mark_s = mark_s
        self.cover_s = cover_s  # a hidden automatic pass waits this long (engine.forced)
        # what the table may answer for each seat: nothing until its client says (the protocol's ``settings``)
        self.settings: list[forced.Settings] = [forced.ASK_ALL for _ in record.seats]
        self.automatic = [0 for _ in record.seats]  # questions answered for each seat
        ruleset = get_ruleset(record.ruleset)
        self.ruleset = ruleset
        header = live.header
        self.streams = [SeatStream(ruleset, header, seat) for seat in range(len(record.seats))]
        self.spectator: SeatStream | None = None  # made when the first spectator comes (most tables have none)
        self.events: list[tuple[Any, int]] = []  # every event so far (omniscient) with the decisions before it
        rngs = seat_rngs(header)
        self.bots: dict[int, Agent] = {
            seat: ruleset.agents()[kind](seat, rngs[seat]) for seat, kind in enumerate(record.seats) if kind != "human"
        }
        self.history: list[list[bytes]] = [[] for _ in record.seats]
        self.spectator_history: list[bytes] = []  # the spectators' messages of the events released to them
        self.connections: list[Connection] = []
        self.answers: asyncio.Queue[tuple[int, p.ClientMessage]] = asyncio.Queue()
        self.decide: p.Decide | None = None
        self.asking = -1  # the seat whose answer the loop waits for (a person's, a bot's): each seat's board says it
        self.ended: list[bytes] = []  # each seat's game_over once the game is over
        self.spectator_ended: bytes | None = None  # and the spectators' (made when one is there to get it)
        self.done = asyncio.Event()
        self.people = [seat for seat, kind in enumerate(record.seats) if kind == "human"]
        self.present: set[int] = set()  # the people's seats a client has joined so far
        self.seated = asyncio.Event()  # set when the game may begin: every person sat down (or it had begun)
        if not self.people or live.over or live.decision_count > 0:
            self.seated.set()
        for event, decisions in live.replayed_with_decisions():  # a resumed game: its views so far
            self._on_event(event, send=False, decisions=decisions)
        live.listeners.append(self._on_event)

    @classmethod
    def finished(cls, record: TableRecord, path: Path) -> Table:
        """The table of a game over, read back from its closed log (``TableError`` if it is not closed)."""
        table = cls(record, Finished(record, path))
        table._ended()
        table.done.set()
        return table

    def hang_up(self) -> None:
        """The table leaves memory: every client still connected is sent what waits, then its socket closes."""
        for conn in list(self.connections):
            conn.close(hang_up=True)
        self.connections.clear()

    # ---------------------------------------------------------------- who is who

    def seat_for(self, token: str) -> int | None:
        """The seat a token opens (``SPECTATOR`` for the spectators' token), or None."""
        for seat, digest in enumerate(self.record.token_hashes):
            if matches(token, digest):
                return seat
        return SPECTATOR if matches(token, self.record.spectator_hash) else None

    # ---------------------------------------------------------------- messages out

    def _on_event(self, event: Any, *, send: bool = True, decisions: int = -1) -> None:
        # An event seats see alike (the same ``seen``, naming cards they know alike) is put in words once, and
        # written once if it shows neither of them anything new: ``last`` is the previous seat's.
        last: tuple[Any, SeatStream, tuple[dict[str, Any], str], bytes | None] | None = None
        for seat, stream in enumerate(self.streams):
            seen, new = stream.view.feed(event)
            if seat in self.bots:
                continue
            if last is not None and last[0] is seen and stream.names_in(seen) == last[1].names_in(seen):
                worded, encoded = last[2], last[3]
                message = encoded if encoded is not None and not new else p.encode(stream.message(seen, new, worded))
            else:
                worded = stream.worded(seen)
                message = p.encode(stream.message(seen, new, worded))
            last = (seen, stream, worded, None if new else message)
            self.history[seat].append(message)
            if send:
                self._to_seat(seat, message)
        self.events.append((event, self.live.decision_count if decisions < 0 else decisions))

    def _spectator_stream(self) -> SeatStream:
        """The spectators' view, made when the first spectator comes (most tables have none). It is folded only
        as far as the spectators have been shown (``_release_spectators``), so its board is the position as it
        stood ``delay`` decisions ago, never the present."""
        if self.spectator is None:
            self.spectator = SeatStream(self.ruleset, self.live.header, SPECTATOR)
            self._catch_up_spectators()
        return self.spectator

    def _catch_up_spectators(self) -> bool:
        """Fold into the spectators' view every event they may now see: those from before the decision ``delay``
        decisions back (all of them once the game is over). True if any was new."""
        stream = self.spectator
        if stream is None:
            return False
        over, events = self.live.over, self.events
        ready = self.live.decision_count - self.record.delay
        start = len(self.spectator_history)
        while len(self.spectator_history) < len(events):
            event, decisions = events[len(self.spectator_history)]
            if not over and decisions > ready:
                break
            self.spectator_history.append(p.encode(stream.event(event)))
        return len(self.spectator_history) > start

    def _to_seat(self, seat: int, message: bytes) -> None:
        for conn in self.connections:
            if conn.seat == seat:
                conn.put(message)

    def _release_spectators(self, joined: Connection | None = None) -> None:
        """Send each spectator what it may now see: the events, then the board as of the last of them (when
        anything was new to it), then the result once the game is over."""
        if self.spectator is None:
            return
        self._catch_up_spectators()
        history, made = self.spectator_history, dict[bool, bytes]()
        for conn in self.connections:
            if conn.seat != SPECTATOR or conn.sent > len(history):
                continue
            fresh = conn.sent < len(history) or conn is joined
            while conn.sent < len(history):
                conn.put(history[conn.sent])
                conn.sent += 1
            if fresh and conn.boards:
                if conn.svg not in made:
                    made[conn.svg] = self.board(SPECTATOR, conn.svg)
                conn.put(made[conn.svg])
            close = self.live.closed
            if close is not None:
                if self.spectator_ended is None:
                    over = self.spectator.game_over(close.winner, close.end_reason, close.events, close.decisions)
                    self.spectator_ended = p.encode(over)
                conn.put(self.spectator_ended)
                conn.put(p.encode(p.Close("game over")))
                conn.sent += 1  # past the history: nothing more to send it

    def board(self, seat: int, svg: bool) -> bytes:
        stream = self.streams[seat] if seat >= 0 else self._spectator_stream()
        names = [info.name for info in self.live.header.players]
        close = self.live.closed  # a turn cap ends the table's game, not the rules': the board says so too
        ended = None if close is None else (close.winner, close.end_reason)
        drawn = render_svg(self.record.ruleset, stream.view.state, seat, players=names, ended=ended) if svg else ""
        if seat < 0:  # the spectators' board is of a past position: no one to wait for, no clocks of now
            return p.encode(stream.board(drawn))
        return p.encode(stream.board(drawn, self.asking if close is None else -1, self.live.clocks()))

    def _boards(self) -> None:
        """Each connected seat's board, drawn once per seat and kind (with or without SVG)."""
        made: dict[tuple[int, bool], bytes] = {}
        for conn in self.connections:
            if conn.seat >= 0 and conn.boards:
                key = (conn.seat, conn.svg)
                if key not in made:
                    made[key] = self.board(*key)
                conn.put(made[key])

    def attach(
        self,
        seat: int,
        send: Sender,
        *,
        boards: bool = True,
        svg: bool = False,
        hangup: Hangup | None = None,
        settings: p.Settings | None = None,
    ) -> Connection:
        """A client joins (or rejoins) ``seat``: the hello, its view so far, the board, the question if asked.
        ``settings`` (from the socket's address) hold from the question now asked: one they answer is not sent."""
        if settings is not None and seat >= 0:
            self.set_settings(seat, settings)
            self.answers.put_nowait((seat, settings))
        conn = Connection(seat, send, boards=boards, svg=svg, hangup=hangup)
        self.connections.append(conn)
        if seat >= 0:
            self.present.add(seat)
            if self.present.issuperset(self.people):
                self.seated.set()
        stream = self.streams[seat] if seat >= 0 else self._spectator_stream()
        resumed = len(self.history[seat]) if seat >= 0 else 0
        conn.put(p.encode(stream.hello(self.live.clocks(), delay=self.record.delay, resumed_at=resumed)))
        if seat == SPECTATOR:
            self._release_spectators(joined=conn)
            return conn
        for message in self.history[seat]:
            conn.put(message)
        conn.put(self.board(seat, svg))
        if self.ended:
            conn.put(self.ended[seat])
            conn.put(p.encode(p.Close("game over")))
        elif self.decide is not None and self.decide.player == seat and not self._answered_now(seat):
            conn.put(p.encode(self._fresh_decide()))
        return conn

    def _answered_now(self, seat: int) -> bool:
        """Whether the question now asked of ``seat`` is one its settings have the table answer."""
        live = self.live
        if not isinstance(live, LiveTable) or live.over:
            return False
        point = live.question()
        return point is not None and bool(forced.answered_for(self.ruleset, live.state, point, self.settings[seat]))

    def hear(self, seat: int, message: p.ClientMessage) -> None:
        """A seat's message, queued for the loop; a concession before everyone sat ends the game at once (the
        loop waits for the seats, not for the grace period to run out)."""
        self.answers.put_nowait((seat, message))
        if type(message) is p.Concede:
            self.seated.set()

    def detach(self, conn: Connection) -> None:
        if conn in self.connections:
            self.connections.remove(conn)
        conn.close()

    def _fresh_decide(self) -> p.Decide:
        d = self.decide
        assert d is not None
        return msgspec.structs.replace(d, clock_ms=self.live.clocks())

    def set_settings(self, seat: int, message: p.Settings) -> None:
        """A seat's client says what the table may answer for it (``engine.forced``), from its next question."""
        self.settings[seat] = forced.from_message(message)

    def error(self, seat: int, code: str, message: str) -> None:
        decision = self.decide.decision if self.decide is not None and self.decide.player == seat else -1
        self._to_seat(seat, p.encode(p.Error(code, message, decision)))

    # ---------------------------------------------------------------- the loop

    def _live(self) -> LiveTable:
        assert isinstance(self.live, LiveTable), "a finished table read back from its log does not run"
        return self.live

    @property
    def started(self) -> bool:
        return self.seated.is_set()

    def award(self, record: Intervention) -> Intervention:
        """A judge's extra time at this table (R-CORE-7): written to the live log, added to the banks; the seat
        being asked gets its question again with the clocks as they now stand."""
        written = self._live().award(record)
        if self.decide is not None:
            self._to_seat(self.decide.player, p.encode(self._fresh_decide()))
        return written

    async def _sit_down(self) -> bool:
        """Wait until every person has sat down, at most the grace period (``record.grace_ms``; 0: no limit):
        nothing is asked meanwhile, so no clock runs. A seat still empty then loses (no-show, R-CORE-8). True if
        the game is to be played."""
        if not self.seated.is_set():
            try:
                async with asyncio.timeout(self.record.grace_ms / 1000 if self.record.grace_ms else None):
                    await self.seated.wait()
            except TimeoutError:
                self._live().no_show([seat for seat in self.people if seat not in self.present])
                self.seated.set()
                return False
            while not self.answers.empty():  # answers sent before anything was asked answer nothing
                who, message = self.answers.get_nowait()
                if type(message) is p.Concede:
                    self._live().forfeit(who, CONCESSION_REASON)
                    return False
        return True

    async def run(self) -> None:
        live = self._live()
        try:
            if not await self._sit_down():
                self._finish()
                return
            while (point := live.question()) is not None:
                bot = point.player in self.bots
                kind = "" if bot else forced.answered_for(self.ruleset, live.state, point, self.settings[point.player])
                self.asking = point.player
                if kind != forced.PUBLIC:
                    self._boards()  # a public lone answer changes nothing anyone waits to see before it
                self._release_spectators()
                if bot:
                    # on a worker thread: the search bot thinks up to a second a decision, which on the server's
                    # own thread stalled every table, page and socket (the board saying it thinks included). Only
                    # this loop changes the view it reads, and it waits here meanwhile
                    agent, view = self.bots[point.player], self.streams[point.player].view.state
                    choice = await asyncio.to_thread(agent.choose, view, point)
                    live.answer(list(point.options).index(choice))
                    continue
                if kind:
                    await self._answer_for(point, kind)
                    continue
                await self._ask(point)
            self._finish()
        except asyncio.CancelledError:
            live.abandon()  # the server stopping: the game stays open in its live log, to be resumed
            raise

    async def _answer_for(self, point: DecisionPoint[Any], kind: str) -> None:
        """Answer a lone question for its seat (``engine.forced``): a public one at once, a hidden one after the
        cover delay, charged to the seat's clock like a quick pass by hand. A concession meanwhile still counts."""
        live, seat = self._live(), point.player
        if kind == forced.HIDDEN:
            delay = forced.cover_delay(self.cover_s)
            try:
                async with asyncio.timeout(delay):
                    while True:
                        who, message = await self.answers.get()
                        if type(message) is p.Concede:
                            live.forfeit(who, CONCESSION_REASON)
                            return
                        if type(message) is not p.Settings:
                            self.error(who, p.NOT_YOUR_DECISION, "no question is being asked of you; wait for a decide")
            except TimeoutError:
                pass
        self.automatic[seat] += 1
        live.answer(0, automatic=True)
        await asyncio.sleep(0)

    async def _ask(self, point: DecisionPoint[Any]) -> None:
        live, seat = self._live(), point.player
        stop = forced.stop_at(self.ruleset, live.state, point, self.settings[seat]) if len(point.options) == 1 else ""
        self.decide = self.streams[seat].decide(live.decision_count, point, live.clocks(), stop)
        self._to_seat(seat, p.encode(self.decide))
        while True:
            timeout = live.left_ms(seat) / 1000 if live.bank_ms else None
            wait = min(timeout, self.mark_s) if timeout is not None and self.mark_s > 0 else timeout
            try:
                async with asyncio.timeout(wait):  # no task made per wait, as ``wait_for`` makes one
                    who, message = await self.answers.get()
            except TimeoutError:
                if live.left_ms(seat) > 0:  # still thinking: the time so far goes on disk beside the log
                    # fsynced, so on a worker thread: the other tables go on meanwhile (this one waits for it)
                    await asyncio.to_thread(live.note_open)
                    continue
                self.decide = None
                live.forfeit(seat, TIME_REASON)
                return
            if type(message) is p.Concede:
                self.decide = None
                live.forfeit(who, CONCESSION_REASON)
                return
            if type(message) is p.Settings:  # the asked seat's new settings may answer this question for it
                kind = forced.answered_for(self.ruleset, live.state, point, self.settings[seat])
                if who == seat and kind:
                    self.decide = None
                    await self._answer_for(point, kind)
                    return
                continue
            assert type(message) is p.Answer
            if who != seat or message.decision not in (-1, self.decide.decision):
                self.error(who, p.NOT_YOUR_DECISION, f"you are not being asked decision {message.decision}; wait "
                           "for a decide message")  # fmt: skip
                continue
            try:
                live.answer(message.choose)
            except IllegalDecisionError as exc:
                self.error(seat, p.BAD_ANSWER, str(exc))
                self._to_seat(seat, p.encode(self._fresh_decide()))
                continue
            self.decide = None
            return

    def _ended(self) -> None:
        close = self.live.closed
        assert close is not None
        self.decide = None
        for seat in range(len(self.streams)):
            self.ended.append(p.encode(self.streams[seat].game_over(close.winner, close.end_reason, close.events,
                                                                     close.decisions)))  # fmt: skip

    def _finish(self) -> None:
        self.asking = -1
        self._ended()
        self._boards()
        for seat in range(len(self.streams)):
            if seat not in self.bots:
                self._to_seat(seat, self.ended[seat])
                self._to_seat(seat, p.encode(p.Close("game over")))
        self._release_spectators()
        self.done.set()
