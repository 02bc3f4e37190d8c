"""Decoded log records → what the database stores: the events table's columns and decision rows, as Arrow tables.

``flatten_files`` is what an ingest worker runs on a chunk of files: it never touches the database. This is the
reference flattener (``ingest.columnar`` is the fast path, and hands it whatever it does not handle). Each
batch frame is decoded once by msgspec in C, untyped (each row a plain tuple ``(tag, n, turn, step, player,
fields...)``), and validated by structure: the frame checks of ``schemas.validate`` (numbering, decisions, every
option offered), then a tag the ruleset does not know, or a row longer than its kind or shorter than its required
(non-default) fields, quarantines the file naming the frame (and, after the tables are built, each closing record
is checked against its game's last event: ``_check_results``); a row missing trailing
defaulted fields (an old log) takes the defaults. Rows are grouped by kind across the chunk, each group is
converted to Arrow in one pass (each row a struct of the kind's field types) and every column is picked at the
index its kind's plan names (``ingest.plans``): the convention columns of ``schemas.records``, and ``extra``, a
JSON object of the other fields by name (encoded by polars). The table is then sorted by (file, event).
Absent-value sentinels (``""`` for a zone, counter, source or card id; ``0`` for a card or target: instances start
at 1000) become NULL, per kind (``ingest.plans.ABSENT``, and a kind's own ``ABSENT``: Miras 9's
``SelectionChanged.target`` 0 is the Site position, stored as 0; MORANA's ``ClashFired.target`` -1 is none).

Field types are checked by that conversion to the kind's Arrow types: a value that does not convert sends the
chunk through the typed decoder (``msgspec``, the ruleset's schema) file by file, which quarantines the culprit
with its frame. Frames are checksummed and chained, so this only matters for a log written by something other
than annals' writer.

Cost, measured on Miras 9 and MORANA logs (``bench.ingest``): about 2.2 us per event on one core, 3 us with both
cores busy (decoding to tuples and freeing them 0.4, frame checks 0.1, grouping 0.1, decision rows 0.3, Arrow
structs 0.5, ``extra`` 0.2, sort 0.15), against about 4.5 us when DuckDB unnested re-encoded JSON frames and
0.16 us in the C fast path. Each chunk also pays a fixed cost per kind (a few Arrow calls, one polars call), hence
chunks of many files.
"""

from __future__ import annotations

import errno
import gc
import hashlib
import os
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from itertools import accumulate, repeat
from operator import getitem, itemgetter
from pathlib import Path
from typing import Any, NamedTuple, Protocol

import msgspec
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc

from annals.ingest import columnar
from annals.ingest.plans import CONVENTION_TYPES, CONVENTIONS, DECISION_SCHEMA, EVENT_SCHEMA, KindPlan, plans_for
from annals.schemas.archive import SUFFIX as ARCHIVE_SUFFIX
from annals.schemas.archive import archive_refs, is_archive, member_bytes, split_ref
from annals.schemas.errors import AnnalsError, CorruptLogError, LogError
from annals.schemas.files import open_regular, os_error
from annals.schemas.header import LogClose, LogHeader
from annals.schemas.logfile import JudgeSeen, LogReader
from annals.schemas.rulesets import RulesetSchema, schema_for
from annals.schemas.validate import FORFEIT_KIND, FrameCheck, LastEvent, Where, check_result, option_specs

_json = msgspec.json.Encoder()
Row = tuple[Any, ...]  # an event row (tag, n, turn, step, player, fields...) or a decision row, as decoded


class GameMeta(NamedTuple):
    """One log that decoded cleanly: its header, close record and counts (rows go in the chunk's tables)."""

    file: str
    header: LogHeader
    digest: str
    first_player: int
    winner: int  # the closing record's (the engine's); ``judged_result`` gives the result as a judge left it
    end_reason: str
    events: int
    decisions: int
    turns: int
    modified: float  # when its file (or archive) was last written, as its reader found it: ``game_dates``
    close_at: tuple[int, int] = (-1, -1)  # the closing frame's index and byte offset
    end_events: int = -1  # how many of the ruleset's end event the log holds (-1: not counted yet)
    judged: tuple[JudgeSeen, ...] = ()  # the judge frames, abandoned branches' included
    # the log holds the stored log of its game id whole, as its first frames (the digest stored is the chain digest
    # after one of its frames): judge frames, a signature or a resumed game appended since (``ingest.loader``)
    grows: bool = False


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


class Chunk(NamedTuple):
    games: list[GameMeta]  # file_idx in the tables indexes this list
    skipped: list[Skipped]
    bad: list[Bad]
    events: pa.Table  # the events table's columns, file_idx in place of game, in (file, event) order
    decisions: pa.Table


class _Kind(NamedTuple):
    """A kind's plan, ready for the column loop."""

    name: str
    width: int
    required: int
    pad: tuple[Any, ...]  # defaults of the fields from ``required`` to ``width``, for rows of old logs
    conv: list[int | None]  # per convention column, the row index that holds it
    absent: list[Any]  # per convention column, the value stored as NULL (None: every value is real)
    x_names: tuple[str, ...]
    x_idx: list[int]
    x_types: list[pa.DataType | None]
    row_type: pa.StructType | None  # the whole row as one Arrow struct, when every field has a plain type


def _row_type(tag: Any, p: KindPlan) -> pa.StructType | None:
    types: dict[int, pa.DataType | None] = {1: pa.int32(), 2: pa.int32(), 3: pa.string(), 4: pa.int8()}
    types.update((i, CONVENTION_TYPES[name]) for name, i in p.convention.items())
    types.update((i, t) for _, i, t in p.extra)
    if any(types.get(i) is None for i in range(1, p.width)):
        return None
    tag_type = pa.int64() if type(tag) is int else pa.string()
    return pa.struct([("tag", tag_type), *((f"f{i}", types[i]) for i in range(1, p.width))])


_kinds: dict[str, dict[Any, _Kind]] = {}


def _kinds_for(ruleset: str, plans: dict[Any, KindPlan]) -> dict[Any, _Kind]:
    kinds = _kinds.get(ruleset)
    if kinds is None:
        kinds = _kinds[ruleset] = {
            tag: _Kind(
                p.name,
                p.width,
                p.required,
                tuple(p.defaults[i] for i in range(p.required, p.width)),
                [p.convention.get(c) for c in CONVENTIONS],
                [p.absent.get(c) for c in CONVENTIONS],
                tuple(f for f, _, _ in p.extra),
                [i for _, i, _ in p.extra],
                [t for _, _, t in p.extra],
                _row_type(tag, p),
            )
            for tag, p in plans.items()
        }
    return kinds


class _Columns:
    """Event rows of a chunk of files grouped by kind, and decision rows; turned into Arrow tables at the end."""

    def __init__(self) -> None:
        self.groups: dict[tuple[str, Any], tuple[list[Row], list[int]]] = {}  # (ruleset, tag) -> rows, files
        self.decisions: dict[str, list[Any]] = {name: [] for name in DECISION_SCHEMA.names}

    def add_file(self, ruleset: str, groups: dict[Any, list[Row]], file_idx: int) -> None:
        """The rows of one file that read cleanly (a file that fails adds nothing)."""
        for tag, rows in groups.items():
            found = self.groups.get((ruleset, tag))
            if found is None:
                found = self.groups[(ruleset, tag)] = ([], [])
            found[0].extend(rows)
            found[1].extend(repeat(file_idx, len(rows)))

    def event_table(self) -> pa.Table:
        """One Arrow table per kind (columns picked at the plan's indexes), concatenated, sorted by (file, n)."""
        tables = [self._kind_table(_kinds[ruleset][tag], rows, files)
                  for (ruleset, tag), (rows, files) in self.groups.items()]  # fmt: skip
        if not tables:
            return EVENT_SCHEMA.empty_table()
        table = pa.concat_tables(tables).combine_chunks()  # take() on one chunk per column is much faster
        order = pc.sort_indices(table, [("file_idx", "ascending"), ("n", "ascending")])
        return table.take(order)

    @staticmethod
    def _kind_table(kind: _Kind, rows: list[Row], files: list[int]) -> pa.Table:
        """The rows converted to Arrow in one pass as structs (or transposed, then column by column, for a kind
        with a field of no plain type), then each column picked at the index the kind's plan names."""
        m = len(rows)
        cols: list[Any]
        if kind.row_type is not None:
            cols = pa.array(rows, kind.row_type).flatten()
        else:
            cols = list(zip(*rows, strict=True))
            cols[1:5] = [pa.array(c, t) for c, t in zip(cols[1:5], _ENVELOPE_TYPES, strict=True)]
        arrays: list[pa.Array] = [pa.array(files, pa.int32()), *cols[1:5], pa.repeat(pa.scalar(kind.name), m)]
        for name, i, absent in zip(CONVENTIONS, kind.conv, kind.absent, strict=True):
            kind_type = CONVENTION_TYPES[name]
            if i is None:
                arrays.append(pa.nulls(m, kind_type))
                continue
            column = cols[i] if kind.row_type is not None else pa.array(cols[i], kind_type)
            arrays.append(column if absent is None else pc.if_else(pc.equal(column, absent), None, column))
        if not kind.x_names:
            arrays.append(pa.nulls(m, pa.string()))
        elif kind.row_type is not None and m >= _POLARS_MIN_ROWS:
            arrays.append(_extra_polars(kind.x_names, [cols[i] for i in kind.x_idx]))
        else:
            arrays.append(_extra_msgspec(kind.x_names, [[row[i] for row in rows] for i in kind.x_idx]))
        return pa.Table.from_arrays(arrays, schema=EVENT_SCHEMA)

    def add_decisions(self, options: dict[Any, str], rows: list[Row], file_idx: int) -> None:
        """A clean file's decision rows ``[n, at, player, point, offered, chosen]``, column by column."""
        n, at, player, point, offered, chosen = zip(*(row[:6] for row in rows), strict=True)
        picks = list(map(getitem, offered, chosen))  # what can fail (a bad index or option tag) before any change
        kinds = list(map(options.__getitem__, map(_tag, picks)))
        out = self.decisions
        out["file_idx"].extend(repeat(file_idx, len(rows)))
        out["n"].extend(n)
        out["at_event"].extend(at)
        out["player"].extend(player)
        out["point"].extend(point)
        out["n_offered"].extend(map(len, offered))
        out["chosen"].extend(chosen)
        out["chosen_kind"].extend(kinds)
        out["chosen_option"].extend(map(_json.encode, picks))
        out["offered"].extend(map(_json.encode, offered))

    def decision_table(self) -> pa.Table:
        return pa.Table.from_arrays(
            [pa.array(self.decisions[f.name], f.type) for f in DECISION_SCHEMA], schema=DECISION_SCHEMA
        )


_tag = itemgetter(0)
_n = itemgetter(1)
_player = itemgetter(4)


def _extra_polars(names: tuple[str, ...], arrays: list[pa.Array]) -> pa.Array:
    """The ``extra`` JSON objects of many rows whose fields have plain Arrow types: one polars call."""
    frame = pl.from_arrow(pa.Table.from_arrays(arrays, names=list(names)))
    assert isinstance(frame, pl.DataFrame)
    return frame.select(pl.struct(pl.all()).struct.json_encode()).to_series().to_arrow().cast(pa.string())


def _extra_msgspec(names: tuple[str, ...], columns: list[list[Any]]) -> pa.Array:
    """The same text as ``_extra_polars``, row by row: for few rows, or fields of no plain type."""
    encode = _json.encode
    return pa.array(
        [encode(dict(zip(names, values, strict=True))) for values in zip(*columns, strict=True)], pa.string()
    )


_ENVELOPE_TYPES = [pa.int32(), pa.int32(), pa.string(), pa.int8()]
_POLARS_MIN_ROWS = 256  # below this, polars' fixed cost per call is more than msgspec's per row


def file_digest(path: str) -> str:
    parts = split_ref(path)
    if parts is not None:  # a game in an archive: its own bytes (the damage a walk stopped at: the archive's)
        try:
            return hashlib.blake2b(member_bytes(path), digest_size=16).hexdigest()
        except LogError:
            path = parts[0]
    try:
        with open_regular(path, what="log") as f:
            return hashlib.file_digest(f, lambda: hashlib.blake2b(digest_size=16)).hexdigest()
    except (AnnalsError, OSError):  # a special file, a link to nothing or in a loop: no bytes to digest
        return ""


def _first_player(rows: list[Row]) -> int:
    for row in rows:
        if row[2] >= 1 and row[4] >= 0:  # turn, player
            return int(row[4])
    return -1


def _bad(path: str, exc: BaseException, game_id: str | None, events_read: int) -> Bad:
    if isinstance(exc, LogError):
        return Bad(path, file_digest(path), game_id, type(exc).__name__, exc.frame, exc.offset, exc.reason,
                   events_read)  # fmt: skip
    reason = str(exc)
    if isinstance(exc, OSError) and not isinstance(exc, AnnalsError):  # the operating system's words, named
        dangling = os.path.islink(path) and not os.path.exists(path) and exc.errno == errno.ENOENT
        reason = "a symbolic link to nothing; fix or remove the link" if dangling else str(os_error(exc, "read"))
    return Bad(path, file_digest(path), game_id, type(exc).__name__, None, None, reason, events_read)


def _group(rows: list[Row], kinds: dict[Any, _Kind], into: dict[Any, list[Row]], where: _Where) -> None:
    """Add a frame's rows to ``into`` by tag, checking each kind's row width; pad old rows with defaults."""
    groups: dict[Any, list[Row]] = {}
    for row in rows:
        found = groups.get(row[0])
        if found is None:
            found = groups[row[0]] = []
        found.append(row)
    for tag, group in groups.items():
        kind = kinds.get(tag)
        if kind is None:
            raise where.error(f"event {group[0][1]!r} has tag {tag!r}, which is no event kind of this ruleset "
                              f"(known tags: {sorted(kinds, key=repr)!r}); was it written by another ruleset "
                              "version?")  # fmt: skip
        widths = set(map(len, group))
        if widths != {kind.width}:
            for i, row in enumerate(group):
                width = len(row)
                if width == kind.width:
                    continue
                if not kind.required <= width < kind.width:
                    expected = kind.width if kind.required == kind.width else f"{kind.required}..{kind.width}"
                    raise where.error(
                        f"event {row[1]!r} is a {kind.name} row of {width} values where {kind.name} rows have "
                        f"{expected} (tag, n, turn, step, player, fields): {row!r}; was it written by another "
                        "ruleset version?"
                    )
                group[i] = row + kind.pad[width - kind.required :]
        into_group = into.get(tag)
        if into_group is None:
            into[tag] = group
        else:
            into_group.extend(group)


class _Where(NamedTuple):
    path: str
    frame: int
    offset: int

    def error(self, reason: str) -> CorruptLogError:
        return CorruptLogError(self.path, reason, frame=self.frame, offset=self.offset)


# Rows as tuples, not lists: half the cost to make and to free; values inside (cards, options) stay lists.
_untyped = msgspec.msgpack.Decoder(tuple[list[Row], list[Row]])
_typed: dict[str, msgspec.msgpack.Decoder[Any]] = {}


class _ReferenceSink:
    """The reference flattener: each frame decoded once untyped and checked by structure (with ``typed``, also
    decoded against the schema, which names the first value of a wrong type); a file's rows join the chunk's
    columns when the whole file has read cleanly."""

    def __init__(self, typed: bool) -> None:
        self.cols = _Columns()
        self.typed = typed

    def begin(self, schema: RulesetSchema, header: LogHeader, path: str) -> None:
        plans, self.options = plans_for(schema)
        self.check = FrameCheck(path, header, option_specs(schema))
        end = schema.end_event
        self.end_tag = end.__struct_config__.tag if end is not None else None
        self.ruleset = schema.name
        self.kinds = _kinds_for(schema.name, plans)
        self.checker = None
        if self.typed:
            self.checker = _typed.get(schema.name)
            if self.checker is None:
                self.checker = _typed[schema.name] = msgspec.msgpack.Decoder(schema.batch_type)
        self.groups: dict[Any, list[Row]] = {}
        self.decision_rows: list[Row] = []
        self.first = -1

    def frame(self, payload: bytes, expected: int, file_idx: int, where: _Where) -> tuple[int, int]:
        if self.checker is not None:
            try:
                self.checker.decode(payload)
            except msgspec.DecodeError as exc:
                raise where.error(f"payload does not match the schema: {exc}") from exc
        try:
            rows, decisions = _untyped.decode(payload)
        except msgspec.DecodeError as exc:
            raise where.error(f"payload is not a batch of event and decision rows: {exc}") from exc
        if rows and min(map(len, rows)) < 5:
            row = next(r for r in rows if len(r) < 5)
            raise where.error(f"an event row of {len(row)} values, {row!r}: every event row starts with its tag, n, "
                              "turn, step and player")  # fmt: skip
        if decisions and not set(map(len, decisions)) <= {6, 7}:
            raise where.error(f"a decision row has {sorted(set(map(len, decisions)))!r} values where decisions "
                              "have 6 (n, at, player, point, offered, chosen), or 7 (and automatic)")  # fmt: skip
        if any(len(d) == 7 for d in decisions):
            decisions = [d[:6] for d in decisions]  # the automatic mark is not a column (yet)
        self.check.frame(Where(*where), list(map(_n, rows)), list(map(_player, rows)), decisions)
        if rows:
            if self.first < 0:
                self.first = _first_player(rows)
            if self.checker is None:
                _group(rows, self.kinds, self.groups, where)
            else:
                self._check_columns(rows, file_idx, where)
        if decisions:
            if self.checker is not None:
                try:
                    trial = _Columns()
                    trial.add_decisions(self.options, decisions, file_idx)
                    trial.decision_table()
                except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, OverflowError, ValueError) as exc:
                    raise where.error(f"a decision has a value its column cannot hold: {exc}") from exc
            self.decision_rows.extend(decisions)
        return len(rows), len(decisions)

    def _check_columns(self, rows: list[Row], file_idx: int, where: _Where) -> None:
        """The typed pass: a value of the right type may still not fit its column (a card number beyond 32 bits):
        convert the frame's rows now, to name the frame."""
        groups: dict[Any, list[Row]] = {}
        _group(rows, self.kinds, groups, where)
        for tag, group in groups.items():
            kind = self.kinds[tag]
            try:
                _Columns._kind_table(kind, group, [file_idx] * len(group))
            except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, OverflowError, ValueError) as exc:
                raise where.error(f"a {kind.name} event has a value its column cannot hold: {exc}") from exc
            self.groups.setdefault(tag, []).extend(group)

    def end(self, reader: LogReader, file_idx: int) -> tuple[int, int]:
        assert reader.close_record is not None
        self.check.counts(Where(str(reader.path), *reader.close_at), reader.close_record)
        if self.decision_rows:
            self.cols.add_decisions(self.options, self.decision_rows, file_idx)
        self.cols.add_file(self.ruleset, self.groups, file_idx)  # after the last thing that can fail
        return self.first, len(self.groups.get(self.end_tag, ()))

    def abandon(self, reader: LogReader) -> None:
        pass  # nothing of the file reached the columns; the reader counted the events of the frames decoded

    def tables(self) -> tuple[pa.Table, pa.Table, list[tuple[int, int]] | None]:
        return self.cols.event_table(), self.cols.decision_table(), None


class _Sink(Protocol):
    """Where a chunk's rows go: the reference (``_ReferenceSink``) or the C fast path (``columnar.NativeSink``).

    ``begin`` starts a file; ``frame`` takes each verified batch frame of it and says how many events and
    decisions it decoded (the fast path defers its parsing, and says 0), checking it as ``schemas.validate``
    does (the fast path refuses what the reference would, and the reference names it); ``end`` takes a file whose
    frames all read cleanly and gives the player of its first event from turn 1 on and how many of the ruleset's
    end event it holds ((-1, -1) when deferred); ``abandon`` drops a file that failed, leaving in
    ``reader.events_read`` the events of its frames before the failure; ``tables`` gives the chunk's events and
    decisions and, when deferred, each ended file's first player and end events."""

    def begin(self, schema: RulesetSchema, header: LogHeader, path: str) -> None: ...
    def frame(self, payload: bytes, expected: int, file_idx: int, where: _Where) -> tuple[int, int]: ...
    def end(self, reader: LogReader, file_idx: int) -> tuple[int, int]: ...
    def abandon(self, reader: LogReader) -> None: ...
    def tables(self) -> tuple[pa.Table, pa.Table, list[tuple[int, int]] | None]: ...


def _read_one(
    path: str, known: dict[str, str], sink: _Sink, file_idx: int, opened: list[LogReader], replay: bool = False
) -> GameMeta | Skipped:
    """Verify and flatten one log into ``sink`` (all of its rows, or none). A log whose game id is stored with the
    same digest is skipped after its chain is checked; with another digest it is flattened like any other, for
    the caller to decide (``ingest.loader``: a conflict)."""
    with LogReader(path) as reader:
        opened.append(reader)
        header = reader.header
        if header.game_id not in known:
            return _flatten_one(reader, sink, file_idx, replay)
        reader.links = set()
        for _ in reader.raw_frames():  # only verify the chain, to compare digests
            pass
        close = reader.close_record
        assert close is not None
        if known[header.game_id] == reader.digest:
            return Skipped(path, header.game_id, reader.digest, close.events)
        grows = bytes.fromhex(known[header.game_id]) in reader.links
    opened.clear()
    with LogReader(path) as reader:  # the same game id with another digest: read again, to flatten
        opened.append(reader)
        return _flatten_one(reader, sink, file_idx, replay)._replace(grows=grows)


def _flatten_one(reader: LogReader, sink: _Sink, file_idx: int, replay: bool) -> GameMeta:
    path, header = str(reader.path), reader.header
    sink.begin(reader.schema, header, path)
    try:
        for index, at, payload in reader.raw_frames():
            where = _Where(path, index, at)
            try:
                events, decisions = sink.frame(payload, reader.events_read, file_idx, where)
            except (KeyError, TypeError, IndexError) as exc:  # a record of the wrong shape the checks let through
                raise where.error(
                    f"a record does not have the shape of its kind ({type(exc).__name__}: {exc})"
                ) from exc
            reader.events_read += events
            reader.decisions_read += decisions
        if replay:
            _replay(path)
        first, end_events = sink.end(reader, file_idx)
    except BaseException:
        sink.abandon(reader)
        raise
    close = reader.close_record
    assert close is not None
    return GameMeta(path, header, reader.digest, first, close.winner, close.end_reason, close.events,
                    close.decisions, close.turns, reader.modified, reader.close_at, end_events,
                    tuple(reader.judged))  # fmt: skip


def _replay(path: str) -> None:
    """``ingest --replay``: the log's game re-run as ``verify`` does; raises the first difference."""
    from annals.engine.replay import verify_log  # the engine only when asked: ingest alone never runs the rules

    verify_log(path)


class ChangedLogError(AnnalsError, ValueError):
    """A log carries a game id already stored with another digest: the same game, edited or re-played."""

    def __init__(self, game_id: str, stored: str, found: str, events: int):
        self.events = events
        super().__init__(
            f"game id {game_id!r} is already stored with digest {stored}, but this log's digest is {found}: "
            "the log changed since it was ingested; ingest it into another database or remove the old game"
        )


def flatten_files(paths: Sequence[str], known: dict[str, str], *, fast: bool = True, replay: bool = False) -> Chunk:
    """Read, verify and flatten ``paths``; ``known`` maps game ids already stored to their digests.

    With ``fast`` (and the C extension built), frames go through ``ingest.columnar``; a chunk holding anything it
    does not handle is redone with the reference, which gives the same tables. The garbage collector is paused
    while the reference runs: its rows are plain tuples and lists that cannot form cycles, and collecting while
    millions of them are alive costs more than the decoding.

    With ``replay``, each log's game is also re-run as ``verify`` does (``engine.replay``), and one that does
    not re-run identically is quarantined.
    """
    if fast and columnar.enabled():
        try:
            return _flatten_files(paths, known, columnar.NativeSink(), replay)
        except columnar.Unsupported:
            pass  # redo the chunk with the reference, which takes the row or names what is wrong
    with gc_paused():
        try:
            return _flatten_files(paths, known, _ReferenceSink(typed=False), replay)
        except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, OverflowError, ValueError):
            # a value of a wrong type: the typed decoder names its file and frame
            return _flatten_files(paths, known, _ReferenceSink(typed=True), replay)


_gc_lock = threading.Lock()
_gc_pauses = [0, False]  # threads flattening with the reference now; whether the collector was enabled before


@contextmanager
def gc_paused() -> Iterator[None]:
    """The collector off while any thread ingests or flattens with the reference (it is one switch for the
    process, hence the count)."""
    with _gc_lock:
        if _gc_pauses[0] == 0:
            _gc_pauses[1] = gc.isenabled()
            gc.disable()
        _gc_pauses[0] += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_pauses[0] -= 1
            if _gc_pauses[0] == 0 and _gc_pauses[1]:
                gc.enable()


def _flatten_files(paths: Sequence[str], known: dict[str, str], sink: _Sink, replay: bool = False) -> Chunk:
    games: list[GameMeta] = []
    skipped: list[Skipped] = []
    bad: list[Bad] = []
    for path in paths:
        opened: list[LogReader] = []  # the reader, for how many events it read before a failure
        try:
            outcome = _read_one(path, known, sink, len(games), opened, replay)
        except (AnnalsError, OSError, msgspec.DecodeError) as exc:
            read = opened[0].events_read if opened else 0
            read = exc.events if isinstance(exc, ChangedLogError) else read
            bad.append(_bad(path, exc, _game_id_of(path), read))
            continue
        if type(outcome) is Skipped:
            skipped.append(outcome)
        else:
            assert type(outcome) is GameMeta
            games.append(outcome)
    events, decisions, firsts = sink.tables()
    if firsts is not None:
        games = [
            g._replace(first_player=first, end_events=ends) for g, (first, ends) in zip(games, firsts, strict=True)
        ]
    return _check_results(Chunk(games, skipped, bad, events, decisions))


def _check_results(chunk: Chunk) -> Chunk:
    """Each game's closing record against its last event (``schemas.validate.check_result``), read from the
    chunk's events table (in (file, event) order on both paths); a game that fails goes to ``bad`` and its rows
    leave the tables."""
    games, events = chunk.games, chunk.events
    ends = list(accumulate(g.events for g in games))
    rows = [end - 1 for end, g in zip(ends, games, strict=True) if g.events]
    last = events.select(["kind", "turn", "extra"]).take(pa.array(rows, pa.int64())).to_pylist() if rows else []
    facts = iter(last)
    failed: list[int] = []
    bad = list(chunk.bad)
    for i, g in enumerate(games):
        end = schema_for(g.header.ruleset).end_event
        end_kind = end.__name__ if end is not None else None
        fact = None
        if g.events:
            row = next(facts)
            winner = reason = None
            if row["kind"] in (end_kind, FORFEIT_KIND):
                extra = _extra_fields(row["extra"])
                winner, reason = extra.get("winner"), extra.get("reason")
            fact = LastEvent(row["kind"], row["turn"], winner, reason)
        close = LogClose(g.winner, g.end_reason, g.events, g.decisions, g.turns)
        try:
            check_result(Where(g.file, *g.close_at), g.header, close, fact, end_kind, g.end_events)
        except LogError as exc:
            failed.append(i)
            bad.append(_bad(g.file, exc, g.header.game_id, g.events))
    if not failed:
        return chunk
    kept = [i for i in range(len(games)) if i not in set(failed)]
    renumber = pa.array([kept.index(i) if i in kept else -1 for i in range(len(games))], pa.int32())
    keep = pa.array(kept, pa.int32())

    def without(table: pa.Table) -> pa.Table:
        table = table.filter(pc.is_in(table.column("file_idx"), keep))
        return table.set_column(0, "file_idx", pc.take(renumber, table.column("file_idx")))

    return Chunk([games[i] for i in kept], chunk.skipped, bad, without(events), without(chunk.decisions))


def _extra_fields(text: str | None) -> dict[str, Any]:
    fields = msgspec.json.decode(text) if text else {}
    return fields if isinstance(fields, dict) else {}


def _game_id_of(path: str) -> str | None:
    try:
        with LogReader(path) as reader:
            return reader.header.game_id
    except (AnnalsError, OSError, msgspec.DecodeError):
        return None


def collect(paths: Sequence[str | Path]) -> list[str]:
    """Files named, and ``*.log`` files under folders named (recursively), sorted, without repeats; as absolute
    paths, so that the games table names where each log is from any working folder."""
    found: set[str] = set()
    for p in paths:
        path = Path(os.path.abspath(p))
        if path.is_dir():
            found.update(_logs_under(str(path)))
        elif is_archive(path):
            found.update(archive_refs(path))
        elif (
            os.path.lexists(path) or split_ref(path) is not None
        ):  # a link loop or a special file too: the reader says what is wrong
            found.add(str(path))
        else:
            raise FileNotFoundError(str(path))
    return sorted(found)


def _logs_under(folder: str) -> Iterator[str]:
    """``*.log`` entries under ``folder``, symbolic links to folders not followed (``os.scandir``: a folder of
    thousands of logs is listed without a stat per file, several times faster than ``Path.rglob``).

    Every ``*.log`` entry that is not a folder is yielded, regular file or not: the reader refuses a FIFO, a device,
    a link loop or an unreadable file with the reason, and ingest quarantines it beside the good logs. A subfolder
    that cannot be listed is yielded too, so that it is reported rather than silently skipped."""
    try:
        entries = os.scandir(folder)
    except OSError:
        yield folder
        return
    with entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                yield from _logs_under(entry.path)
            elif entry.name.endswith(".log") and not (entry.is_symlink() and os.path.isdir(entry.path)):
                yield entry.path
            elif entry.name.endswith(ARCHIVE_SUFFIX) and entry.is_file():
                yield from archive_refs(entry.path)
