"""An event folder: the only I/O of the tournament code. Every file is written whole, atomically, once or replaced.

Layout (all JSON but the deck lists and logs)::

    event.json                          the configuration (EventConfig)
    event.key                           the event's Ed25519 private key (PKCS#8 PEM, mode 0600): signs every log
    event.pub                           its public key, for anyone checking a log: annals verify LOG --key event.pub
    players.json                        registrations and drops (list of Player), replaced on each change
    decks/PLAYER.txt                    each deck list as registered
    rounds/round-NN.json                a round's pairings, written before its first match is played
    matches/round-NN/table-NNN.json     a finished match (MatchRecord), written once
    logs/round-NN/table-NNN-game-G.log  every game's log
    torn/...                            a game log cut short by a crash, moved aside (never overwritten) and replayed

A write goes to a temporary file in the same folder, is fsynced, then renamed over the target and the folder
fsynced: a kill at any moment leaves either the old file or the new one, never half of one. State is a function
of these files only, so ``event run`` resumes by reading them.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from annals.schemas.errors import AnnalsError, BadArgumentError
from annals.schemas.event import EventConfig, MatchRecord, Player, Round
from annals.schemas.files import PathError, read_regular
from annals.schemas.keys import (
    EVENT_KEY_NAME,
    PublicKey,
    SigningKey,
    create_key_file,
    load_public_key,
    load_signing_key,
)

T = TypeVar("T")
EVENT_FILE = "event.json"
PUBLIC_KEY_FILE = "event.pub"

MAX_EVENT_FILE_BYTES = 64 << 20  # the event file, a round, the players: KiB each even for a large event


class EventError(AnnalsError, ValueError):
    """An event folder or an action on it is not valid: the message says what and how to fix it."""


class EventArgumentError(EventError, BadArgumentError):
    """An option value no event can take (``--best-of 2``, ``--top 6``, a bot the ruleset does not have): a usage
    error, exit 2."""


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that a crash leaves the old content or the new, whole."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _encode(value: Any) -> bytes:
    return msgspec.json.format(msgspec.json.encode(value), indent=2) + b"\n"


def new_event_id(name: str) -> str:
    return f"{name}-{secrets.token_hex(4)}"


class EventStore:
    """Reads and writes one event folder."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)

    # ------------------------------------------------------------ creation and configuration

    @classmethod
    def create(cls, folder: Path, config: EventConfig) -> EventStore:
        folder = Path(folder)
        if (folder / EVENT_FILE).exists():
            raise EventError(f"{folder} already holds an event; choose another folder (nothing was changed)")
        if folder.exists() and any(folder.iterdir()):
            raise EventError(f"{folder} exists and is not empty; give a new or empty folder for the event")
        store = cls(folder)
        folder.mkdir(parents=True, exist_ok=True)
        key = create_key_file(folder / EVENT_KEY_NAME, config.event_id)
        atomic_write(folder / PUBLIC_KEY_FILE, key.public.pem().encode())
        atomic_write(folder / "players.json", _encode([]))
        atomic_write(folder / EVENT_FILE, _encode(config))  # last: a folder with event.json is a whole event
        return store

    @classmethod
    def open(cls, folder: Path) -> EventStore:
        folder = Path(folder)
        if not (folder / EVENT_FILE).is_file():
            raise EventError(f"{folder} is not an event folder (no {EVENT_FILE}); create one with 'annals event new'")
        return cls(folder)

    def _read(self, path: Path, typ: type[T]) -> T:
        try:
            return msgspec.json.decode(read_regular(path, what="event", max_bytes=MAX_EVENT_FILE_BYTES), type=typ)
        except PathError as exc:  # a FIFO, a device or a folder in its place, or a file grown past any event's
            raise EventError(f"{exc}; the event folder was edited, restore the file from a copy") from None
        except (msgspec.ValidationError, msgspec.DecodeError, RecursionError) as exc:
            raise EventError(f"{path}: {exc}; the file was edited or damaged, restore it from a copy") from None

    def signing_key(self) -> SigningKey:
        """The event's private key, which signs every finished game log (refused if others can read it)."""
        return load_signing_key(self.folder / EVENT_KEY_NAME)

    @property
    def public_key_path(self) -> Path:
        return self.folder / PUBLIC_KEY_FILE

    def public_key(self) -> PublicKey:
        return load_public_key(self.public_key_path)

    def config(self) -> EventConfig:
        return self._read(self.folder / EVENT_FILE, EventConfig)

    def save_config(self, config: EventConfig) -> None:
        atomic_write(self.folder / EVENT_FILE, _encode(config))

    # ------------------------------------------------------------ players

    def players(self) -> list[Player]:
        return self._read(self.folder / "players.json", list[Player])

    def save_players(self, players: list[Player]) -> None:
        atomic_write(self.folder / "players.json", _encode(players))

    def deck_path(self, player_id: str) -> Path:
        return self.folder / "decks" / f"{player_id}.txt"

    def save_deck_text(self, player_id: str, text: str) -> str:
        path = self.deck_path(player_id)
        atomic_write(path, text.encode())
        return str(path.relative_to(self.folder))

    # ------------------------------------------------------------ rounds and matches

    def round_path(self, number: int) -> Path:
        return self.folder / "rounds" / f"round-{number:02d}.json"

    def rounds(self) -> list[Round]:
        out: list[Round] = []
        while self.round_path(len(out) + 1).is_file():
            out.append(self._read(self.round_path(len(out) + 1), Round))
        return out

    def save_round(self, r: Round) -> None:
        path = self.round_path(r.number)
        if path.exists():
            raise EventError(f"{path} exists: round {r.number} is already paired")
        atomic_write(path, _encode(r))

    def match_path(self, number: int, table: int) -> Path:
        return self.folder / "matches" / f"round-{number:02d}" / f"table-{table:03d}.json"

    def match(self, number: int, table: int) -> MatchRecord | None:
        path = self.match_path(number, table)
        return self._read(path, MatchRecord) if path.is_file() else None

    def save_match(self, record: MatchRecord, *, replace: bool = False) -> None:
        path = self.match_path(record.round, record.table)
        if path.exists() and not replace:
            raise EventError(f"{path} exists: round {record.round} table {record.table} is already recorded")
        atomic_write(path, _encode(record))

    def matches(self) -> list[MatchRecord]:
        """Every finished match, in round then table order."""
        out: list[MatchRecord] = []
        for r in self.rounds():
            for p in r.pairings:
                m = self.match(r.number, p.table)
                if m is not None:
                    out.append(m)
        return out

    def log_path(self, number: int, table: int, game: int) -> Path:
        return self.folder / "logs" / f"round-{number:02d}" / f"table-{table:03d}-game-{game}.log"

    def sweep(self) -> int:
        """Remove the temporary files a kill left half-written (never a finished file): how many were removed."""
        stale = [p for p in self.folder.rglob(".*.tmp") if p.is_file()]
        for p in stale:
            p.unlink()
        return len(stale)

    def set_aside(self, path: Path) -> Path:
        """Move a torn log out of the way under ``torn/`` (a new name if taken): it is kept, never overwritten."""
        rel = path.relative_to(self.folder / "logs")
        target = self.folder / "torn" / rel
        k = 1
        while target.exists():
            target = self.folder / "torn" / rel.with_name(f"{rel.stem}.{k}{rel.suffix}")
            k += 1
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, target)
        return target
