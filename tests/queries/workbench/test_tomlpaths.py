"""``queries.workbench.tomlpaths``: the line of each value of a TOML document, by key path, against the lines a writer
recorded as it wrote random documents (nested arrays and inline tables, one value or many per line, comments,
strings holding quotes, brackets, commas and '#', multi-line strings, the same text written twice)."""

from __future__ import annotations

import json
import tomllib
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from annals.queries.workbench.tomlpaths import line_of, value_lines

KEYS = st.sampled_from(["a", "b", "card", "lane", "p1", "x-y", "k_2", '"two words"', "'lit'"])
TEXTS = st.text(alphabet=st.sampled_from(list("ab #,][\"}{='\\é")), max_size=8)
SCALARS = st.one_of(st.integers(-5, 99), st.booleans(), TEXTS, st.just("p1 pass"))


def _plain(key: str) -> str:
    return key[1:-1] if key[0] in "\"'" else key


class _Writer:
    def __init__(self, style: st.DataObject):
        self.out: list[str] = []
        self.lines: dict[str, int] = {}
        self.draw = style.draw

    def scalar(self, value: Any) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int):
            return str(value)
        if self.draw(st.booleans()) and "'" not in value:
            return f"'{value}'"
        return json.dumps(value, ensure_ascii=False)

    def inline(self, value: Any, path: str, multiline: bool) -> str:
        """``value`` as TOML text starting on the current last line (recording each path's line as written)."""
        line = len(self.out)
        self.lines.setdefault(path, line)
        if isinstance(value, list):
            if multiline and value:
                self.out[line - 1] += "["
                for i, item in enumerate(value):
                    self.out.append("  ")
                    text = self.inline(item, f"{path}[{i}]", False)  # (before reading the line it adds to)
                    self.out[-1] += text + ","
                    if self.draw(st.booleans()):
                        self.out[-1] += "  # a ] comment, with 'quotes'"
                self.out.append("]")
                return ""
            parts = []
            for i, item in enumerate(value):
                self.lines.setdefault(f"{path}[{i}]", line)
                parts.append(self.inline(item, f"{path}[{i}]", False))
            return "[" + ", ".join(parts) + "]"
        if isinstance(value, dict):
            parts = []
            for key, item in value.items():
                parts.append(f"{key} = " + self.inline(item, f"{path}.{_plain(key)}", False))
            return "{ " + ", ".join(parts) + " }"
        return self.scalar(value)

    def key_value(self, key: str, value: Any, prefix: str) -> None:
        self.out.append(f"{key} = ")
        path = f"{prefix}.{_plain(key)}" if prefix else _plain(key)
        if isinstance(value, str) and self.draw(st.booleans()):  # a multi-line string: its lines are the string's
            self.lines[path] = len(self.out)
            self.out[-1] += '"""'
            self.out.append(value.replace("\\", "\\\\").replace('"', '\\"'))
            self.out.append('second line"""')
            return
        multiline = isinstance(value, list) and self.draw(st.booleans())
        at = len(self.out) - 1
        text = self.inline(value, path, multiline)  # (a multi-line array adds lines and ends its first one)
        self.out[at] += text


VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, min_size=1, max_size=3),
    max_leaves=8,
)
ENTRIES = st.dictionaries(KEYS, VALUES, max_size=4)


@settings(max_examples=150, deadline=None)
@given(
    top=ENTRIES,
    tables=st.dictionaries(st.sampled_from(["position", "p1", "p2"]), ENTRIES, max_size=3),
    cards=st.lists(ENTRIES, max_size=3),
    style=st.data(),
)
def test_each_value_is_found_on_the_line_it_was_written(
    top: dict[str, Any], tables: dict[str, Any], cards: list[dict[str, Any]], style: st.DataObject
) -> None:
    w = _Writer(style)
    for key, value in top.items():
        w.key_value(key, value, "")
    for name, entries in tables.items():
        if name in {_plain(k) for k in top}:
            continue
        w.out.append(f"[{name}]  # the {name} table")
        w.lines[name] = len(w.out)
        for key, value in entries.items():
            w.key_value(key, value, name)
    for i, entries in enumerate(cards):
        if "cards" in {_plain(k) for k in top}:
            break
        w.out.append("[[cards]]")
        w.lines[f"cards[{i}]"] = len(w.out)
        for key, value in entries.items():
            w.key_value(key, value, f"cards[{i}]")
    text = "\n".join(w.out) + "\n"
    tomllib.loads(text)  # the writer writes TOML
    found = value_lines(text)
    for path, line in w.lines.items():
        assert found.get(path) == line, (path, line, found.get(path), text)


def test_the_same_text_twice_is_told_apart_by_its_path() -> None:
    text = 'decisions = [\n  "p1 pass",  # first\n  "p2 pass",\n  "p1 pass",\n]\n'
    lines = value_lines(text)
    assert (lines["decisions[0]"], lines["decisions[2]"]) == (2, 4)
    assert line_of(lines, "decisions[2].card") == 4  # no such value: the nearest enclosing one
    assert line_of(lines, "nowhere[3]") == 0
