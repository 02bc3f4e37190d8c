"""Types of the C extension ingest/_columnar.c (see ingest/columnar.py)."""

from collections.abc import Callable
from typing import Any

class Unsupported(Exception): ...

# (name, width, fields) per event tag; fields[i] = (convention column or -1, type code, name, the value stored as
# NULL or None) of row position 5 + i (a text sentinel can only be "")
KindSpec = tuple[str, int, tuple[tuple[int, int, str, int | str | None], ...]]
# rows, nulls, validity, offsets (strings and lists) or None, values
Column = tuple[int, int, Any, Any | None, Any]

class Plan:
    # options[tag]: (class name, required fields, each field's type code or -1)
    def __init__(
        self, kinds: list[KindSpec | None], options: list[tuple[str, int, tuple[int, ...]] | None], end_tag: int, /
    ) -> None: ...

class Builder:
    def __init__(self) -> None: ...
    # (plan, file_idx, payloads, seats) -> (events, decisions, first player, end events) per file
    def add_files(self, files: list[tuple[Plan, int, list[bytes], int]], /) -> list[tuple[int, int, int, int]]: ...
    def rows(self) -> tuple[int, int]: ...
    def truncate(self, events: int, decisions: int, /) -> None: ...
    def finish(self, allocate: Callable[[int], Any], /) -> tuple[list[Column], list[Column]]: ...
