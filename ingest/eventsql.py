"""The SQL that flattens event frames inside DuckDB: one column per field-name convention, picked by (ruleset, tag).

A frame row holds a JSON array of events, each ``[tag, n, turn, step, player, fields...]``. DuckDB unnests it
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

from ingest.flatten import CONVENTION_TYPES, KindPlan, plans_for
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
def insert_events_sql(rulesets: tuple[str, ...]) -> str:
    """``INSERT INTO events`` from the registered frame table ``_in_frames`` (game, ruleset, events)."""
    kinds: list[tuple[str, KindPlan]] = []
    for name in rulesets:
        plans, _ = plans_for(schema_for(name))
        kinds += [(f"{name}:{tag}", plan) for tag, plan in sorted(plans.items())]
    kind = " ".join(f"WHEN {_lit(key)} THEN {_lit(plan.name)}" for key, plan in kinds)
    columns = ",\n       ".join(_column(name, kinds) for name in CONVENTION_TYPES)
    return f"""INSERT INTO events
WITH rows AS (
    SELECT game, ruleset, unnest(from_json(events, '[["VARCHAR"]]')) AS r FROM _in_frames
), keyed AS (SELECT *, ruleset || ':' || r[1] AS k FROM rows)
SELECT game, r[2]::INTEGER AS n, r[3]::INTEGER AS turn, r[4] AS step, r[5]::TINYINT AS player,
       CASE k {kind} END AS kind,
       {columns},
       {_extra(kinds)}
FROM keyed"""
