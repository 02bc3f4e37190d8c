"""Seats of a local live game: bots, external programs over JSON lines, and a person (the terminal client).

Every seat speaks the protocol of ``schemas.protocol`` (see there, and ``schemas/protocol.schema.json``): it is
sent ``hello``, each ``event`` of its own view, a ``decide`` when it must choose, ``error`` when its message cannot
be taken (then the same ``decide`` again), ``game_over`` and ``close``; it answers ``answer`` or ``concede``. An
external program gets these messages as JSON lines on its stdin and writes its own on its stdout; a bot gets only
its seat's view (``SeatView``: the state folded from the events it was sent), never the game's state.

``run_table`` is the loop of a local table (``annals play``); ``annals serve`` runs the same table over WebSocket.
"""

from __future__ import annotations

import contextlib
import shlex
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from annals.engine.core import Agent, DecisionPoint, Ruleset
from annals.engine.registry import get_ruleset
from annals.engine.rng import Rng
from annals.engine.runner import GameResult
from annals.engine.seats import SeatStream
from annals.engine.simulate import SimulationError, make_header, seat_rngs
from annals.engine.table import LiveTable
from annals.schemas import protocol as p
from annals.schemas.errors import AnnalsError, IllegalDecisionError
from annals.schemas.records import CONCESSION_REASON

MAX_BAD_ANSWERS = 5  # a local seat that cannot answer after this many errors in a row stops the game


class SeatGone(AnnalsError, ConnectionError):
    """A seat's connection ended (a program's stdout closed, a person's input ended)."""


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


class ExternalSeat:
    """A program that plays one seat over JSON lines on its stdin/stdout."""

    def __init__(self, command: str):
        self.command = command
        try:
            self._proc = subprocess.Popen(
                shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0
            )
        except OSError as exc:
            raise SimulationError(f"cannot start external player {command!r}: {exc}") from None

    def send(self, message: p.ServerMessage) -> None:
        assert self._proc.stdin is not None
        try:
            self._proc.stdin.write(p.encode(message) + b"\n")
        except BrokenPipeError:
            raise SeatGone(f"external player {self.command!r} closed its input") from None

    def receive(self) -> p.ClientMessage:
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline(p.MAX_MESSAGE_BYTES + 1)
        if not line:
            raise SeatGone(f"external player {self.command!r} ended its output without an answer")
        if len(line) > p.MAX_MESSAGE_BYTES:
            while line and not line.endswith(b"\n"):  # skip the rest of the long line
                line = self._proc.stdout.readline(p.MAX_MESSAGE_BYTES)
            raise p.ProtocolError(p.TOO_LONG, f"a line longer than {p.MAX_MESSAGE_BYTES} bytes")
        return p.decode_client(line)

    def close(self) -> None:
        if self._proc.stdin is not None:
            with contextlib.suppress(BrokenPipeError):
                self._proc.stdin.close()
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()


def ask(table: LiveTable, seat: Seat, decide: p.Decide) -> None:
    """Put one decision to a seat until it answers one of the options (or concedes)."""
    bad = 0
    while True:
        seat.send(decide)
        try:
            reply = seat.receive()
        except p.ProtocolError as exc:
            seat.send(p.Error(exc.code, str(exc), decide.decision))
        else:
            if type(reply) is p.Concede:
                table.forfeit(decide.player, CONCESSION_REASON)
                return
            assert type(reply) is p.Answer
            if reply.decision not in (-1, decide.decision):
                code, text = p.NOT_YOUR_DECISION, f"decision {reply.decision} is not the one asked ({decide.decision})"
            else:
                try:
                    table.answer(reply.choose)
                    return
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
    for seat, stream in zip(seats, streams, strict=True):
        seat.send(stream.hello(table.clocks()))
    try:
        while (point := table.question()) is not None:
            for other, stream in zip(seats, streams, strict=True):
                if not isinstance(other, BotSeat):
                    other.send(stream.board())
            seat = seats[point.player]
            if isinstance(seat, BotSeat):
                seat.point = point
            ask(table, seat, streams[point.player].decide(table.game.decision_count, point, table.clocks()))
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
        except SeatGone:
            pass
    seats_text = [f"{info.agent}/{deck.name}" for info, deck in zip(header.players, header.decks, strict=True)]
    digest = table._writer.digest
    return GameResult(
        header.game_id, close.winner, close.end_reason, close.events, close.decisions, close.turns, digest, seats_text
    )


SeatFactory = Callable[[int, Ruleset[Any]], Seat]


def make_seat(spec: str, player: int, ruleset: Ruleset[Any], header: Any, rng: Rng, human: SeatFactory | None) -> Seat:
    """``human``, ``external:COMMAND`` or the name of one of the ruleset's bots."""
    if spec == "human":
        if human is None:
            raise SimulationError("a human seat needs a client: run the game with annals play")
        return human(player, ruleset)
    if spec.startswith("external:"):
        return ExternalSeat(spec.removeprefix("external:"))
    bots = ruleset.agents()
    if spec not in bots:
        raise SimulationError(
            f"unknown player {spec!r}; use human, external:COMMAND or one of: {', '.join(sorted(bots))}"
        )
    return BotSeat(bots[spec](player, rng), SeatStream(ruleset, header, player))


def play_live(
    ruleset_name: str,
    decks: list[str],
    players: list[str],
    seed: int,
    out: Path,
    *,
    human: SeatFactory | None = None,
    max_turns: int | None = None,
    bank_ms: int = 0,
) -> GameResult:
    """One game with people, programs or bots in the seats, recorded live (every decision written at once)."""
    ruleset = get_ruleset(ruleset_name)
    kinds = ["human" if p == "human" else "external" if p.startswith("external:") else p for p in players]
    cap = ruleset.default_max_turns if max_turns is None else max_turns
    header = make_header(
        ruleset, seed, decks, kinds, known_agents=[*ruleset.agents(), "human", "external"], max_turns=cap
    )
    seats: list[Seat] = []
    try:
        for i, (spec, rng) in enumerate(zip(players, seat_rngs(header), strict=True)):
            seats.append(make_seat(spec, i, ruleset, header, rng, human))
        return run_table(LiveTable(ruleset, header, out, bank_ms=bank_ms), seats)
    finally:
        for seat in seats:
            if isinstance(seat, ExternalSeat):
                seat.close()
