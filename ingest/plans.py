"""Where each event kind's fields go: the convention columns of ``schemas.records``, or ``extra``.

A field goes to its convention column only when it has the convention's name *and* type (Miras 9's
``CombatDamage.source`` is a card, not a payment source, so it goes to ``extra``).
"""

from __future__ import annotations

import typing
from typing import Any, NamedTuple

import msgspec
import pyarrow as pa

from annals.schemas.rulesets import RulesetSchema

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
CONVENTIONS = list(CONVENTION_TYPES)  # the convention columns, in the events table's order
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
# Absent-value sentinels of the convention columns, stored as NULL: ``0`` for a card or target (instances start at
# 1000), ``""`` for a zone, counter, source or card id. An event kind whose field uses another sentinel, or none (its
# every value is real, such as Miras 9 ``SelectionChanged.target`` 0: the Site position), says so in a class
# attribute ``ABSENT: ClassVar[dict[str, int | str | None]]`` (field -> its sentinel, None: no sentinel).
ABSENT: dict[str, int | str] = {
    "card": 0, "target": 0, "src": "", "dst": "", "counter": "", "source": "", "card_id": "",
}  # fmt: skip
CONVENTION_PY: dict[str, Any] = {
    "card": int, "cards": list[int], "src": str, "dst": str, "counter": str, "holder": int, "value": int,
    "amount": int, "target": int, "source": str, "card_id": str,
}  # fmt: skip


class KindPlan(NamedTuple):
    name: str
    convention: dict[str, int]  # convention column -> index in the row ([tag, n, turn, step, player, ...])
    extra: list[tuple[str, int, pa.DataType | None]]  # other fields -> index, and Arrow type (None: not a plain one)
    defaults: dict[int, Any]  # index -> default, for rows written before a field was appended
    width: int  # a full row's length: the tag and every field
    required: int  # the shortest valid row: up to the last field without a default
    absent: dict[str, int | str] = {}  # convention column -> the value stored as NULL (this kind's sentinels)


def _union_members(union: Any) -> list[Any]:
    members = typing.get_args(union)
    return list(members) if members else [union]


def _plain(t: Any) -> Any:
    """``Literal["a", "b"]`` is a str, ``Literal[1]`` an int: the type the value is stored as."""
    if typing.get_origin(t) is typing.Literal:
        kinds = {type(a) for a in typing.get_args(t)}
        return kinds.pop() if len(kinds) == 1 else t
    return t


_PLAIN: dict[Any, pa.DataType] = {int: pa.int64(), str: pa.string(), bool: pa.bool_()}


def arrow_type(t: Any) -> pa.DataType | None:
    """The Arrow type of a field whose values are ints, strings, bools or (nested) lists of them; None for any
    other (a float, a union, a struct, a dict), whose JSON Arrow and polars might not write as msgspec does."""
    t = _plain(t)
    if t in _PLAIN:
        return _PLAIN[t]
    origin, args = typing.get_origin(t), typing.get_args(t)
    if origin is list or (origin is tuple and len(args) == 2 and args[1] is Ellipsis):
        inner = arrow_type(args[0])
        return None if inner is None else pa.list_(inner)
    return None


_plans: dict[str, tuple[dict[Any, KindPlan], dict[Any, str]]] = {}


def plans_for(schema: RulesetSchema) -> tuple[dict[Any, KindPlan], dict[Any, str]]:
    """Per event tag: where its fields go; per option tag: the option's class name."""
    cached = _plans.get(schema.name)
    if cached is not None:
        return cached
    events: dict[Any, KindPlan] = {}
    for cls in _union_members(schema.event_type):
        conv: dict[str, int] = {}
        extra: list[tuple[str, int, pa.DataType | None]] = []
        defaults: dict[int, Any] = {}
        fields = msgspec.structs.fields(cls)
        overrides: dict[str, int | str | None] = getattr(cls, "ABSENT", {})
        for i, info in enumerate(fields, start=1):
            field, kind = info.name, _plain(info.type)
            if info.default is not msgspec.NODEFAULT:
                defaults[i] = msgspec.to_builtins(info.default)
            elif info.default_factory is not msgspec.NODEFAULT:
                defaults[i] = msgspec.to_builtins(info.default_factory())
            if field in ENVELOPE:
                continue
            if field in CONVENTION_TYPES and kind == CONVENTION_PY[field]:  # same name, other type: extra
                conv[field] = i
            else:
                extra.append((field, i, arrow_type(kind)))
        absent = {c: overrides.get(c, ABSENT.get(c)) for c in conv}
        events[cls.__struct_config__.tag] = KindPlan(
            cls.__name__, conv, extra, defaults, len(fields) + 1, 1 + max((i for i in range(1, len(fields) + 1)
                                                                         if i not in defaults), default=0),
            {c: v for c, v in absent.items() if v is not None},
        )  # fmt: skip
    options = {cls.__struct_config__.tag: cls.__name__ for cls in _union_members(schema.option_type)}
    _plans[schema.name] = (events, options)
    return events, options
