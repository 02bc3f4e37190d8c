"""A game state copied fast enough to search with: ``clone(state)``, for any ruleset's msgspec state.

A state is a tree of msgspec Structs, lists, dicts and scalars (``core.GameState``). ``clone`` copies exactly the
parts the reducer can change, and shares the rest:

* scalars (int, str, bool, float, bytes, None) and **frozen** Structs are values: shared, never copied (frozen
  Structs are the card definitions, once-per-turn marks and other records the reducer replaces, never edits);
* a mutable Struct is copied shallowly (``__copy__``), then each of its fields that can hold something mutable is
  copied by the plan of its declared type: ``list[int]`` by ``list.copy``, ``dict[int, CardState]`` card by card,
  ``Wave | None`` as a Wave or None, and so on;
* a Struct's ``__dict__`` (a ruleset's derived ``pool``, rebuilt from its fields on decode) is shared;
* a field declared with a Struct class that has no subclasses when first planned is copied by that class's plan;
  one declared with a base class (subclassed) is planned by the class of the value found there;
* a state that is not a Struct (Miras 9's and MORANA's, compiled: native dataclasses, ``miras9.gamestate`` and
  ``morana.gamestate``) copies itself: its ``__copy__`` is written to share nothing the reducer changes, and
  tests/miras9/test_gamestate.py and tests/morana/test_gamestate.py hold it to the Struct's plan field by field;
* a type the planner does not know (``Any``, a union of several classes) is copied by ``copy.deepcopy``: always
  right, only slower.

Each Struct class's plan is built once, from ``msgspec.structs.fields``, so a field added to a state is copied
without anyone touching this module. Copying a mid-game Miras 9 state costs about what applying a few dozen events
does (``python -m bench.forward`` measures it against the reducer in the same run).
"""

from __future__ import annotations

import copy
import dataclasses
import types
import typing
from collections.abc import Callable
from typing import Any, TypeVar

import msgspec

T = TypeVar("T")
Copier = Callable[[Any], Any]

_VALUES = frozenset({int, str, bool, float, bytes, type(None)})
_PLANS: dict[type[Any], Copier] = {}
_PLANNING: set[type[Any]] = set()  # the classes whose plan is being built: a field of their own type waits for it


def clone(state: T) -> T:
    """A copy of ``state`` that shares nothing the reducer can change: stepping either never affects the other."""
    if not isinstance(state, msgspec.Struct):  # a native state (``*.gamestate``): its ``__copy__`` is a clone
        copied: T = state.__copy__()  # type: ignore[attr-defined]
        return copied
    value: T = _struct_copier(type(state))(state)
    return value


def _struct_copier(kind: type[Any]) -> Copier:
    plan = _PLANS.get(kind)
    if plan is None:
        plan = _PLANS[kind] = _plan_struct(kind)
    return plan


def _any_struct(value: Any) -> Any:
    """A Struct whose exact class is known only at run time (a field declared with a base class)."""
    return _struct_copier(type(value))(value)


def _plan_struct(kind: type[Any]) -> Copier:
    if kind.__struct_config__.frozen:
        return _shared
    shallow: Copier = kind.__copy__
    fields: list[tuple[str, Copier]] = []
    _PLANNING.add(kind)
    try:
        for info in msgspec.structs.fields(kind):
            copier = _copier(info.type)
            if copier is not None:
                fields.append((info.name, copier))
    finally:
        _PLANNING.discard(kind)
    with_dict = kind.__struct_config__.dict
    if not fields and not with_dict:
        return shallow

    def copy_struct(value: Any) -> Any:
        new = shallow(value)
        for name, copier in fields:
            setattr(new, name, copier(getattr(value, name)))
        if with_dict:
            new.__dict__.update(value.__dict__)
        return new

    return copy_struct


def _shared(value: Any) -> Any:
    return value


def _copier(tp: Any) -> Copier | None:
    """How to copy a value declared as ``tp``; None when it is a value that can be shared."""
    if tp in _VALUES:
        return None
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is None and isinstance(tp, type) and issubclass(tp, msgspec.Struct):
        if tp.__subclasses__() or tp in _PLANNING:  # the class is known only at run time (or is being planned)
            return _any_struct
        return None if tp.__struct_config__.frozen else _struct_copier(tp)
    if origin is None and dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return getattr(tp, "__copy__", _deep)  # a Miras 9 card, compiled (``miras9.cardstate``): its fields are values
    if origin is list:
        items = _copier(args[0]) if args else _deep
        if items is None:
            return list.copy
        each = items
        return lambda value: [each(v) for v in value]
    if origin is dict:
        values = _copier(args[1]) if len(args) == 2 else _deep
        if values is None:
            return dict.copy
        each_value = values
        return lambda value: {k: each_value(v) for k, v in value.items()}
    if origin is tuple:
        parts = [_copier(a) for a in args if a is not Ellipsis]
        return None if all(p is None for p in parts) else _deep
    if origin is typing.Union or origin is types.UnionType:
        others = [a for a in args if a is not type(None)]
        if len(others) == 1:
            inner = _copier(others[0])
            if inner is None:
                return None
            return lambda value: None if value is None else inner(value)
        if all(_copier(a) is None for a in others):
            return None
    if origin is typing.Literal:
        return None
    return _deep


def _deep(value: Any) -> Any:
    return copy.deepcopy(value)
