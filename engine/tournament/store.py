"""An event folder: the only I/O of the tournament code. The event is its record; every other file is checked
against it.

Layout::

    event.log                           the record: every act, chained and signed (schemas.eventlog)
    event.key                           the event's Ed25519 private key (PKCS#8 PEM, mode 0600): signs the record
                                        and every game log; its SHA-256 is in the record's first act
    event.pub                           its public key, for anyone checking: annals verify LOG --key event.pub
    decks/PLAYER.txt                    each deck list as registered (its SHA-256 in the registration act)
    logs/round-NN/table-NNN-game-G.log  every game's log (its digest, match and game number in the result act)
    torn/...                            a game log cut short by a crash, moved aside (its SHA-256 recorded)
    desk.token                          the organiser's desk token of ``annals serve --event`` (mode 0600): kept
                                        beside the record, not part of it, never served; deleted, a new one is made

An act is recorded by ``EventStore.acting``: under an exclusive lock on the record, the state is folded from it,
the caller checks and adds acts, and they are appended with a signature in one write, then fsynced. A kill at any
moment leaves the record as it was or with the whole command's acts.
"""

from __future__ import annotations

import contextlib
import datetime
import fcntl
import hashlib
import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from annals.engine.tournament.record import EventError, EventState, apply, fold
from annals.schemas.commandline import quoted
from annals.schemas.event import AnyAct, Created, EventConfig, LogSetAside, MatchRecord, Player, Round
from annals.schemas.eventlog import EventRecord, new_event_log, read_event_log, signed_acts
from annals.schemas.files import PathError, read_regular
from annals.schemas.keys import (
    EVENT_KEY_NAME,
    PublicKey,
    SigningKey,
    create_key_file,
    load_public_key,
    load_signing_key,
)

__all__ = ["EVENT_FILE", "EventError", "EventStore", "atomic_write", "now", "sha256_file"]

EVENT_FILE = "event.log"
PUBLIC_KEY_FILE = "event.pub"
DESK_TOKEN_FILE = "desk.token"

MAX_EVENT_FILE_BYTES = 64 << 20  # the record: about a KiB a match reported, some MiB for the largest event


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


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def now() -> str:
    """The time an act is recorded: UTC, to the second."""
    return datetime.datetime.now(datetime.UTC).replace(microsecond=0).isoformat()


def new_event_id(name: str) -> str:
    return f"{name}-{secrets.token_hex(4)}"


class Acting:
    """One command's acts: ``state`` as recorded so far (updated as acts are added), ``record`` adds one."""

    def __init__(self, state: EventState):
        self.state = state
        self.acts: list[AnyAct] = []

    def record(self, act: AnyAct) -> None:
        apply(self.state, act)
        self.acts.append(act)


class EventStore:
    """Reads and writes one event folder."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self._cache: tuple[tuple[int, int], EventState] | None = None
        # What this store last wrote: the file's (size, mtime) then, its bytes, the record read from them and a
        # SHA-256 of them. A file still so stamped holds exactly those bytes: the next command reads only its own.
        self._written: tuple[tuple[int, int], bytes, EventRecord, Any] | None = None

    @property
    def record_path(self) -> Path:
        return self.folder / EVENT_FILE

    @property
    def typed(self) -> str:
        """The folder as a command names it, for the commands an error or a hint gives to copy."""
        return quoted(str(self.folder))

    # ------------------------------------------------------------ creation

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
        files = {name: sha256_file(folder / name) for name in (PUBLIC_KEY_FILE, EVENT_KEY_NAME)}
        created = Created(at=now(), config=config, key=key.fingerprint, key_files=files)
        raw = new_event_log()
        empty = read_event_log(store.record_path, raw)
        atomic_write(store.record_path, raw + signed_acts(raw, empty, config.event_id, key, [created]))
        return store

    @classmethod
    def open(cls, folder: Path) -> EventStore:
        folder = Path(folder)
        if not (folder / EVENT_FILE).exists():  # something else in its place is refused by name when read
            if (folder / "event.json").is_file():
                raise EventError(
                    f"{folder} holds an event of an earlier annals (event.json, no event record); "
                    "this annals reads events made since the record (event.log): make it again"
                )
            error = EventError(f"{folder} is not an event folder (no {EVENT_FILE}); create one with 'annals event new'")
            raise error if folder.exists() else error.about(folder)
        return cls(folder)

    # ------------------------------------------------------------ the record

    def state(self) -> EventState:
        """The state folded from the record (read again only when the file changed)."""
        st = self.record_path.stat()
        stamp = (st.st_size, st.st_mtime_ns)
        if self._cache is not None and self._cache[0] == stamp:
            return self._cache[1]
        state = fold(read_event_log(self.record_path, self._raw()).acts)
        self._cache = (stamp, state)
        return state

    def _raw(self) -> bytes:
        """The record's bytes: a regular file, of at most ``MAX_EVENT_FILE_BYTES``."""
        try:
            return read_regular(self.record_path, what="record", max_bytes=MAX_EVENT_FILE_BYTES)
        except PathError as exc:  # a FIFO, a device or a folder in its place, or a file grown past any event's
            raise EventError(f"{exc}; the event folder was edited, restore {EVENT_FILE} from a copy") from None

    @contextlib.contextmanager
    def acting(self) -> Iterator[Acting]:
        """Record a command's acts: yields the current state to check and add acts to; on a clean exit they are
        appended and signed in one write (nothing is written if the block raises)."""
        with open(self.record_path, "r+b") as f:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX)
            st = os.fstat(f.fileno())
            if self._written is not None and self._written[0] == (st.st_size, st.st_mtime_ns):
                _, raw, record, sha = self._written
            else:
                raw = self._raw()  # the file locked is the record's: its bytes as read_regular checks them
                record = read_event_log(self.record_path, raw)
                sha = hashlib.sha256(raw)
            acting = Acting(fold(record.acts))
            yield acting
            if not acting.acts:
                return
            key = self.signing_key()
            more = signed_acts(raw, record, acting.state.config.event_id, key, acting.acts, sha=sha)
            f.seek(len(raw))
            f.write(more)
            f.flush()
            os.fsync(f.fileno())
            st = os.fstat(f.fileno())
            raw += more
            sha = sha.copy()
            sha.update(more)
            record = read_event_log(self.record_path, raw, after=record)
            self._written = ((st.st_size, st.st_mtime_ns), raw, record, sha)
            self._cache = ((st.st_size, st.st_mtime_ns), fold(record.acts))

    def signing_key(self) -> SigningKey:
        """The event's private key, which signs the record and every finished game log."""
        return load_signing_key(self.folder / EVENT_KEY_NAME)

    @property
    def public_key_path(self) -> Path:
        return self.folder / PUBLIC_KEY_FILE

    def public_key(self) -> PublicKey:
        return load_public_key(self.public_key_path)

    # ------------------------------------------------------------ views of the state

    def config(self) -> EventConfig:
        return self.state().config

    def players(self) -> list[Player]:
        return self.state().players()

    def rounds(self) -> list[Round]:
        return self.state().round_list()

    def match(self, number: int, table: int) -> MatchRecord | None:
        return self.state().match(number, table)

    def matches(self) -> list[MatchRecord]:
        """Every match with a result (byes included), in round then table order."""
        return self.state().matches()

    # ------------------------------------------------------------ files beside the record

    def deck_path(self, player_id: str) -> Path:
        return self.folder / "decks" / f"{player_id}.txt"

    def save_deck_text(self, player_id: str, text: str) -> str:
        path = self.deck_path(player_id)
        atomic_write(path, text.encode())
        return str(path.relative_to(self.folder))

    def log_path(self, number: int, table: int, game: int) -> Path:
        return self.folder / "logs" / f"round-{number:02d}" / f"table-{table:03d}-game-{game}.log"

    def sweep(self) -> int:
        """Remove the temporary files a kill left half-written (never a finished file): how many were removed."""
        stale = [p for p in self.folder.rglob(".*.tmp") if p.is_file()]
        for p in stale:
            p.unlink()
        return len(stale)

    def set_aside(self, path: Path) -> Path:
        """Move a torn log out of the way under ``torn/`` (a new name if taken), kept and recorded, never
        overwritten."""
        rel = path.relative_to(self.folder / "logs")
        target = self.folder / "torn" / rel
        k = 1
        while target.exists():
            target = self.folder / "torn" / rel.with_name(f"{rel.stem}.{k}{rel.suffix}")
            k += 1
        target.parent.mkdir(parents=True, exist_ok=True)
        digest = sha256_file(path)
        os.replace(path, target)
        with self.acting() as act:
            act.record(LogSetAside(at=now(), path=str(target.relative_to(self.folder)), sha256=digest))
        return target
