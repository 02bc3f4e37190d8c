"""Agents for players outside the engine: a person at a terminal, and an external program over JSON lines.

Both see the game only through their own view: every event passes through ``Ruleset.redact`` for their seat
before they are shown it, so the opponent's hand and face-down cards stay hidden.

The JSON-lines protocol (one JSON object per line, the engine writes to the program's stdin and reads its stdout):

* engine → program ``{"event": {"kind": "Drew", "n": 12, "turn": 2, "step": "dawn", "player": 0, ...}}``;
* engine → program ``{"decide": {"player": 0, "point": "commit", "options": [{"kind": "Pass"}, ...]}}``;
* program → engine ``{"choose": 3}``, the index of the chosen option.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from annals.engine import ENGINE_VERSION
from annals.engine.core import DecisionPoint, Ruleset
from annals.engine.decks import read_deck_list
from annals.engine.judge import resume
from annals.engine.registry import get_ruleset
from annals.engine.rng import Rng
from annals.engine.runner import GameResult, finalize_header, play
from annals.engine.simulate import SimulationError, UnknownChoiceError, default_decks, log_name, pick, seat_rngs
from annals.schemas.errors import AnnalsError, IllegalDecisionError
from annals.schemas.files import default_games, unused
from annals.schemas.header import DeckList, LogHeader, PlayerInfo, TournamentInfo
from annals.schemas.keys import SigningKey
from annals.schemas.logfile import FORMAT_VERSION, LogReader
from annals.schemas.text import describe_event


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


class ExternalPlayerError(AnnalsError, RuntimeError):
    """An external player's program could not start, or exited before the game was over."""


class ExternalAgent:
    """A program that plays one seat over the JSON-lines protocol in this module's docstring.

    Its stderr goes to a temporary file, so that when it exits early the error can quote its last line.
    """

    def __init__(self, player: int, ruleset: Ruleset[Any], command: str):
        self.player = player
        self._ruleset = ruleset
        self._command = command
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed by close()
        try:
            self._proc = subprocess.Popen(
                shlex.split(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                text=True,
                bufsize=1,
            )
        except (OSError, ValueError) as exc:
            self._stderr.close()
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise ExternalPlayerError(
                f"external player {command!r} could not start: {reason}; check the program's name and path"
            ) from None

    def _exited(self, at: str) -> ExternalPlayerError:
        """The error for a program that stopped answering: its exit status and the last line it wrote to stderr."""
        try:
            status = self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            return ExternalPlayerError(f"external player {self._command!r} closed its output at {at!r}")
        self._stderr.seek(0)
        lines = [line.strip() for line in self._stderr.read().decode(errors="replace").splitlines() if line.strip()]
        said = f"; its last stderr line: {lines[-1]}" if lines else " (nothing on stderr)"
        return ExternalPlayerError(f"external player {self._command!r} exited with status {status} at {at!r}{said}")

    def _send(self, message: dict[str, Any]) -> None:
        assert self._proc.stdin is not None
        try:
            self._proc.stdin.write(json.dumps(message) + "\n")
        except (BrokenPipeError, ValueError):  # ValueError: its stdin was already closed after an earlier failure
            at = message["event"]["kind"] if "event" in message else message["decide"]["point"]
            raise self._exited(at) from None

    def observe(self, event: Any) -> None:
        self._send({"event": as_json(self._ruleset.redact(event, self.player))})

    def choose(self, state: Any, point: DecisionPoint[Any]) -> Any:
        assert self._proc.stdin is not None and self._proc.stdout is not None
        options = [as_json(option) for option in point.options]
        self._send({"decide": {"player": point.player, "point": point.point, "options": options}})
        try:
            self._proc.stdin.flush()
        except BrokenPipeError:
            raise self._exited(point.point) from None
        line = self._proc.stdout.readline()
        if not line:
            raise self._exited(point.point)
        try:
            index = json.loads(line)["choose"]
            if not isinstance(index, int) or not 0 <= index < len(point.options):
                raise ValueError(index)
        except (ValueError, KeyError, TypeError):
            raise IllegalDecisionError(
                f"external player {self._command!r} answered {line.strip()!r} at {point.point!r}; expected a line "
                f'like {{"choose": N}} with 0 <= N < {len(point.options)}'
            ) from None
        return point.options[index]

    def close(self) -> None:
        if self._proc.stdin is not None:
            with contextlib.suppress(BrokenPipeError):  # it exited with input still buffered
                self._proc.stdin.close()
        self._proc.wait(timeout=10)
        self._stderr.close()


def make_agent(spec: str, player: int, ruleset: Ruleset[Any], rng: Rng, stdin: IO[str], stdout: IO[str]) -> Any:
    """``human``, ``external:COMMAND`` or the name of one of the ruleset's bots."""
    if spec == "human":
        return TerminalAgent(player, ruleset, stdin, stdout)
    if spec.startswith("external:"):
        return ExternalAgent(player, ruleset, spec.removeprefix("external:"))
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
    """``LogExistsError`` (naming a free name) when a file is at ``out``: a game log is never overwritten."""
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
) -> GameResult:
    """One game with people, programs or bots in the seats, recorded live (every decision written at once).

    ``decks`` names shipped decks, seat by seat (None: the ruleset's ``default_decks()``); a seat's entry in
    ``deck_files`` (a deck list file) replaces it. ``names`` names the seats (an empty name: the agent and seat,
    ``human-0``). ``seed`` None draws a fresh one. ``out`` None writes a new file in ``default_games()`` named as
    ``simulate`` names its logs (the path is ``GameResult.path``); an existing file at ``out`` is never replaced:
    ``LogExistsError`` names a free name instead."""
    if out is not None:
        ensure_new(out)
    ruleset = get_ruleset(ruleset_name)
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
    agents: list[Any] = []
    try:
        for i, (spec, rng) in enumerate(zip(players, seat_rngs(header), strict=True)):
            agents.append(make_agent(spec, i, ruleset, rng, stdin or sys.stdin, stdout or sys.stdout))
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
) -> GameResult:
    """Play on a log that stops before its end (after a judge's backup, or a crash) with these seats, appending
    to it live; with ``key`` the log is signed at the end."""
    with LogReader(path) as reader:
        header = reader.header
    ruleset = get_ruleset(header.ruleset)
    if len(players) != len(header.players):
        raise SimulationError(f"give {len(header.players)} players separated by a comma (got {','.join(players)!r})")
    agents = [
        make_agent(spec, i, ruleset, rng, stdin or sys.stdin, stdout or sys.stdout)
        for i, (spec, rng) in enumerate(zip(players, seat_rngs(header), strict=True))
    ]
    try:
        return resume(path, agents, key=key)
    finally:
        for agent in agents:
            if isinstance(agent, ExternalAgent):
                agent.close()
