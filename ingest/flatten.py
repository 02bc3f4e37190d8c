"""Decoded log records → columns: the events table's long format, decisions with their options.

The cost to beat is Python per event, so events are decoded typed (that validates every record against the
ruleset's schema), turned into plain lists by msgspec in C (``to_builtins``: ``[tag, n, turn, step, player,
fields...]``), grouped by kind, transposed with ``zip`` and handed to Arrow column by column. Each kind's plan
says which of its fields land in the convention columns of ``schemas.records`` and which go to ``extra`` (JSON).

``flatten_files`` is what an ingest worker process runs on a chunk of files: it never touches the database.
"""

from __future__ import annotations

import gc
import hashlib
import typing
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import msgspec
import pyarrow as pa
import pyarrow.compute as pc

from schemas.errors import AnnalsError, CorruptLogError, LogError
from schemas.header import LogHeader
from schemas.logfile import LogReader
from schemas.rulesets import RulesetSchema, schema_for

ENVELOPE = ("n", "turn", "step", "player")
CONVENTION_TYPES: dict[str, pa.DataType] = {
    "card": pa.int32(),
    "cards": pa.list_(pa.int32()),
    "src": pa.string(),
    "dst": pa.string(),
    "counter": pa.string(),
    "holder": pa.int32(),
    "value": pa.int32(),
    "amount": pa.int32(),
    "target": pa.int32(),
    "source": pa.string(),
    "card_id": pa.string(),
}
EVENT_SCHEMA = pa.schema(
    [
        ("file_idx", pa.int32()),
        ("n", pa.int32()),
        ("turn", pa.int32()),
        ("step", pa.string()),
        ("player", pa.int8()),
        ("kind", pa.string()),
        *CONVENTION_TYPES.items(),
        ("extra", pa.string()),
    ]
)
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
CONVENTION_PY: dict[str, Any] = {
    "card": int, "cards": list[int], "src": str, "dst": str, "counter": str, "holder": int, "value": int,
    "amount": int, "target": int, "source": str, "card_id": str,
}  # fmt: skip
# "absent" sentinels some events use for optional convention fields (instances start at 1000, so 0 is no card)
_EMPTY_TO_NULL = ("src", "dst", "counter", "source", "card_id")
_ZERO_TO_NULL = ("card", "target")
_json = msgspec.json.Encoder()


class KindPlan(NamedTuple):
    name: str
    convention: dict[str, int]  # convention column -> index in the row ([tag, n, turn, step, player, ...])
    extra: list[tuple[str, int]]  # other fields -> index
    width: int  # fields + the tag
    defaults: list[Any]  # per field, its default (for rows written before a field was appended)


def _union_members(union: Any) -> list[Any]:
    members = typing.get_args(union)
    return list(members) if members else [union]


_plans: dict[str, tuple[dict[Any, KindPlan], dict[Any, str]]] = {}


def plans_for(schema: RulesetSchema) -> tuple[dict[Any, KindPlan], dict[Any, str]]:
    """Per event tag: where its fields go; per option tag: the option's class name."""
    cached = _plans.get(schema.name)
    if cached is not None:
        return cached
    events: dict[Any, KindPlan] = {}
    for cls in _union_members(schema.event_type):
        fields = msgspec.structs.fields(cls)
        conv: dict[str, int] = {}
        extra: list[tuple[str, int]] = []
        for i, info in enumerate(fields):
            field = info.name
            if field in ENVELOPE:
                continue
            if field in CONVENTION_TYPES and info.type == CONVENTION_PY[field]:  # same name, other type: extra
                conv[field] = i + 1
            else:
                extra.append((field, i + 1))
        defaults = [msgspec.to_builtins(f.default) if f.default is not msgspec.NODEFAULT else None for f in fields]
        events[cls.__struct_config__.tag] = KindPlan(cls.__name__, conv, extra, len(fields) + 1, defaults)
    options = {cls.__struct_config__.tag: cls.__name__ for cls in _union_members(schema.option_type)}
    _plans[schema.name] = (events, options)
    return events, options


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


class Chunk(NamedTuple):
    games: list[GameMeta]  # file_idx in the tables indexes this list
    skipped: list[Skipped]
    bad: list[Bad]
    events: pa.Table
    decisions: pa.Table


class _Columns:
    """Per-kind row groups for a chunk of files, turned into one Arrow table at the end."""

    def __init__(self) -> None:
        self.groups: dict[tuple[str, Any], tuple[KindPlan, list[list[Any]], list[int]]] = {}
        self.decisions: list[list[Any]] = []

    def add_events(self, ruleset: str, plans: dict[Any, KindPlan], rows: list[list[Any]], file_idx: int) -> None:
        groups = self.groups
        for row in rows:
            key = (ruleset, row[0])
            group = groups.get(key)
            if group is None:
                group = groups[key] = (plans[row[0]], [], [])
            group[1].append(row)
            group[2].append(file_idx)

    def add_decisions(self, options: dict[Any, str], rows: list[list[Any]], file_idx: int) -> None:
        out = self.decisions
        for n, at, player, point, offered, chosen in rows:
            pick = offered[chosen]
            out.append(
                [file_idx, n, at, player, point, len(offered), chosen, options[pick[0]], _json.encode(pick).decode(),
                 _json.encode(offered).decode()]
            )  # fmt: skip

    def event_table(self) -> pa.Table:
        tables = []
        for plan, rows, fidx in self.groups.values():
            count = len(rows)
            widths = set(map(len, rows))
            if len(widths) > 1 or plan.width not in widths:  # written before fields were appended: defaults
                rows = [r + plan.defaults[len(r) - plan.width :] if len(r) < plan.width else r for r in rows]
            cols = list(zip(*rows, strict=True))
            arrays: list[pa.Array] = [
                pa.array(fidx, pa.int32()),
                pa.array(cols[1], pa.int32()),
                pa.array(cols[2], pa.int32()),
                pa.array(cols[3], pa.string()),
                pa.array(cols[4], pa.int8()),
                pa.repeat(plan.name, count).cast(pa.string()) if count else pa.array([], pa.string()),
            ]
            for name, typ in CONVENTION_TYPES.items():
                i = plan.convention.get(name)
                arrays.append(pa.nulls(count, typ) if i is None else _normalised(name, pa.array(cols[i], typ)))
            if plan.extra:
                names = [f for f, _ in plan.extra]
                values = zip(*(cols[i] for _, i in plan.extra), strict=True)
                extra = [_json.encode(dict(zip(names, v, strict=True))).decode() for v in values]
                arrays.append(pa.array(extra, pa.string()))
            else:
                arrays.append(pa.nulls(count, pa.string()))
            tables.append(pa.Table.from_arrays(arrays, schema=EVENT_SCHEMA))
        if not tables:
            return EVENT_SCHEMA.empty_table()
        table = pa.concat_tables(tables)
        return table.sort_by([("file_idx", "ascending"), ("n", "ascending")])

    def decision_table(self) -> pa.Table:
        if not self.decisions:
            return DECISION_SCHEMA.empty_table()
        cols = list(zip(*self.decisions, strict=True))
        return pa.Table.from_arrays(
            [pa.array(c, f.type) for c, f in zip(cols, DECISION_SCHEMA, strict=True)], schema=DECISION_SCHEMA
        )


def _normalised(name: str, array: pa.Array) -> pa.Array:
    """An absent-value sentinel ("" for a zone or counter, 0 for a card) becomes NULL."""
    if name in _EMPTY_TO_NULL:
        return pc.if_else(pc.equal(array, ""), pa.scalar(None, array.type), array)
    if name in _ZERO_TO_NULL:
        return pc.if_else(pc.equal(array, 0), pa.scalar(None, array.type), array)
    return array


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
        plans, options = plans_for(schema)
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
                cols.add_events(schema.name, plans, rows, file_idx)
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
        mark = len(cols.decisions), {k: len(g[1]) for k, g in cols.groups.items()}
        try:
            outcome = _read_one(path, known, cols, len(games))
        except (AnnalsError, OSError, msgspec.DecodeError, KeyError) as exc:
            dropped = _rollback(cols, mark)
            read = exc.events if isinstance(exc, ChangedLogError) else dropped
            bad.append(_bad(path, exc, _game_id_of(path), read))
            continue
        if type(outcome) is Skipped:
            skipped.append(outcome)
        else:
            assert type(outcome) is GameMeta
            games.append(outcome)
    return Chunk(games, skipped, bad, cols.event_table(), cols.decision_table())


def _rollback(cols: _Columns, mark: tuple[int, dict[Any, int]]) -> int:
    """Drop the rows a failed file added; return how many events they were (for the reconciliation)."""
    decisions, sizes = mark
    del cols.decisions[decisions:]
    dropped = 0
    for key in list(cols.groups):
        _plan, rows, fidx = cols.groups[key]
        keep = sizes.get(key, 0)
        dropped += len(rows) - keep
        if keep == 0:
            del cols.groups[key]
        else:
            del rows[keep:]
            del fidx[keep:]
    return dropped


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


def schema_of(ruleset: str) -> RulesetSchema:
    return schema_for(ruleset)
