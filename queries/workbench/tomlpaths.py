"""Where each value of a TOML document is written: key path -> line, for errors that point at the line at fault.

``tomllib`` gives values, not positions. ``value_lines`` scans the text once more, as TOML's grammar reads it
(table headers, arrays of tables, dotted and quoted keys, arrays and inline tables nested to any depth, the four
kinds of string, comments), and records the line on which each value starts, under its key path as the scenario
errors name it::

    >>> text = 'decisions = [\\n  "p1 pass",\\n  "p1 pass",\\n]\\n[p1]\\nboard = [{ card = "a1=x", lane = "space" }]\\n'
    >>> lines = value_lines(text)
    >>> lines["decisions[1]"], lines["p1"], lines["p1.board[0].lane"]
    (3, 5, 6)

A table (``[p1]``) and an element of an array of tables (``cards[2]``) map to their header's line. The same text
written twice maps to two lines: the path says which. Call it on text ``tomllib`` has accepted; on anything it
does not understand it stops and returns what it found so far (a missing path then falls back to its parent's
line, see ``line_of``).
"""

from __future__ import annotations

import bisect
import contextlib
import re

_BARE = re.compile(r"[A-Za-z0-9_-]+")
_SCALAR_END = re.compile(r"[,\]}\n#]")


class _Stop(Exception):
    pass


class _Scanner:
    def __init__(self, text: str):
        self.text = text
        self.i = 0
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.lines: dict[str, int] = {}
        self.arrays: dict[str, int] = {}  # array-of-tables path (without indexes) -> elements so far

    def line(self) -> int:
        return bisect.bisect_right(self.starts, self.i)

    def peek(self, n: int = 1) -> str:
        return self.text[self.i : self.i + n]

    def skip(self, newlines: bool) -> None:
        """Whitespace and comments (and newlines, where the grammar allows them)."""
        text = self.text
        while self.i < len(text):
            c = text[self.i]
            if c in " \t\r" or (newlines and c == "\n"):
                self.i += 1
            elif c == "#":
                end = text.find("\n", self.i)
                self.i = len(text) if end < 0 else end
            else:
                return

    def string(self) -> str:
        text = self.text
        for quote in ('"""', "'''"):
            if text.startswith(quote, self.i):
                end = self.i + 3
                while True:
                    end = text.find(quote, end)
                    if end < 0:
                        raise _Stop
                    if quote == '"""' and _escaped(text, end):
                        end += 1
                        continue
                    while text.startswith(quote[0], end + 3):  # up to two quotes may end the content
                        end += 1
                    value = text[self.i + 3 : end]
                    self.i = end + 3
                    return value
        quote = text[self.i]
        end = self.i + 1
        while True:
            end = text.find(quote, end)
            if end < 0:
                raise _Stop
            if quote == '"' and _escaped(text, end):
                end += 1
                continue
            value = text[self.i + 1 : end]
            self.i = end + 1
            return value

    def key(self) -> list[str]:
        parts = []
        while True:
            self.skip(False)
            if self.peek() in ('"', "'"):
                parts.append(self.string())
            else:
                m = _BARE.match(self.text, self.i)
                if m is None:
                    raise _Stop
                parts.append(m.group())
                self.i = m.end()
            self.skip(False)
            if self.peek() != ".":
                return parts
            self.i += 1

    def header_path(self, keys: list[str], array: bool) -> str:
        path, plain = "", ""
        for k, key in enumerate(keys):
            plain = f"{plain}.{key}" if plain else key
            path = f"{path}.{key}" if path else key
            last = k == len(keys) - 1
            if array and last:
                n = self.arrays.get(plain, 0)
                self.arrays[plain] = n + 1
                path += f"[{n}]"
            elif plain in self.arrays:  # a table inside the latest element of an array of tables
                path += f"[{self.arrays[plain] - 1}]"
        return path

    def value(self, path: str) -> None:
        self.skip(False)
        self.lines.setdefault(path, self.line())
        c = self.peek()
        if c == "[":
            self.i += 1
            k = 0
            while True:
                self.skip(True)
                if self.peek() == "]":
                    self.i += 1
                    return
                self.value(f"{path}[{k}]")
                k += 1
                self.skip(True)
                if self.peek() == ",":
                    self.i += 1
                elif self.peek() != "]":
                    raise _Stop
        elif c == "{":
            self.i += 1
            while True:
                self.skip(False)
                if self.peek() == "}":
                    self.i += 1
                    return
                keys = self.key()
                if self.peek() != "=":
                    raise _Stop
                self.i += 1
                self.record_prefixes(path, keys)
                self.value(".".join([path, *keys]))
                self.skip(False)
                if self.peek() == ",":
                    self.i += 1
        elif c in ('"', "'"):
            self.string()
        else:
            m = _SCALAR_END.search(self.text, self.i)
            end = len(self.text) if m is None else m.start()
            if end == self.i:
                raise _Stop
            self.i = end

    def record_prefixes(self, table: str, keys: list[str]) -> None:
        """A dotted key (``a.b = 1``) makes tables ``a``: they start on the line where they are first named."""
        for k in range(1, len(keys)):
            self.lines.setdefault(".".join([table, *keys[:k]]) if table else ".".join(keys[:k]), self.line())

    def document(self) -> None:
        table = ""
        while True:
            self.skip(True)
            if self.i >= len(self.text):
                return
            if self.peek(2) == "[[":
                self.i += 2
                line = self.line()
                table = self.header_path(self.key(), True)
                if self.peek(2) != "]]":
                    raise _Stop
                self.i += 2
                self.lines.setdefault(table, line)
            elif self.peek() == "[":
                self.i += 1
                line = self.line()
                table = self.header_path(self.key(), False)
                if self.peek() != "]":
                    raise _Stop
                self.i += 1
                self.lines.setdefault(table, line)
            else:
                keys = self.key()
                if self.peek() != "=":
                    raise _Stop
                self.i += 1
                self.record_prefixes(table, keys)
                self.value(".".join([table, *keys]) if table else ".".join(keys))


def _escaped(text: str, at: int) -> bool:
    """The quote at ``at`` follows an odd number of backslashes (so it is part of the string)."""
    k = at - 1
    while k >= 0 and text[k] == "\\":
        k -= 1
    return (at - 1 - k) % 2 == 1


def value_lines(text: str) -> dict[str, int]:
    """Each key path of the document -> the line (from 1) its value, table or table-array element starts on."""
    scanner = _Scanner(text)
    with contextlib.suppress(_Stop, IndexError):  # text tomllib refused: what was found so far
        scanner.document()
    return scanner.lines


_LAST = re.compile(r"(\.[^.\[\]]+|\[\d+\])$")


def line_of(lines: dict[str, int], path: str) -> int:
    """The line of ``path``, or of the nearest enclosing value written in the file (``p1.board[0].card`` of a board
    entry written as a plain string is that string's line); 0 when none is."""
    while path:
        if path in lines:
            return lines[path]
        shorter = _LAST.sub("", path)
        if shorter == path:
            return 0
        path = shorter
    return 0
