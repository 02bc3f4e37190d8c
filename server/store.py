"""Where the server keeps its tables: one folder, a record and a live log per table.

``DATA/tables/ID.json`` is the table's record (ruleset, seats, clock, spectator delay and the SHA-256 of each
seat's and the spectators' token: the tokens themselves are shown once, when the table is made, and never
stored); ``DATA/tables/ID.log`` is its live log. On restart every record whose log has no closing frame is an
open game, resumed from its log.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from collections import OrderedDict
from pathlib import Path

import msgspec

from annals.schemas.errors import AnnalsError, LogError
from annals.schemas.header import LogClose
from annals.schemas.logfile import LogReader

TOKEN_BYTES = 24  # 192 bits from ``secrets``: unguessable
TABLE_ID = re.compile(r"[0-9a-f]{12}")  # ``new_table_id``: anything else names no table (nor any file)
CLOSED_KEPT = 4096  # closing records of finished logs kept in memory (a few hundred bytes each)
Signature = tuple[int, int, int]  # a log file's size, modification time and inode: it changes when the log does


class TableError(AnnalsError, ValueError):
    """A table that cannot be made or found as asked."""


class TableRecord(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    table_id: str
    ruleset: str
    decks: list[str]
    seats: list[str]  # "human" (a client takes the seat with its token) or a bot's name
    seed: int
    max_turns: int
    bank_ms: int  # each seat's time bank (0: no clock)
    delay: int  # the spectators' delay, in decisions
    token_hashes: list[str]  # per seat ("" for a bot's seat)
    spectator_hash: str
    grace_ms: int = 0  # how long the table waits for its people to sit down before a no-show loses (0: no limit)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def matches(token: str, digest: str) -> bool:
    return bool(digest) and hmac.compare_digest(token_hash(token), digest)


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_table_id() -> str:
    return secrets.token_hex(6)


class Store:
    """The tables' folder. The closing records of finished logs are kept (``closed``), up to ``closed_kept`` of
    them, the least recently asked for going first; each is checked against its log's ``signature`` at every
    call, so a log changed since (a judge's backup, a game played on) is read again."""

    def __init__(self, data: Path, *, closed_kept: int = CLOSED_KEPT):
        self.folder = data / "tables"
        self.folder.mkdir(parents=True, exist_ok=True)
        self.closed_kept = closed_kept
        self._closed: OrderedDict[str, tuple[Signature, LogClose]] = OrderedDict()
        self.logs_read = 0  # logs ``closed`` has read to the end (what the kept records save)

    def record_path(self, table_id: str) -> Path:
        return self.folder / f"{table_id}.json"

    def log_path(self, table_id: str) -> Path:
        return self.folder / f"{table_id}.log"

    def save(self, record: TableRecord) -> None:
        path = self.record_path(record.table_id)
        aside = path.with_name(path.name + ".new")
        aside.write_bytes(msgspec.json.encode(record))
        os.replace(aside, path)

    def record(self, table_id: str) -> TableRecord | None:
        """The record of table ``table_id``, or None if there is none."""
        if not TABLE_ID.fullmatch(table_id):
            return None
        try:
            return msgspec.json.decode(self.record_path(table_id).read_bytes(), type=TableRecord)
        except (OSError, msgspec.DecodeError):
            return None

    def signature(self, table_id: str) -> Signature | None:
        """What changes when table ``table_id``'s log does (None if there is no log)."""
        try:
            st = self.log_path(table_id).stat()
        except OSError:
            return None
        return st.st_size, st.st_mtime_ns, st.st_ino

    def closed(self, table_id: str) -> LogClose | None:
        """The closing record of table ``table_id``'s log, or None while it is open (or missing, or damaged).
        A finished log is read once, then answered from memory while its signature stays the same."""
        if not TABLE_ID.fullmatch(table_id):
            return None
        signature = self.signature(table_id)
        held = self._closed.get(table_id)
        if held is not None and held[0] == signature:
            self._closed.move_to_end(table_id)
            return held[1]
        self._closed.pop(table_id, None)
        if signature is None:
            return None
        self.logs_read += 1
        try:
            with LogReader(self.log_path(table_id)) as reader:
                reader.read_to_end()
                close = reader.close_record
        except (OSError, LogError):
            return None
        if close is not None and self.signature(table_id) == signature:  # not written to while it was read
            self._closed[table_id] = (signature, close)
            while len(self._closed) > self.closed_kept:
                self._closed.popitem(last=False)
        return close

    def kept_closed(self) -> int:
        """How many closing records are kept in memory (never more than ``closed_kept``)."""
        return len(self._closed)

    def records(self) -> list[TableRecord]:
        out = []
        for path in sorted(self.folder.glob("*.json")):
            try:
                out.append(msgspec.json.decode(path.read_bytes(), type=TableRecord))
            except msgspec.DecodeError as exc:
                raise TableError(f"{path}: not a table record ({exc}); move it out of {self.folder}") from None
        return out
