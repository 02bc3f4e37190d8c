"""Decoded log records → what the database stores: event frames as JSON for DuckDB to flatten, decisions as rows.

Python per event is the cost to beat, so nothing here loops over events in Python. Each batch frame is decoded
twice by msgspec in C: typed (which validates every record against the ruleset's schema, then is dropped) and
untyped (plain lists ``[tag, n, turn, step, player, fields...]``), and the untyped list is re-encoded as one JSON
array per frame. DuckDB then unnests the frames and picks each column through each kind's plan (``ingest.eventsql``,
``ingest.plans``): which fields land in the convention columns of ``schemas.records`` and which go to ``extra``
(JSON). Decisions (far fewer) are turned into rows here. Cost on Miras 9 and MORANA logs: about 1.4 us per event
here, plus the DuckDB step.

``flatten_files`` is what an ingest worker process runs on a chunk of files: it never touches the database.
"""

from __future__ import annotations

import gc
import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import msgspec
import pyarrow as pa

from ingest.eventsql import flatten_frames
from ingest.plans import plans_for
from schemas.errors import AnnalsError, CorruptLogError, LogError
from schemas.header import LogHeader
from schemas.logfile import LogReader

DECISION_SCHEMA = pa.schema(
    [
        ("file_idx", pa.int32()),
        ("n", pa.int32()),
        ("at_event", pa.int32()),
        ("player", pa.int8()),
        ("point", pa.string()),
        ("n_offered", pa.int32()),
        ("chosen", pa.int32()),
        ("chosen_kind", pa.string()),
        ("chosen_option", pa.string()),
        ("offered", pa.string()),
    ]
)
_json = msgspec.json.Encoder()


class GameMeta(NamedTuple):
    """One log that decoded cleanly: its header, close record and counts (rows go in the chunk's tables)."""

    file: str
    header: LogHeader
    digest: str
    first_player: int
    winner: int
    end_reason: str
    events: int
    decisions: int
    turns: int


class Skipped(NamedTuple):
    """A log whose game id and digest are already in the database: nothing to do."""

    file: str
    game_id: str
    digest: str
    events: int


class Bad(NamedTuple):
    """A log that goes to quarantine."""

    file: str
    file_digest: str
    game_id: str | None
    error: str
    frame: int | None
    offset: int | None
    reason: str
    events_read: int


FRAME_SCHEMA = pa.schema([("file_idx", pa.int32()), ("ruleset", pa.string()), ("events", pa.string())])


class Chunk(NamedTuple):
    games: list[GameMeta]  # file_idx in the tables indexes this list
    skipped: list[Skipped]
    bad: list[Bad]
    events: pa.Table  # the events table's columns, file_idx in place of game, in (file, event) order
    decisions: pa.Table


class _Columns:
    """Frames and decision rows of a chunk of files, turned into Arrow tables at the end."""

    def __init__(self) -> None:
        self.frame_file: list[int] = []
        self.frame_ruleset: list[str] = []
        self.frame_json: list[str] = []
        self.frame_events: list[int] = []
        self.decisions: list[list[Any]] = []

    def add_frame(self, ruleset: str, events_json: bytes, count: int, file_idx: int) -> None:
        self.frame_file.append(file_idx)
        self.frame_ruleset.append(ruleset)
        self.frame_json.append(events_json.decode())
        self.frame_events.append(count)

    def add_decisions(self, options: dict[Any, str], rows: list[list[Any]], file_idx: int) -> None:
        out = self.decisions
        for n, at, player, point, offered, chosen in rows:
            pick = offered[chosen]
            out.append(
                [file_idx, n, at, player, point, len(offered), chosen, options[pick[0]], _json.encode(pick).decode(),
                 _json.encode(offered).decode()]
            )  # fmt: skip

    def mark(self) -> tuple[int, int]:
        return len(self.frame_file), len(self.decisions)

    def rollback(self, mark: tuple[int, int]) -> int:
        """Drop what a failed file added; return how many events that was (for the reconciliation)."""
        frames, decisions = mark
        dropped = sum(self.frame_events[frames:])
        for column in (self.frame_file, self.frame_ruleset, self.frame_json, self.frame_events):
            del column[frames:]
        del self.decisions[decisions:]
        return dropped

    def frame_table(self) -> pa.Table:
        return pa.Table.from_arrays(
            [
                pa.array(self.frame_file, pa.int32()),
                pa.array(self.frame_ruleset, pa.string()),
                pa.array(self.frame_json, pa.string()),
            ],
            schema=FRAME_SCHEMA,
        )

    def decision_table(self) -> pa.Table:
        if not self.decisions:
            return DECISION_SCHEMA.empty_table()
        cols = list(zip(*self.decisions, strict=True))
        return pa.Table.from_arrays(
            [pa.array(c, f.type) for c, f in zip(cols, DECISION_SCHEMA, strict=True)], schema=DECISION_SCHEMA
        )


def file_digest(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.file_digest(f, lambda: hashlib.blake2b(digest_size=16)).hexdigest()


def _first_player(rows: list[list[Any]]) -> int:
    for row in rows:
        if row[2] >= 1 and row[4] >= 0:  # turn, player
            return int(row[4])
    return -1


def _bad(path: str, exc: BaseException, game_id: str | None, events_read: int) -> Bad:
    if isinstance(exc, LogError):
        return Bad(path, file_digest(path), game_id, type(exc).__name__, exc.frame, exc.offset, exc.reason,
                   events_read)  # fmt: skip
    return Bad(path, file_digest(path), game_id, type(exc).__name__, None, None, str(exc), events_read)


_untyped = msgspec.msgpack.Decoder()
_typed: dict[str, msgspec.msgpack.Decoder[Any]] = {}


def _read_one(path: str, known: dict[str, str], cols: _Columns, file_idx: int) -> GameMeta | Skipped:
    """Verify and flatten one log. Each frame is decoded twice: typed (which validates every record against the
    schema, then is dropped) and untyped (plain lists, the cheapest way to columns)."""
    with LogReader(path) as reader:
        header = reader.header
        if header.game_id in known:  # only verify the chain, to compare digests
            for _ in reader.raw_frames():
                pass
            close = reader.close_record
            assert close is not None
            if known[header.game_id] == reader.digest:
                return Skipped(path, header.game_id, reader.digest, close.events)
            raise ChangedLogError(header.game_id, known[header.game_id], reader.digest, close.events)
        schema = reader.schema
        _, options = plans_for(schema)
        typed = _typed.get(schema.name)
        if typed is None:
            typed = _typed[schema.name] = msgspec.msgpack.Decoder(schema.batch_type)
        first = -1
        expected = 0
        for index, at, payload in reader.raw_frames():
            try:
                typed.decode(payload)
            except msgspec.DecodeError as exc:
                raise CorruptLogError(
                    path, f"payload does not match the schema: {exc}", frame=index, offset=at
                ) from exc
            rows, decisions = _untyped.decode(payload)
            if rows:
                if rows[0][1] != expected or rows[-1][1] != expected + len(rows) - 1:
                    raise CorruptLogError(
                        path, f"events {rows[0][1]}..{rows[-1][1]} found where {expected}.. was expected",
                        frame=index, offset=at,
                    )  # fmt: skip
                if first < 0:
                    first = _first_player(rows)
                cols.add_frame(schema.name, _json.encode(rows), len(rows), file_idx)
            expected += len(rows)
            if decisions:
                cols.add_decisions(options, decisions, file_idx)
            reader.events_read += len(rows)
            reader.decisions_read += len(decisions)
        reader.check_counts()
        close = reader.close_record
        assert close is not None
        return GameMeta(path, header, reader.digest, first, close.winner, close.end_reason, close.events,
                        close.decisions, close.turns)  # fmt: skip


class ChangedLogError(AnnalsError, ValueError):
    """A log carries a game id already stored with another digest: the same game, edited or re-played."""

    def __init__(self, game_id: str, stored: str, found: str, events: int):
        self.events = events
        super().__init__(
            f"game id {game_id!r} is already stored with digest {stored}, but this log's digest is {found}: "
            "the log changed since it was ingested; ingest it into another database or remove the old game"
        )


def flatten_files(paths: Sequence[str], known: dict[str, str]) -> Chunk:
    """Read, verify and flatten ``paths``; ``known`` maps game ids already stored to their digests.

    The garbage collector is paused meanwhile: the decoded rows are plain lists that cannot form cycles, and
    collecting while millions of them are alive costs more than the decoding.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _flatten_files(paths, known)
    finally:
        if was_enabled:
            gc.enable()


def _flatten_files(paths: Sequence[str], known: dict[str, str]) -> Chunk:
    cols = _Columns()
    games: list[GameMeta] = []
    skipped: list[Skipped] = []
    bad: list[Bad] = []
    for path in paths:
        mark = cols.mark()
        try:
            outcome = _read_one(path, known, cols, len(games))
        except (AnnalsError, OSError, msgspec.DecodeError, KeyError) as exc:
            dropped = cols.rollback(mark)
            read = exc.events if isinstance(exc, ChangedLogError) else dropped
            bad.append(_bad(path, exc, _game_id_of(path), read))
            continue
        if type(outcome) is Skipped:
            skipped.append(outcome)
        else:
            assert type(outcome) is GameMeta
            games.append(outcome)
    return Chunk(games, skipped, bad, flatten_frames(cols.frame_table()), cols.decision_table())


def _game_id_of(path: str) -> str | None:
    try:
        with LogReader(path) as reader:
            return reader.header.game_id
    except (AnnalsError, OSError, msgspec.DecodeError):
        return None


def collect(paths: Sequence[str | Path]) -> list[str]:
    """Files named, and ``*.log`` files under folders named (recursively), sorted, without repeats."""
    found: set[str] = set()
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found.update(str(f) for f in path.rglob("*.log") if f.is_file())
        elif path.exists():
            found.add(str(path))
        else:
            raise FileNotFoundError(str(path))
    return sorted(found)
