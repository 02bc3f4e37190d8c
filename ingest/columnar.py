"""The fast path of ingest: batch frames parsed by C (``ingest/_columnar.c``) straight into Arrow column buffers.

``ingest.flatten`` is the reference: it decodes each frame to Python tuples and builds the same tables from them.
This path gives the same tables (a property test holds them equal on real and generated logs) for about a tenth
of the cost, because no Python object is made per value: rows go into the columns in file order (no sort), and
the ``extra``, ``offered`` and ``chosen_option`` JSON texts are written while parsing. Whatever the C code does not
handle exactly as the reference does (an unknown tag, a short row from an older log, a value of another type, a
string JSON must escape) raises ``Unsupported``, and ``ingest.flatten`` redoes the chunk with the reference, which
takes the row or quarantines the file naming what is wrong.

The extension is built by ``pip install -e .`` where a C compiler is present; without one (or with
``ANNALS_PURE_PYTHON`` set) ingest runs on the reference alone: same database, several times slower.
"""

from __future__ import annotations

import os
import threading
from typing import Any

import pyarrow as pa

from annals.ingest.plans import CONVENTION_TYPES, CONVENTIONS, DECISION_SCHEMA, EVENT_SCHEMA, plans_for
from annals.schemas.header import LogHeader
from annals.schemas.logfile import LogReader
from annals.schemas.rulesets import RulesetSchema
from annals.schemas.validate import option_specs

try:
    from annals.ingest import _columnar
except ImportError:  # no compiler where annals was installed: the reference flattener does all the work
    _columnar = None  # type: ignore[assignment]

BUILT = _columnar is not None
PURE_PYTHON_VARIABLE = "ANNALS_PURE_PYTHON"  # set (to anything but "") to ingest with the reference alone


def enabled() -> bool:
    """Whether ingest takes the fast path: the extension is built and not switched off."""
    return BUILT and not os.environ.get(PURE_PYTHON_VARIABLE)


class _NoFastPath(Exception):
    """Stands for the extension's exception where it is not built."""


# A frame that needs the reference flattener.
Unsupported: type[Exception] = _columnar.Unsupported if _columnar is not None else _NoFastPath

# Field type codes of _columnar.c: T_INT, T_STR, T_LIST_INT, T_BOOL.
_CONVENTION_CODES = {pa.int32(): 0, pa.string(): 1, pa.list_(pa.int32()): 2}
_EXTRA_CODES = {pa.int64(): 0, pa.string(): 1, pa.list_(pa.int64()): 2, pa.bool_(): 3}
_MAX_TAG = 4096  # tags index a C array
_OPTION_CODES = {int: 0, str: 1, bool: 3}

# Ingest's Arrow buffers: a jemalloc pool that keeps freed pages for 10 s. pyarrow's jemalloc default gives them
# back at once, and so did the default mimalloc pool as used here: each chunk's buffers then cost about as long in
# page faults as in copying (measured: 1 to 2 s of system time per 10M events).
try:
    POOL = pa.jemalloc_memory_pool()
    pa.jemalloc_set_decay_ms(10_000)
except NotImplementedError:
    POOL = pa.default_memory_pool()

_plans: dict[str, _columnar.Plan | None] = {}


def plan_for(schema: RulesetSchema) -> _columnar.Plan | None:
    """The C plan of a ruleset's event and option kinds, or None when some kind is beyond the fast path (a tag
    that is not a small int, a field whose type is not int, str, bool or a list of ints)."""
    if schema.name in _plans:
        return _plans[schema.name]
    events, options = plans_for(schema)
    plan = None
    tags = [*events, *options]
    if _columnar is not None and all(type(t) is int and 0 <= t < _MAX_TAG for t in tags):
        kinds: list[_columnar.KindSpec | None] = [None] * (max(events) + 1)
        supported = True
        for tag, p in events.items():
            fields: dict[int, tuple[int, int, str, int | str | None]] = {}
            for name, i in p.convention.items():
                absent = p.absent.get(name)
                if isinstance(absent, str) and absent:
                    supported = False  # the C code knows only "" as a text sentinel
                fields[i] = (CONVENTIONS.index(name), _CONVENTION_CODES[CONVENTION_TYPES[name]], name, absent)
            for name, i, arrow in p.extra:
                code = _EXTRA_CODES.get(arrow) if arrow is not None else None
                if code is None:
                    supported = False
                    break
                fields[i] = (-1, code, name, None)
            if not supported:
                break
            kinds[tag] = (p.name, p.width, tuple(fields[i] for i in range(5, p.width)))
        names: list[tuple[str, int, tuple[int, ...]] | None] = [None] * (max(options, default=-1) + 1)
        for tag, spec in option_specs(schema).items():
            names[tag] = (spec.name, spec.required, tuple(_OPTION_CODES.get(t, -1) for t in spec.types))
        end = schema.end_event
        if supported:
            plan = _columnar.Plan(kinds, names, end.__struct_config__.tag if end is not None else -1)
    _plans[schema.name] = plan
    return plan


_local = threading.local()


def _builder() -> _columnar.Builder:
    """This thread's builder, empty: it keeps its memory from chunk to chunk (see ``finish`` in the C code)."""
    assert _columnar is not None
    builder = getattr(_local, "builder", None)
    if builder is None:
        builder = _local.builder = _columnar.Builder()
    builder.truncate(0, 0)  # rows left by a chunk that went to the reference
    return builder


class NativeSink:
    """A chunk's files, parsed by the C builder in one call when the chunk's tables are asked for (the GIL is then
    released once per chunk, not at every frame); see ``ingest.flatten._Sink``."""

    def __init__(self) -> None:
        self.builder = _builder()
        self.files: list[tuple[_columnar.Plan, int, list[bytes], int]] = []
        self.counts: list[tuple[int, int]] = []  # each file's events and decisions, as its closing record says
        self.plan: _columnar.Plan | None = None
        self.payloads: list[bytes] = []
        self.seats = 0

    def begin(self, schema: RulesetSchema, header: LogHeader, path: str) -> None:
        self.plan, self.payloads, self.seats = plan_for(schema), [], len(header.players)
        if self.plan is None:
            raise Unsupported(f"ruleset {schema.name!r} has a kind beyond the fast path")

    def frame(self, payload: bytes, expected: int, file_idx: int, where: object) -> tuple[int, int]:
        self.payloads.append(payload)
        return 0, 0  # counted when parsed

    def end(self, reader: LogReader, file_idx: int) -> tuple[int, int]:
        assert self.plan is not None and reader.close_record is not None
        self.files.append((self.plan, file_idx, self.payloads, self.seats))
        self.counts.append((reader.close_record.events, reader.close_record.decisions))
        return -1, -1  # known once parsed

    def abandon(self, reader: LogReader) -> None:
        """A file that failed after some frames: parse those alone, to count their events, and drop the rows."""
        if self.plan is None or not self.payloads:
            return
        mark = self.builder.rows()
        try:
            [(events, _, _, _)] = self.builder.add_files([(self.plan, 0, self.payloads, self.seats)])
        finally:
            self.builder.truncate(*mark)
        reader.events_read = events

    def tables(self) -> tuple[pa.Table, pa.Table, list[tuple[int, int]]]:
        parsed = self.builder.add_files(self.files)
        if [(events, decisions) for events, decisions, _, _ in parsed] != self.counts:  # the reference names it
            raise Unsupported("a closing record's counts differ from the frames'")
        events_table, decisions_table = self.builder.finish(lambda n: pa.allocate_buffer(n, memory_pool=POOL))
        firsts = [(first, ends) for _, _, first, ends in parsed]
        return _table(EVENT_SCHEMA, events_table), _table(DECISION_SCHEMA, decisions_table), firsts


# A column as Builder.finish() hands it over: rows, nulls, and the validity, offsets (or None) and values buffers.
Column = tuple[int, int, Any, Any | None, Any]


def _table(schema: pa.Schema, columns: list[Column]) -> pa.Table:
    return pa.Table.from_arrays([_array(f.type, c) for f, c in zip(schema, columns, strict=True)], schema=schema)


def _array(kind: pa.DataType, column: Column) -> pa.Array:
    rows, nulls, valid, offsets, values = column
    validity = pa.py_buffer(valid) if nulls else None
    if pa.types.is_list(kind):
        assert offsets is not None
        data = pa.py_buffer(values)
        items = pa.Array.from_buffers(kind.value_type, data.size // 4, [None, data])
        return pa.Array.from_buffers(kind, rows, [validity, pa.py_buffer(offsets)], nulls, children=[items])
    if offsets is not None:
        return pa.Array.from_buffers(kind, rows, [validity, pa.py_buffer(offsets), pa.py_buffer(values)], nulls)
    return pa.Array.from_buffers(kind, rows, [validity, pa.py_buffer(values)], nulls)
