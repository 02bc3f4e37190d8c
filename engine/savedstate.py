"""A saved state decoded as a person may have written it: every field checked, every refusal naming its path.

A state comes back from bytes in two places a person can reach: a position file's ``state`` (JSON, hand-edited)
and a log header's ``start_position`` (msgpack, written by ``annals continue`` from such a file, or by an older
annals that lacked a field since added). ``decode`` reads either into the ruleset's state type, and refuses one
that is not such a state with ``SavedStateError`` naming the field's path (``$.cards["1004"].owner``), what is
wrong, and how to fix it.

Why not ``msgspec.json.decode(data, type=state_type)`` alone: compiled (``engine.compiled``), a ruleset's hot
records may be mypyc native classes (Miras 9's card, player and wave), into which msgspec decodes a missing int
field as 0 instead of refusing it or applying its declared default (mypyc's int attributes are never "unset").
So a ruleset with native classes gives ``checked``: its state type with the Struct twins of those classes, which
carry the true required fields and defaults; the data is decoded into it, then converted to the state type,
whose every field is then present. Both builds read a file alike. msgspec also says a dict entry's place as
``[...]``; ``decode`` finds the entry's key.
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

import msgspec

from annals.engine.errors import SavedStateError

S = TypeVar("S")

_MESSAGE = re.compile(r"^(?P<what>.*?)(?: - at `(?P<path>[^`]*)`)?$", re.S)
_MISSING = re.compile(r"^Object missing required field `(?P<field>[^`]+)`$")
_KEY = re.compile(r"^(?P<what>.*?) - at `key` in `(?P<path>[^`]*)`$", re.S)  # a dict key of the wrong type
_STEP = re.compile(r"\.(?P<name>[A-Za-z_]\w*)|\[(?P<index>\d+|\.\.\.)\]")


def decode(
    kind: type[S],
    data: bytes,
    *,
    json: bool,
    checked: type[Any] | None = None,
    fixes: Mapping[str, str] = {},
) -> S:
    """``data`` (JSON if ``json``, else msgpack) as a ``kind``, checked against ``checked`` first when given (see
    the module's text); ``fixes`` says, by the field's path without keys or indexes (``cards.owner``), what the
    field holds, for the refusal's fix."""
    reader = checked if checked is not None else kind
    try:
        value = msgspec.json.decode(data, type=reader) if json else msgspec.msgpack.decode(data, type=reader)
    except msgspec.ValidationError as exc:
        raise _refusal(reader, data, json, str(exc), fixes) from None
    except (msgspec.DecodeError, RecursionError) as exc:  # RecursionError: lists or objects nested too deep
        raise SavedStateError("$", f"not {'JSON' if json else 'msgpack'} ({exc})", "save the state again") from None
    if checked is None:
        return value
    return msgspec.convert(msgspec.to_builtins(value), kind)


def _refusal(kind: type[Any], data: bytes, json: bool, message: str, fixes: Mapping[str, str]) -> SavedStateError:
    key = _KEY.match(message)
    if key:  # a dict's key that is not of its type (``"abc"`` among the card instances)
        what = key["what"].replace("`", "")
        return SavedStateError(key["path"], f"a key is not of its type ({what})", "key each entry as the others are")
    found = _MESSAGE.match(message)
    what, path = (found["what"], found["path"] or "$") if found else (message, "$")
    if "[...]" in path:
        try:
            tree = msgspec.json.decode(data) if json else msgspec.msgpack.decode(data)
        except (msgspec.DecodeError, RecursionError):
            tree = None  # then the path stays as msgspec gave it
        path, what = _find_entry(kind, tree, path, what) if tree is not None else (path, what)
    missing = _MISSING.match(what)
    if missing:
        path, what = f"{path}.{missing['field']}", "a required field is missing"
    field = re.sub(r"\[[^\]]*\]", "", path).removeprefix("$").removeprefix(".")
    held = fixes.get(field, "the value a state saved by annals holds there (annals position --save writes one)")
    return SavedStateError(path, what.replace("`", ""), f"{'add' if missing else 'give'} it: {held}")


def _find_entry(kind: Any, tree: Any, path: str, what: str) -> tuple[str, str]:
    """The path with its first ``[...]`` replaced by the key of the first entry of that dict that fails, and the
    failure as that entry alone gives it (the rest of the path included)."""
    done = "$"
    value, typ = tree, kind
    for step in _STEP.finditer(path.removeprefix("$")):
        if step["index"] == "...":
            if not isinstance(value, dict):
                break
            item = _value_type(typ)
            for k, v in value.items():
                try:
                    msgspec.convert(v, item)
                except msgspec.ValidationError as exc:
                    inner = _MESSAGE.match(str(exc))
                    assert inner is not None  # the pattern matches any text
                    shown = f'["{k}"]' if isinstance(k, str) else f"[{k}]"
                    return done + shown + (inner["path"] or "$").removeprefix("$"), inner["what"]
            break
        name, index = step["name"], step["index"]
        try:
            value = value[name] if name is not None else value[int(index)]
        except (KeyError, IndexError, TypeError):
            break
        typ = _field_type(typ, name) if name is not None else _value_type(typ)
        done += step[0]
    return path, what


def _strip_none(typ: Any) -> Any:
    if isinstance(typ, types.UnionType) or typing.get_origin(typ) is typing.Union:
        others = [a for a in typing.get_args(typ) if a is not type(None)]
        return others[0] if len(others) == 1 else typ
    return typ


def _field_type(kind: Any, name: str) -> Any:
    kind = _strip_none(kind)
    hints = typing.get_type_hints(kind) if isinstance(kind, type) else {}
    return _strip_none(hints.get(name, Any))


def _value_type(typ: Any) -> Any:
    """The type of a list's items or a dict's values."""
    args = typing.get_args(_strip_none(typ))
    return _strip_none(args[-1]) if args else Any


def decode_for(ruleset: Any, data: bytes, *, json: bool = False) -> Any:
    """``data`` as a state of ``ruleset``: by its ``decode_state`` (its own checked decoding, e.g. Miras 9's) where
    it has one, else by ``decode`` into its ``state_type``."""
    own = getattr(ruleset, "decode_state", None)
    return own(data, json=json) if own is not None else decode(ruleset.state_type, data, json=json)
