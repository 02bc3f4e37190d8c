"""Event frames → the events table's columns, by DuckDB: one column per field-name convention, picked by
(ruleset, tag).

Runs in the ingest worker processes on a private in-memory DuckDB (one thread each), so the main process only
inserts finished Arrow tables. A frame row holds a JSON array of events, each ``[tag, n, turn, step, player,
fields...]``. DuckDB unnests it
(``from_json`` to lists of VARCHAR, one parse per frame) and each column is a ``CASE`` over ``ruleset:tag`` that
names the element holding that field in that kind, cast to the column's type. Absent-value sentinels become NULL
(``""`` for a zone, counter or source, ``0`` for a card or target: instances start at 1000). Fields outside the
conventions go to ``extra`` as a JSON object. A field missing from an old log (written before the field was
appended) takes its default.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import duckdb
import pyarrow as pa

from ingest.plans import CONVENTION_TYPES, KindPlan, plans_for
from schemas.rulesets import schema_for

_SQL_TYPES = {"card": "INTEGER", "cards": "INTEGER[]", "holder": "INTEGER", "value": "INTEGER",
              "amount": "INTEGER", "target": "INTEGER"}  # fmt: skip
_EMPTY_TO_NULL = frozenset({"src", "dst", "counter", "source", "card_id"})
_ZERO_TO_NULL = frozenset({"card", "target"})


def _lit(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    return "'" + text.replace("'", "''") + "'"


def _element(plan: KindPlan, index: int) -> str:
    ref = f"r[{index + 1}]"  # DuckDB lists are 1-based
    if index in plan.defaults:
        return f"coalesce({ref}, {_lit(plan.defaults[index])})"
    return ref


def _column(name: str, kinds: list[tuple[str, KindPlan]]) -> str:
    whens = [f"WHEN {_lit(key)} THEN {_element(plan, plan.convention[name])}"
             for key, plan in kinds if name in plan.convention]  # fmt: skip
    if not whens:
        return f"NULL::{_SQL_TYPES.get(name, 'VARCHAR')} AS {name}"
    expr = f"CASE k {' '.join(whens)} END"
    if name in _SQL_TYPES:
        expr = f"({expr})::{_SQL_TYPES[name]}"
    if name in _EMPTY_TO_NULL:
        expr = f"nullif({expr}, '')"
    elif name in _ZERO_TO_NULL:
        expr = f"nullif({expr}, 0)"
    return f"{expr} AS {name}"


def _extra(kinds: list[tuple[str, KindPlan]]) -> str:
    whens = []
    for key, plan in kinds:
        if not plan.extra:
            continue
        parts = []
        for field, index, is_str in plan.extra:
            element = _element(plan, index)
            parts.append(f"{_lit(field)}, {f'to_json({element})' if is_str else f'{element}::JSON'}")
        whens.append(f"WHEN {_lit(key)} THEN json_object({', '.join(parts)})")
    return f"CASE k {' '.join(whens)} END AS extra" if whens else "NULL::JSON AS extra"


@cache
def select_events_sql(rulesets: tuple[str, ...]) -> str:
    """The events table's columns (``file_idx`` in place of ``game``) from the frame table ``_frames``."""
    kinds: list[tuple[str, KindPlan]] = []
    for name in rulesets:
        plans, _ = plans_for(schema_for(name))
        kinds += [(f"{name}:{tag}", plan) for tag, plan in sorted(plans.items())]
    kind = " ".join(f"WHEN {_lit(key)} THEN {_lit(plan.name)}" for key, plan in kinds)
    columns = ",\n       ".join(_column(name, kinds) for name in CONVENTION_TYPES)
    return f"""WITH rows AS (
    SELECT file_idx, ruleset, unnest(from_json(events, '[["VARCHAR"]]')) AS r FROM _frames
), keyed AS (SELECT *, ruleset || ':' || r[1] AS k FROM rows)
SELECT file_idx, r[2]::INTEGER AS n, r[3]::INTEGER AS turn, r[4] AS step, r[5]::TINYINT AS player,
       CASE k {kind} END AS kind,
       {columns},
       {_extra(kinds)}
FROM keyed"""


_con: list[duckdb.DuckDBPyConnection] = []


def set_threads(threads: int) -> None:
    """Threads of this process's flattening connection (a worker process uses one: the pool is the parallelism)."""
    _connection().execute(f"SET threads = {int(threads)}")


def _connection() -> duckdb.DuckDBPyConnection:
    if not _con:
        _con.append(duckdb.connect(":memory:"))
    return _con[0]


def flatten_frames(frames: pa.Table) -> pa.Table:
    """Frames (file_idx, ruleset, events JSON) → event rows in frame order, as an Arrow table."""
    rulesets = tuple(sorted(set(frames.column("ruleset").unique().to_pylist())))
    if not frames.num_rows:
        rulesets = ()
    con = _connection()
    con.register("_frames", frames)
    try:
        if not rulesets:
            return con.sql(select_events_sql(("toy",)) + " LIMIT 0").to_arrow_table()
        return con.sql(select_events_sql(rulesets)).to_arrow_table()
    finally:
        con.unregister("_frames")
