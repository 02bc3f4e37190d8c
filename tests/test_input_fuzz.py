"""Fuzz every input kind (Hypothesis): whatever a file holds, its reader gives a valid result or a named error
(an ``AnnalsError``), never another exception, within a bounded time and memory. A few dozen examples each by
default; thousands with ``--soak`` (``tests/fuzzing.py``). Position files have their own fuzz
(``tests/queries/positions/test_position_fuzz.py``); the server's frames theirs (``tests/server/test_frames.py``).

The scenario documents are the shipped starters with one value anywhere replaced by another: a number (small,
negative, beyond any range), a string (a name the file uses elsewhere, or one nothing knows), a flag, a list,
a table, or a value nested deep; the file is then played, for those that load."""

from __future__ import annotations

import json
import time
import tomllib
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from annals.engine.decks import parse_deck_list
from annals.engine.tournament.store import EventStore
from annals.queries.workbench.scenario import load_scenario, run_scenario, template
from annals.schemas.carddefs import load_card_file
from annals.schemas.errors import AnnalsError
from annals.schemas.event import EventConfig
from annals.schemas.inputs import MAX_DEPTH, parse_json, parse_toml
from annals.schemas.keys import load_public_key
from tests.fuzzing import fuzz_settings, memory_bound

SECONDS = 20.0  # per example, on a loaded machine: a scenario plays at most its few decisions


def _named(call: Any) -> Any:
    """``call()``, or the ``AnnalsError`` it raised (any other exception fails the test), within ``SECONDS``."""
    start = time.monotonic()
    try:
        return call()
    except AnnalsError as exc:
        assert str(exc).strip(), "an error that says nothing"
        return exc
    finally:
        assert time.monotonic() - start < SECONDS


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value) if value == value and abs(value) != float("inf") else "nan"
    if isinstance(value, str):
        return json.dumps(value)  # a TOML basic string is JSON's
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return "{ " + ", ".join(f"{json.dumps(str(k))} = {_toml(v)}" for k, v in value.items()) + " }"


def _document(doc: dict[str, Any]) -> str:
    """A TOML document: every top-level key as ``key = inline value`` (the same values as tables would be)."""
    return "".join(f"{json.dumps(key)} = {_toml(value)}\n" for key, value in doc.items())


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path] if path else []
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
    for key, item in items:
        out.extend(_nodes(item, (*path, key)))
    return out


SCALARS = st.one_of(
    st.integers(-5, 40),
    st.sampled_from([-1, 10**6 + 1, 2**63, 10**21, -(10**21)]),
    st.booleans(),
    st.sampled_from(["a1", "b1", "d1", "p1", "p2", "exterior", "space", "char-raider", "attack", "slava"]),
    st.text(max_size=12),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


def _deep(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = {"a": value}
    return value


@given(
    ruleset=st.sampled_from(["miras9", "morana"]),
    at=st.integers(min_value=0),
    value=VALUES | st.integers(MAX_DEPTH - 2, MAX_DEPTH + 40).map(_deep),
)
@fuzz_settings(default=40, soak=3000)
def test_fuzzed_scenarios_play_or_are_refused_by_name(tmp_path_factory: Any, ruleset: str, at: int, value: Any) -> None:
    doc = tomllib.loads(template(ruleset))
    nodes = _nodes(doc)
    path = nodes[at % len(nodes)]
    target: Any = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    folder = tmp_path_factory.mktemp("fuzz")
    file = folder / "s.toml"
    file.write_text(_document(doc))
    loaded = _named(lambda: load_scenario(file))
    if not isinstance(loaded, AnnalsError):
        _named(lambda: run_scenario(loaded, folder / "s.log"))


@given(st.text(max_size=400))
@fuzz_settings(default=40, soak=3000)
def test_fuzzed_scenario_text_is_read_or_refused_by_name(tmp_path_factory: Any, text: str) -> None:
    file = tmp_path_factory.mktemp("fuzz") / "s.toml"
    file.write_text(template("morana").replace("[position]", text + "\n[position]", 1), encoding="utf-8")
    _named(lambda: load_scenario(file))


DECK_LINES = st.one_of(
    st.text(max_size=30),
    st.builds(
        lambda n, name: f"{n} {name}",
        st.integers(-3, 2**70),
        st.sampled_from(["Recruit", "char-recruit", "Raider", "Kessra", "kessra *", "Recrut", "", "*"]),
    ),
    st.sampled_from(["Deck: x", "Planet: Kessra", "Warden: Lada", "# a comment", "Planet:", "Deck:"]),
)


@given(ruleset=st.sampled_from(["miras9", "morana"]), lines=st.lists(DECK_LINES, max_size=40))
@fuzz_settings(default=60, soak=5000)
def test_fuzzed_deck_lists_are_read_or_refused_by_name(ruleset: str, lines: list[str]) -> None:
    _named(lambda: parse_deck_list("\n".join(lines), ruleset))


CARD_FIELDS = st.dictionaries(
    st.sampled_from(["id", "name", "type", "cost", "atk", "grit", "echo", "traits", "text", "kind", "power", "x"]),
    VALUES,
    max_size=8,
)


@given(st.lists(CARD_FIELDS, max_size=4), st.sampled_from(["cards", "wardens", "other"]))
@fuzz_settings(default=40, soak=3000)
def test_fuzzed_card_files_are_read_or_refused_by_name(tmp_path_factory: Any, tables: list[Any], key: str) -> None:
    file = tmp_path_factory.mktemp("fuzz") / "cards.toml"
    file.write_text(_document({key: tables}) if tables else "")
    _named(lambda: load_card_file(file, ("cards", "wardens")))


@given(st.binary(max_size=600) | st.text(max_size=300).map(lambda t: f"-----BEGIN PUBLIC KEY-----\n{t}\n".encode()))
@fuzz_settings(default=40, soak=3000)
def test_fuzzed_public_keys_are_read_or_refused_by_name(tmp_path_factory: Any, data: bytes) -> None:
    file = tmp_path_factory.mktemp("fuzz") / "k.pub"
    file.write_bytes(data)
    _named(lambda: load_public_key(file))


@given(st.binary(max_size=200), st.integers(0, 4000), st.booleans())
@fuzz_settings(default=40, soak=3000)
def test_fuzzed_event_records_are_read_or_refused_by_name(
    tmp_path_factory: Any, data: bytes, at: int, insert: bool
) -> None:
    """The event's record (``event.log``) with bytes written over or into it anywhere: read, or a named error."""
    folder = tmp_path_factory.mktemp("fuzz") / "ev"
    EventStore.create(folder, EventConfig("fuzz", "fuzz-1", "miras9", 0, 3, 0, 1, 0, "random"))
    record = folder / "event.log"
    raw = record.read_bytes()
    at = min(at, len(raw))
    record.write_bytes(raw[:at] + data + raw[at + (0 if insert else len(data)) :])
    _named(EventStore(folder).players)


@given(st.integers(1, 50_000), st.sampled_from("[{"), st.booleans())
@fuzz_settings(default=30, soak=1000)
def test_nesting_is_refused_by_name_in_bounded_memory(depth: int, bracket: str, as_json: bool) -> None:
    """However deep, a document costs memory in proportion to its size, and is refused past ``MAX_DEPTH``."""
    close = "]" if bracket == "[" else "}"
    opener = bracket if bracket == "[" or as_json else "{a = "
    if bracket == "{" and as_json:
        opener = '{"a": '
    text = opener * depth + "1" + close * depth
    with memory_bound(64 * len(text) + (4 << 20)):
        got = _named(lambda: parse_json(text, where="x", what="test") if as_json else
                     parse_toml(f"x = {text}", where="x", what="test"))  # fmt: skip
    if depth > MAX_DEPTH + 1:
        assert isinstance(got, AnnalsError) and ("nested" in str(got) or "not valid" in str(got)), got
