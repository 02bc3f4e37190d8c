"""Seats of a local live game: bots, external programs over JSON lines, and a person (the terminal client).

Every seat speaks the protocol of ``schemas.protocol`` (see there, and ``schemas/protocol.schema.json``): it is
sent ``hello``, each ``event`` of its own view, a ``decide`` when it must choose, ``error`` when its message cannot
be taken (then the same ``decide`` again), ``game_over`` and ``close``; it answers ``answer`` or ``concede``. An
external program gets these messages as JSON lines on its stdin and writes its own on its stdout; a bot gets only
its seat's view (``SeatView``: the state folded from the events it was sent), never the game's state.

An external program runs under ``engine.external.ChildProgram``: it has ``DECISION_TIMEOUT`` seconds (``annals play
--timeout``) from a question to its answer, out of time it forfeits (the table's ``Forfeited`` event, end reason
``timeout``, ruling R-CORE-4); an answer line may be at most ``MAX_MESSAGE_BYTES``; after the game its stdin is
closed and it has two seconds to exit before SIGTERM, then SIGKILL (its whole process group).

``run_table`` is the loop of a local table (``annals play``, and ``annals resume`` at the table of a log that stops
before its end, ``judge.resume_table``); ``annals serve`` runs the same table over WebSocket.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

from annals.engine import forced
from annals.engine.core import Agent, DecisionPoint, Ruleset
from annals.engine.decks import read_deck_list
from annals.engine.external import EXIT_GRACE, ChildProgram, ExternalProgramError, ProgramTimeout, parse_command
from annals.engine.judge import resume_table
from annals.engine.names import DECISION_TIMEOUT as DECISION_TIMEOUT  # defined there, for the command line
from annals.engine.names import MAX_CLOCK_S
from annals.engine.registry import get_ruleset
from annals.engine.rng import Rng
from annals.engine.runner import GameResult
from annals.engine.seats import SeatStream
from annals.engine.simulate import (
    PairError,
    SimulationError,
    UnknownChoiceError,
    check_max_turns,
    check_seed,
    default_decks,
    header_for,
    log_name,
    pick,
    seat_rngs,
)
from annals.engine.table import LiveTable
from annals.schemas import protocol as p
from annals.schemas.errors import AnnalsError, BadArgumentError, IllegalDecisionError
from annals.schemas.files import default_games, output_file, unused
from annals.schemas.header import DeckList, LogHeader, PlayerInfo, TournamentInfo
from annals.schemas.keys import SigningKey
from annals.schemas.logfile import LogReader
from annals.schemas.records import CONCESSION_REASON, TIMEOUT_REASON
from annals.schemas.signing import sign_log

MAX_BAD_ANSWERS = 5  # a local seat that cannot answer after this many errors in a row stops the game
MAX_TIMEOUT = 24 * 3600.0


class SeatGone(AnnalsError, ConnectionError):
    """A seat's connection ended (a program's stdout closed, a person's input ended)."""


class SeatLeft(Exception):
    """A person left a local table without conceding (``quit`` at the terminal): the table stops, its log left
    open to be resumed (``annals resume``). ``path`` is that log, set when it leaves ``play_live``."""

    def __init__(self) -> None:
        super().__init__("left the table")
        self.path: Path | None = None


class Seat(Protocol):
    """One side of the protocol, as the table sees it."""

    def send(self, message: p.ServerMessage) -> None: ...

    def receive(self) -> p.ClientMessage:
        """The seat's next message (``ProtocolError`` for one that cannot be read, ``SeatGone`` at its end)."""
        ...


class BotSeat:
    """A bot as a client: it folds the messages' view (its ``SeatStream``'s ``SeatView``) and answers from it."""

    def __init__(self, agent: Agent, stream: SeatStream):
        self.agent = agent
        self.stream = stream
        self.point: DecisionPoint[Any] | None = None

    def send(self, message: p.ServerMessage) -> None:
        pass  # everything a bot may know is already in its view

    def receive(self) -> p.ClientMessage:
        assert self.point is not None, "a bot is asked only when a decision is pending"
        choice = self.agent.choose(self.stream.view.state, self.point)
        return p.Answer(list(self.point.options).index(choice))


class BadTimeoutError(ExternalProgramError, BadArgumentError):
    """A time limit that is not a positive number of seconds (a usage error: exit status 2)."""


class BadClockError(BadArgumentError):
    """A time bank that is not 0 (no clock) .. ``MAX_CLOCK_S`` seconds (a usage error: exit status 2)."""


class ExternalPlayerError(SeatGone, ExternalProgramError):
    """An external player's program closed a pipe or exited before the game was over."""


class ExternalSeat:
    """A program that plays one seat over JSON lines on its stdin/stdout (``engine.external.ChildProgram``).

    Messages are written when the seat is asked (or the game ends): a program that reads only when it must answer
    cannot then block the table while the other seat plays, and a timeout is always its own decision's.
    """

    def __init__(self, command: str, *, timeout: float = DECISION_TIMEOUT):
        self.command = command
        self._program = ChildProgram(parse_command(command), command, timeout=timeout, max_line=p.MAX_MESSAGE_BYTES)
        self._pending: list[bytes] = []
        self._at = "hello"

    def send(self, message: p.ServerMessage) -> None:
        self._pending.append(p.encode(message) + b"\n")
        if type(message) is p.Decide:
            self._at = message.point
        if type(message) in (p.Decide, p.Error, p.GameOver, p.Close):
            self._flush()

    def _flush(self, timeout: float | None = None) -> None:
        lines, self._pending = b"".join(self._pending), []
        try:
            self._program.send(lines, timeout, at=self._at)
        except ProgramTimeout:
            raise
        except ExternalProgramError as exc:
            raise ExternalPlayerError(str(exc)) from None

    def receive(self) -> p.ClientMessage:
        try:
            line = self._program.read_line(at=self._at)
        except ProgramTimeout:
            raise
        except ExternalProgramError as exc:
            raise ExternalPlayerError(str(exc)) from None
        return p.decode_client(line)

    def close(self) -> None:
        """Send what is left (the end of the game), close its input and end the program (``ChildProgram.close``)."""
        if self._pending:
            with contextlib.suppress(ExternalProgramError):
                self._flush(timeout=min(self._program.timeout, EXIT_GRACE))
        self._program.close()


def ask(table: LiveTable, seat: Seat, decide: p.Decide, settings: list[forced.Settings] | None = None) -> str:
    """Put one decision to a seat until it answers one of the options (or concedes, or runs out of time: then
    its seat loses, and the returned note says why). A ``settings`` message on the way is kept in ``settings``
    (the seat's entry) for the questions that follow, and the seat's answer is read next."""
    bad = 0
    again = True
    while True:
        try:
            if again:
                seat.send(decide)
            again = True
            reply = seat.receive()
        except ProgramTimeout as exc:
            table.forfeit(decide.player, TIMEOUT_REASON)
            return f"{exc} at {decide.point!r}; its seat loses"
        except p.ProtocolError as exc:
            seat.send(p.Error(exc.code, str(exc), decide.decision))
        else:
            if type(reply) is p.Settings:
                if settings is not None:
                    settings[decide.player] = forced.from_message(reply)
                again = False
                continue
            if type(reply) is p.Concede:
                table.forfeit(decide.player, CONCESSION_REASON)
                return ""
            assert type(reply) is p.Answer
            if reply.decision not in (-1, decide.decision):
                code, text = p.NOT_YOUR_DECISION, f"decision {reply.decision} is not the one asked ({decide.decision})"
            else:
                try:
                    table.answer(reply.choose)
                    return ""
                except IllegalDecisionError as exc:
                    code, text = p.BAD_ANSWER, str(exc)
            seat.send(p.Error(code, text, decide.decision))
        bad += 1
        if bad >= MAX_BAD_ANSWERS:
            raise IllegalDecisionError(
                f"seat {decide.player} gave {bad} answers in a row that could not be taken at {decide.point!r}; "
                f"answer with {{'type': 'answer', 'choose': N}}, 0 <= N < {len(decide.options)}"
            )


def run_table(table: LiveTable, seats: Sequence[Seat]) -> GameResult:
    """Play a local table to the end: every seat hears its own view; each decision is put to its seat."""
    header = table.header
    streams = [seat.stream if isinstance(seat, BotSeat) else SeatStream(table.ruleset, header, i)
               for i, seat in enumerate(seats)]  # fmt: skip

    def fan_out(event: Any) -> None:
        for seat, stream in zip(seats, streams, strict=True):
            message = stream.event(event)
            if not isinstance(seat, BotSeat):
                seat.send(message)

    table.listeners.append(fan_out)
    note = ""
    resumed = len(table.replayed)  # a resumed game: each seat is told the game so far, in its own view
    for seat, stream in zip(seats, streams, strict=True):
        seat.send(stream.hello(table.clocks(), resumed_at=resumed))
        for event in table.replayed:
            message = stream.event(event)
            if not isinstance(seat, BotSeat):
                seat.send(message)
    settings = [getattr(seat, "settings", forced.ASK_ALL) for seat in seats]  # a person's client says its own
    # a hidden automatic pass waits out a cover delay where anyone could time it: a clock, or another seat not a bot
    cover = [table.bank_ms > 0 or any(not isinstance(o, BotSeat) for j, o in enumerate(seats) if j != i)
             for i in range(len(seats))]  # fmt: skip
    try:
        while (point := table.question()) is not None:
            seat = seats[point.player]
            kind = "" if isinstance(seat, BotSeat) else forced.answered_for(table.ruleset, table.state, point,
                                                                            settings[point.player])  # fmt: skip
            if kind != forced.PUBLIC:
                for other, stream in zip(seats, streams, strict=True):
                    if not isinstance(other, BotSeat):
                        other.send(stream.board(deciding=point.player, clock_ms=table.clocks()))
            if kind:
                if kind == forced.HIDDEN and cover[point.player]:
                    time.sleep(forced.cover_delay())
                table.answer(0, automatic=True)
                continue
            if isinstance(seat, BotSeat):
                seat.point = point
            stop = forced.stop_at(table.ruleset, table.state, point, settings[point.player])
            decide = streams[point.player].decide(table.game.decision_count, point, table.clocks(),
                                                  stop if len(point.options) == 1 else "")  # fmt: skip
            note = ask(table, seat, decide, settings)
    except BaseException:
        table.abandon()
        raise
    close = table.closed
    assert close is not None
    for seat, stream in zip(seats, streams, strict=True):
        try:
            if not isinstance(seat, BotSeat):
                seat.send(stream.board())
            seat.send(stream.game_over(close.winner, close.end_reason, close.events, close.decisions))
            seat.send(p.Close("game over"))
        except (SeatGone, ProgramTimeout):
            pass
    seats_text = [f"{info.agent}/{deck.name}" for info, deck in zip(header.players, header.decks, strict=True)]
    digest = table._writer.digest
    return GameResult(
        header.game_id,
        close.winner,
        close.end_reason,
        close.events,
        close.decisions,
        close.turns,
        digest,
        seats_text,
        str(table.path),
        note,
    )


SeatFactory = Callable[[int, Ruleset[Any]], Seat]


def make_seat(
    spec: str,
    player: int,
    ruleset: Ruleset[Any],
    header: Any,
    rng: Rng,
    human: SeatFactory | None,
    timeout: float = DECISION_TIMEOUT,
) -> Seat:
    """``human``, ``external:COMMAND`` (answering within ``timeout`` seconds) or the name of one of the ruleset's
    bots."""
    if spec == "human":
        if human is None:
            raise SimulationError("a human seat needs a client: run the game with annals play")
        return human(player, ruleset)
    if spec.startswith("external:"):
        return ExternalSeat(spec.removeprefix("external:"), timeout=timeout)
    bots = ruleset.agents()
    if spec not in bots:
        raise UnknownChoiceError(
            "player",
            spec,
            [*sorted(bots), "human"],
            choices=f"use human, external:COMMAND or one of: {', '.join(sorted(bots))}",
        )
    return BotSeat(bots[spec](player, rng), SeatStream(ruleset, header, player))


class LogExistsError(AnnalsError, FileExistsError):
    """A game would be written over an existing log."""


def fresh_seed() -> int:
    """A seed for a game people play: 63 random bits from ``secrets`` (never a default like 1)."""
    return secrets.randbits(63)


def ensure_new(out: Path) -> None:
    """``LogExistsError`` (naming a free name) when a file is at ``out``: a game log is never overwritten; a
    folder there, or a folder that does not exist, is a ``PathError`` (``schemas.files.output_file``)."""
    output_file(out, what="--out", exists_ok=True)  # the message below names a free name
    if os.path.lexists(out):
        raise LogExistsError(
            f"{out} already exists and a game log is never overwritten; choose another --out, such as {unused(out)}"
        )


def _seat_decks(ruleset: Ruleset[Any], names: Sequence[str], files: Sequence[Path | None]) -> list[DeckList]:
    shipped = ruleset.decks()
    decks: list[DeckList] = []
    for seat in range(2):
        file = files[seat] if seat < len(files) else None
        if file is not None:
            decks.append(read_deck_list(file, ruleset.schema.name))
            continue
        name = names[seat] if seat < len(names) else ""
        if not name:
            raise SimulationError(f"seat {seat} has no deck: name one with --decks or give a --deck-file")
        if name not in shipped:
            raise UnknownChoiceError("deck", name, sorted(shipped))
        decks.append(shipped[name])
    return decks


def people_header(
    ruleset: Ruleset[Any],
    decks: list[DeckList],
    players: list[PlayerInfo],
    seed: int,
    *,
    tournament: TournamentInfo | None = None,
    max_turns: int = 0,
) -> LogHeader:
    """The header of a game people play: its seed as given, a fresh creation nonce, so its id is its own."""
    check_seed(seed)
    check_max_turns(max_turns)
    return header_for(ruleset, seed, players, decks, tournament, max_turns, nonce=secrets.token_hex(8))


def _close_all(seats: Sequence[Seat]) -> None:
    for seat in seats:
        if isinstance(seat, ExternalSeat):
            seat.close()


def _check_programs(players: Sequence[str], timeout: float) -> None:
    """Every ``external:`` command names an executable, and the time limit is sane: checked before anything
    starts or the log is opened."""
    if not 0 < timeout <= MAX_TIMEOUT:
        raise BadTimeoutError(
            f"--timeout {timeout:g} is outside 0 .. {MAX_TIMEOUT:g} seconds; give a positive number of seconds"
        )
    for spec in players:
        if spec.startswith("external:"):
            parse_command(spec.removeprefix("external:"))


@contextlib.contextmanager
def _terminated_as_exit() -> Iterator[None]:
    """SIGTERM ends the game like ^C does (the log keeps every decision, the programs are ended), not abruptly."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def play_live(
    ruleset_name: str,
    decks: list[str] | None,
    players: list[str],
    seed: int | None,
    out: Path | None,
    *,
    names: Sequence[str] = (),
    deck_files: Sequence[Path | None] = (),
    tournament: TournamentInfo | None = None,
    human: SeatFactory | None = None,
    max_turns: int = 0,
    bank_ms: int = 0,
    timeout: float = DECISION_TIMEOUT,
) -> GameResult:
    """One game with people, programs or bots in the seats, recorded live (every decision written at once).

    ``decks`` names shipped decks, seat by seat (None: the ruleset's ``default_decks()``); a seat's entry in
    ``deck_files`` (a deck list file) replaces it. ``names`` names the seats (an empty name: the agent and seat,
    ``human-0``). ``seed`` None draws a fresh one. ``out`` None writes a new file in ``default_games()`` named as
    ``simulate`` names its logs (the path is ``GameResult.path``); an existing file at ``out`` is never replaced:
    ``LogExistsError`` names a free name instead. ``human`` makes a person's seat (the terminal client,
    ``clients.terminal.human_seat``); ``bank_ms`` is each seat's time bank (0: no clock); ``timeout`` is what an
    external program has per decision.

    Everything is checked before a program starts or the log is opened: the seats (an ``external:`` command must
    name an executable), the decks, the seed, the output path and the time limit."""
    if out is not None:
        ensure_new(out)
    ruleset = get_ruleset(ruleset_name)
    _check_programs(players, timeout)
    if len(names) > len(players):  # a third name was dropped without a word
        raise PairError(f"give a name per seat, {len(players)} separated by a comma (got {','.join(names)!r})")
    if not 0 <= bank_ms <= MAX_CLOCK_S * 1000:  # a negative bank ran a clock never out; a huge one broke the log
        raise BadClockError(f"--clock {bank_ms // 1000} is outside 0 .. {MAX_CLOCK_S} seconds; 0 means no clock")
    kinds = ["human" if p == "human" else "external" if p.startswith("external:") else p for p in players]
    pick("bots", kinds, sorted([*ruleset.agents(), "human", "external"]))
    seats_info = [
        PlayerInfo(names[i] if i < len(names) and names[i] else f"{kind}-{i}", kind) for i, kind in enumerate(kinds)
    ]
    deck_names = default_decks(ruleset) if decks is None and not any(deck_files) else (decks or [])
    header = people_header(
        ruleset, _seat_decks(ruleset, deck_names, deck_files), seats_info, fresh_seed() if seed is None else seed,
        tournament=tournament, max_turns=max_turns,
    )  # fmt: skip
    seats: list[Seat] = []
    with _terminated_as_exit():
        try:
            for i, (spec, rng) in enumerate(zip(players, seat_rngs(header), strict=True)):
                seats.append(make_seat(spec, i, ruleset, header, rng, human, timeout))
            if out is None:
                out = unused(default_games() / log_name(header))
                out.parent.mkdir(parents=True, exist_ok=True)
            return run_table(LiveTable(ruleset, header, out, bank_ms=bank_ms), seats)
        except SeatLeft as left:
            left.path = out  # the log to resume: the caller may not have named it
            raise
        finally:
            _close_all(seats)


def resume_live(
    path: Path,
    players: list[str],
    *,
    human: SeatFactory | None = None,
    key: SigningKey | None = None,
    timeout: float = DECISION_TIMEOUT,
) -> GameResult:
    """Play on a log that stops before its end (after a judge's backup, or a crash) with these seats, appending
    to it live (``judge.resume_table``); with ``key`` the log is signed at the end."""
    with LogReader(path) as reader:
        header = reader.header
    ruleset = get_ruleset(header.ruleset)
    if len(players) != len(header.players):
        raise SimulationError(f"give {len(header.players)} players separated by a comma (got {','.join(players)!r})")
    _check_programs(players, timeout)
    table = resume_table(path)
    seats: list[Seat] = []
    with _terminated_as_exit():
        try:
            for i, (spec, rng) in enumerate(zip(players, seat_rngs(header), strict=True)):
                seats.append(make_seat(spec, i, ruleset, table.header, rng, human, timeout))
            result = run_table(table, seats)
        except SeatLeft as left:
            left.path = path
            raise
        finally:
            _close_all(seats)
    sign_log(path, key)
    return result
