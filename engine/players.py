"""Agents for players outside the engine: a person at a terminal, and an external program over JSON lines.

Both see the game only through their own view: every event passes through ``Ruleset.redact`` for their seat
before they are shown it, so the opponent's hand and face-down cards stay hidden.

The JSON-lines protocol (one JSON object per line, the engine writes to the program's stdin and reads its stdout):

* engine → program ``{"event": {"kind": "Drew", "n": 12, "turn": 2, "step": "dawn", "player": 0, ...}}``;
* engine → program ``{"decide": {"player": 0, "point": "commit", "options": [{"kind": "Pass"}, ...]}}``;
* program → engine ``{"choose": 3}``, the index of the chosen option.

The events since a seat's last decision are sent just before its next question (and the last ones when the game
ends, before its input is closed). A program has ``DECISION_TIMEOUT`` seconds (``annals play --timeout``) from
the question to its answer line; out of time, it forfeits: the game ends, the other seat wins, end reason
``timeout``. An answer line may be at most 1 MiB. After the game the program's stdin is closed; it should exit
within two seconds, or it is sent SIGTERM, then SIGKILL (its whole process group).
"""

from __future__ import annotations

import contextlib
import json
import secrets
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from annals.engine import ENGINE_VERSION
from annals.engine.core import DecisionPoint, Ruleset
from annals.engine.decks import read_deck_list
from annals.engine.external import EXIT_GRACE, ChildProgram, ExternalProgramError, ProgramTimeout, parse_command, quoted
from annals.engine.judge import resume
from annals.engine.registry import get_ruleset
from annals.engine.rng import Rng
from annals.engine.runner import TIMEOUT_REASON, GameResult, SeatForfeit, finalize_header, play
from annals.engine.simulate import (
    SimulationError,
    UnknownChoiceError,
    check_max_turns,
    check_seed,
    default_decks,
    log_name,
    pick,
    seat_rngs,
)  # fmt: skip
from annals.schemas.errors import AnnalsError, IllegalDecisionError
from annals.schemas.files import default_games, output_file, unused
from annals.schemas.header import DeckList, LogHeader, PlayerInfo, TournamentInfo
from annals.schemas.keys import SigningKey
from annals.schemas.logfile import FORMAT_VERSION, LogReader
from annals.schemas.text import describe_event

DECISION_TIMEOUT = 30.0  # seconds an external program has to answer one decision
MAX_TIMEOUT = 24 * 3600.0


def as_json(record: Any) -> dict[str, Any]:
    """A Struct as a readable dict with its kind (array-like Structs would otherwise encode as bare arrays)."""
    fields = {name: getattr(record, name) for name in record.__struct_fields__}
    return {"kind": type(record).__name__, **fields}


class TerminalAgent:
    """A person choosing by number; what happened since their last choice is printed first (their view)."""

    def __init__(self, player: int, ruleset: Ruleset[Any], stdin: IO[str], stdout: IO[str]):
        self.player = player
        self._ruleset = ruleset
        self._in, self._out = stdin, stdout
        self._unseen: list[Any] = []

    def observe(self, event: Any) -> None:
        self._unseen.append(self._ruleset.redact(event, self.player))

    def choose(self, state: Any, point: DecisionPoint[Any]) -> Any:
        for event in self._unseen:
            print(describe_event(event), file=self._out)
        self._unseen.clear()
        print(f"\np{self.player}, {point.point}: choose one", file=self._out)
        for i, option in enumerate(point.options):
            fields = " ".join(f"{k}={v!r}" for k, v in as_json(option).items() if k != "kind")
            print(f"  {i:>3}  {type(option).__name__} {fields}", file=self._out)
        while True:
            print("> ", end="", file=self._out, flush=True)
            line = self._in.readline()
            if not line:
                raise IllegalDecisionError(f"player {self.player}'s input ended at {point.point!r} before a choice")
            text = line.strip()
            if text.isdigit() and int(text) < len(point.options):
                return point.options[int(text)]
            print(f"  {text!r} is not an option: type a number from 0 to {len(point.options) - 1}", file=self._out)


class ExternalAgent:
    """A program that plays one seat over the JSON-lines protocol in this module's docstring.

    Every exchange happens when the seat is asked to decide: the events since its last decision, then the question,
    then its answer, all within ``timeout`` seconds (``engine.external``: bounded waits, bounded lines). A program
    out of time forfeits (``SeatForfeit``: the game ends, its seat loses, end reason ``timeout``); one that closes
    a pipe, exits, floods or answers nonsense raises ``ExternalProgramError`` or ``IllegalDecisionError``.
    """

    def __init__(self, player: int, ruleset: Ruleset[Any], command: str, *, timeout: float = DECISION_TIMEOUT):
        self.player = player
        self._ruleset = ruleset
        self._command = command
        self._program = ChildProgram(parse_command(command), command, timeout=timeout)
        self._pending: list[bytes] = []

    def _line(self, message: dict[str, Any]) -> bytes:
        return json.dumps(message).encode() + b"\n"

    def observe(self, event: Any) -> None:
        self._pending.append(self._line({"event": as_json(self._ruleset.redact(event, self.player))}))

    def _flush(self, timeout: float | None = None, at: str = "") -> None:
        lines, self._pending = b"".join(self._pending), []
        self._program.send(lines, timeout, at=at)

    def choose(self, state: Any, point: DecisionPoint[Any]) -> Any:
        options = [as_json(option) for option in point.options]
        self._pending.append(self._line({"decide": {"player": point.player, "point": point.point, "options": options}}))
        try:
            self._flush(at=point.point)
            line = self._program.read_line(at=point.point)
        except ProgramTimeout as exc:
            raise SeatForfeit(self.player, TIMEOUT_REASON, f"{exc} at {point.point!r}; its seat loses") from None
        try:
            index = json.loads(line)["choose"]
            if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(point.options):
                raise ValueError(index)
        except (ValueError, KeyError, TypeError):
            raise IllegalDecisionError(
                f"external player {self._command!r} answered {quoted(line)} at {point.point!r}; expected a line "
                f'like {{"choose": N}} with 0 <= N < {len(point.options)}'
            ) from None
        return point.options[index]

    def close(self) -> None:
        """Send the last events (the end of the game), close its input and end the program (see ``ChildProgram``)."""
        if self._pending:
            with contextlib.suppress(ExternalProgramError):
                self._flush(timeout=min(self._program.timeout, EXIT_GRACE))
        self._program.close()


def make_agent(
    spec: str,
    player: int,
    ruleset: Ruleset[Any],
    rng: Rng,
    stdin: IO[str],
    stdout: IO[str],
    *,
    timeout: float = DECISION_TIMEOUT,
) -> Any:
    """``human``, ``external:COMMAND`` or the name of one of the ruleset's bots."""
    if spec == "human":
        return TerminalAgent(player, ruleset, stdin, stdout)
    if spec.startswith("external:"):
        return ExternalAgent(player, ruleset, spec.removeprefix("external:"), timeout=timeout)
    bots = ruleset.agents()
    if spec not in bots:
        raise UnknownChoiceError(
            "player",
            spec,
            [*sorted(bots), "human"],
            choices=f"use human, external:COMMAND or one of: {', '.join(sorted(bots))}",
        )
    return bots[spec](player, rng)


class LogExistsError(AnnalsError, FileExistsError):
    """A game would be written over an existing log."""


def fresh_seed() -> int:
    """A seed for a game people play: 63 random bits from ``secrets`` (never a default like 1)."""
    return secrets.randbits(63)


def ensure_new(out: Path) -> None:
    """``LogExistsError`` (naming a free name) when a file is at ``out``: a game log is never overwritten; a
    folder there, or a folder that does not exist, is a ``PathError`` (``schemas.files.output_file``)."""
    output_file(out, what="--out")
    if out.exists():
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
    return finalize_header(
        LogHeader(
            format_version=FORMAT_VERSION,
            engine_version=ENGINE_VERSION,
            ruleset=ruleset.schema.name,
            ruleset_version=ruleset.schema.version,
            card_pool_hash=ruleset.card_pool_hash(),
            seed=seed,
            players=players,
            decks=decks,
            tournament=tournament,
            max_turns=max_turns,
            nonce=secrets.token_hex(8),
        )
    )


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
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
    timeout: float = DECISION_TIMEOUT,
) -> GameResult:
    """One game with people, programs or bots in the seats, recorded live (every decision written at once).

    ``decks`` names shipped decks, seat by seat (None: the ruleset's ``default_decks()``); a seat's entry in
    ``deck_files`` (a deck list file) replaces it. ``names`` names the seats (an empty name: the agent and seat,
    ``human-0``). ``seed`` None draws a fresh one. ``out`` None writes a new file in ``default_games()`` named as
    ``simulate`` names its logs (the path is ``GameResult.path``); an existing file at ``out`` is never replaced:
    ``LogExistsError`` names a free name instead.

    Everything is checked before a program starts or the log is opened: the seats (an ``external:`` command must
    name an executable), the decks, the seed, the output path and the time limit.
    """
    if out is not None:
        ensure_new(out)
    ruleset = get_ruleset(ruleset_name)
    if not 0 < timeout <= MAX_TIMEOUT:
        raise ExternalProgramError(
            f"--timeout {timeout:g} is outside 0 .. {MAX_TIMEOUT:g} seconds; give a positive number of seconds"
        )
    kinds = ["human" if p == "human" else "external" if p.startswith("external:") else p for p in players]
    pick("bots", kinds, sorted([*ruleset.agents(), "human", "external"]))
    seats = [
        PlayerInfo(names[i] if i < len(names) and names[i] else f"{kind}-{i}", kind) for i, kind in enumerate(kinds)
    ]
    deck_names = default_decks(ruleset) if decks is None and not any(deck_files) else (decks or [])
    header = people_header(
        ruleset, _seat_decks(ruleset, deck_names, deck_files), seats, fresh_seed() if seed is None else seed,
        tournament=tournament,
    )  # fmt: skip
    for spec in players:
        if spec.startswith("external:"):
            parse_command(spec.removeprefix("external:"))
    agents: list[Any] = []
    with _terminated_as_exit():
        try:
            for i, (spec, rng) in enumerate(zip(players, seat_rngs(header), strict=True)):
                agents.append(
                    make_agent(spec, i, ruleset, rng, stdin or sys.stdin, stdout or sys.stdout, timeout=timeout)
                )
            if out is None:
                out = unused(default_games() / log_name(header))
                out.parent.mkdir(parents=True, exist_ok=True)
            return play(ruleset, header, agents, out, live=True)
        finally:
            for agent in agents:
                if isinstance(agent, ExternalAgent):
                    agent.close()


def resume_live(
    path: Path,
    players: list[str],
    *,
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
    key: SigningKey | None = None,
    timeout: float = DECISION_TIMEOUT,
) -> GameResult:
    """Play on a log that stops before its end (after a judge's backup, or a crash) with these seats, appending
    to it live; with ``key`` the log is signed at the end."""
    with LogReader(path) as reader:
        header = reader.header
    ruleset = get_ruleset(header.ruleset)
    if len(players) != len(header.players):
        raise SimulationError(f"give {len(header.players)} players separated by a comma (got {','.join(players)!r})")
    for spec in players:
        if spec.startswith("external:"):
            parse_command(spec.removeprefix("external:"))
    agents: list[Any] = []
    with _terminated_as_exit():
        try:
            for i, (spec, rng) in enumerate(zip(players, seat_rngs(header), strict=True)):
                agents.append(
                    make_agent(spec, i, ruleset, rng, stdin or sys.stdin, stdout or sys.stdout, timeout=timeout)
                )
            return resume(path, agents, key=key)
        finally:
            for agent in agents:
                if isinstance(agent, ExternalAgent):
                    agent.close()
