"""The one door every input file comes through: scenario files, deck lists, card-pool and errata files, event
files, notes, keys (logs and position files read through ``schemas.files.open_regular`` the same way).

The rule that protects logs is the rule for every input: only a regular file is read (a FIFO or ``/dev/zero`` is
refused at once, never waited on nor read until memory runs out), no more than a size bound, as UTF-8 text where
text is meant; a TOML or JSON document is parsed with its nesting bounded and its integers within a range. Each
failure is an ``InputFileError``: one line naming the file, the line or key at fault, and what would fix it.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "deep.toml"
    >>> _ = path.write_text("a = " + "[" * 40 + "]" * 40 + "\\n")
    >>> load_toml(path, what="scenario")
    Traceback (most recent call last):
    ...
    annals.schemas.inputs.InputFileError: ...deep.toml: a...: nested 33 levels deep, more than a scenario file ...
"""

from __future__ import annotations

import os
import tomllib
from typing import Any

import msgspec

from annals.schemas.errors import AnnalsError
from annals.schemas.files import read_regular

MAX_TEXT_BYTES = 4 << 20  # a scenario, a deck list, a card pool: a few KiB each; a pool of every card, well under
MAX_DEPTH = 32  # the deepest any annals input is written is 4 (a board entry's inline table in a player's table)
INT_RANGE = (-(1 << 63), (1 << 64) - 1)  # what a log and the database hold (seeds are unsigned 64-bit)
BOM = "\ufeff"  # Windows editors (Notepad) start a UTF-8 file with it: no content, so never part of the text


class InputFileError(AnnalsError, ValueError):
    """An input file that cannot be read as written: names the file, the line or key, and the fix. ``key`` is the
    key path at fault (when one is) and ``reason`` the message without the place, for a reader that finds the line
    of the key (``queries.workbench.tomlpaths``)."""

    def __init__(self, message: str, *, key: str = "", reason: str = ""):
        self.key = key
        self.reason = reason or message
        super().__init__(message)


def read_bytes(path: str | os.PathLike[str], *, what: str, max_bytes: int = MAX_TEXT_BYTES) -> bytes:
    """The bytes of a regular file of at most ``max_bytes`` (``schemas.files.read_regular``): a missing file is
    ``FileNotFoundError`` for the caller to name, everything else a named error."""
    return read_regular(path, what=what, max_bytes=max_bytes)


def read_text(path: str | os.PathLike[str], *, what: str, max_bytes: int = MAX_TEXT_BYTES) -> str:
    """The UTF-8 text of a regular file of at most ``max_bytes``, without a leading byte order mark."""
    raw = read_bytes(path, what=what, max_bytes=max_bytes)
    try:
        return raw.decode("utf-8").removeprefix(BOM)
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise InputFileError(
            f"{os.fspath(path)}:{line}: not UTF-8 text ({exc.reason} at byte {exc.start}); save the {what} file "
            "as UTF-8"
        ) from None


def check_tree(
    value: Any,
    *,
    where: str,
    what: str,
    max_depth: int = MAX_DEPTH,
    int_range: tuple[int, int] = INT_RANGE,
    root: str = "",
) -> None:
    """Refuse a parsed document nested deeper than ``max_depth`` or holding an integer outside ``int_range``,
    naming the key path (``p1.board[0].wounds``). Iterative: a deep document cannot exhaust the stack here."""
    low, high = int_range
    stack: list[tuple[Any, str, int]] = [(value, root, 0)]
    while stack:
        node, path, depth = stack.pop()
        if depth > max_depth:
            reason = f"nested {depth} levels deep, more than a {what} file may be ({max_depth}); flatten it"
            raise InputFileError(f"{where}: {path or '(top)'}: {reason}", key=path, reason=reason)
        if isinstance(node, bool):
            continue
        if isinstance(node, int):
            if not low <= node <= high:
                reason = f"{node} is outside {low} .. {high}; give a number in that range"
                raise InputFileError(f"{where}: {path or '(top)'}: {reason}", key=path, reason=reason)
        elif isinstance(node, dict):
            for key, item in node.items():
                stack.append((item, f"{path}.{key}" if path else str(key), depth + 1))
        elif isinstance(node, list):
            for i, item in enumerate(node):
                stack.append((item, f"{path}[{i}]", depth + 1))


def parse_toml(
    text: str,
    *,
    where: str,
    what: str,
    max_depth: int = MAX_DEPTH,
    int_range: tuple[int, int] = INT_RANGE,
) -> dict[str, Any]:
    """A TOML document, its nesting and numbers bounded (``check_tree``); syntax errors name the line."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputFileError(f"{where}: not valid TOML ({exc}); fix the syntax there") from None
    except RecursionError:  # nested far past MAX_DEPTH: the parser ran out of stack before we could look
        raise InputFileError(
            f"{where}: nested deeper than a {what} file may be ({max_depth} levels); flatten it"
        ) from None
    check_tree(doc, where=where, what=what, max_depth=max_depth, int_range=int_range)
    return doc


def load_toml(
    path: str | os.PathLike[str],
    *,
    what: str,
    max_bytes: int = MAX_TEXT_BYTES,
    max_depth: int = MAX_DEPTH,
    int_range: tuple[int, int] = INT_RANGE,
) -> dict[str, Any]:
    """A TOML file read through the door: regular, bounded in size, depth and numbers."""
    text = read_text(path, what=what, max_bytes=max_bytes)
    return parse_toml(text, where=os.fspath(path), what=what, max_depth=max_depth, int_range=int_range)


def parse_json(
    raw: bytes | str, *, where: str, what: str, max_depth: int = MAX_DEPTH, int_range: tuple[int, int] = INT_RANGE
) -> Any:
    """A JSON document, its nesting and numbers bounded (``check_tree``)."""
    try:
        doc = msgspec.json.decode(raw)
    except msgspec.DecodeError as exc:
        raise InputFileError(f"{where}: not valid JSON ({exc}); fix the syntax there") from None
    except RecursionError:
        raise InputFileError(
            f"{where}: nested deeper than a {what} file may be ({max_depth} levels); flatten it"
        ) from None
    check_tree(doc, where=where, what=what, max_depth=max_depth, int_range=int_range)
    return doc
