"""Position-file fuzz: random single-field edits of real positions either load a position that plays on legally
(bots to the end, no exception) or are refused with ``InvalidPositionError``; no other exception, ever.

The positions come from simulated games of both real rulesets (and the card toy), taken at coordinates from set-up
to the end. An edit is one change anywhere in the file: a number (small, negative, huge, beyond 64 bits), a string
(another value seen in the file, or one the game has never heard of), a flag, null, or a list with an element
dropped, repeated or added.
"""

from __future__ import annotations

import copy
import json
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from annals.engine.registry import get_ruleset
from annals.engine.replay import rerun
from annals.engine.simulate import simulate
from annals.queries.positions.files import InvalidPositionError, continue_game, load_position, position_file
from annals.queries.positions.timeline import Timeline
from annals.schemas.logfile import read_log
from tests.resumecheck import stops

GAMES = {"miras9": ["bastion", "tempest"], "morana": ["clash", "glory"], "cardtoy": ["low", "high"]}
SLICES = 9  # positions per game: set-up, evenly through the game, and the end


@cache
def positions() -> list[tuple[str, dict[str, Any]]]:
    """(ruleset, position document) pairs from two bot games per ruleset."""
    root = Path(tempfile.mkdtemp(prefix="annals-fuzz-"))
    found: list[tuple[str, dict[str, Any]]] = []
    for ruleset, decks in GAMES.items():
        for result in simulate(ruleset, 2, 21, decks, ["heuristic", "random"] if ruleset != "cardtoy" else
                               ["random", "random"], root / ruleset):  # fmt: skip
            del result
        for log in sorted((root / ruleset).glob("*.log")):
            timeline = Timeline.from_file(log)
            total = len(timeline.events)
            at = [*stops(timeline.log), total] if ruleset == "morana" else []
            for k in range(SLICES):
                count = total * k // (SLICES - 1)
                if at:  # inside a MORANA stage no position goes on (a stop: a Commit, or a stage's start)
                    count = next(c for c in at if c >= count)
                found.append((ruleset, json.loads(position_file(timeline, count))))
    return found


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every node of a JSON tree (below the document) as a path of keys and indexes."""
    out = [path] if path else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*path, i))
    return out


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)] + [str(k) for k in value]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


INTS = [-1, 0, 1, 2, 3, 5, 7, 9, 13, 99, 999, 1000, 1999, 2000, 2999, 10_000, 2**31, 2**63, 2**64, 2**70, -(2**70)]


@st.composite
def edits(draw: st.DrawFn) -> tuple[str, dict[str, Any], str]:
    ruleset, original = draw(st.sampled_from(positions()))
    doc = copy.deepcopy(original)
    paths = _paths(doc)
    path = draw(st.sampled_from(paths))
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    old = parent[key]
    kind = draw(st.sampled_from(["int", "string", "flag", "null", "list"] if isinstance(old, list) else
                                ["int", "string", "flag", "null"]))  # fmt: skip
    if kind == "int":
        new: Any = draw(st.sampled_from(INTS) | st.integers(-3, 3).map(lambda d: old + d if type(old) is int else d))
    elif kind == "string":
        new = draw(st.sampled_from(["teatime", "", "c1", "exterior", "lane:0:space", *_strings(original)[:400]]))
    elif kind == "flag":
        new = not old if isinstance(old, bool) else draw(st.booleans())
    elif kind == "null":
        new = None
    else:
        new = list(old)
        op = draw(st.sampled_from(["drop", "repeat", "add", "empty"]))
        if op == "drop" and new:
            new.pop(draw(st.integers(0, len(new) - 1)))
        elif op == "repeat" and new:
            new.append(copy.deepcopy(new[draw(st.integers(0, len(new) - 1))]))
        elif op == "add":
            new.append(draw(st.sampled_from(INTS)))
        else:
            new = []
    if isinstance(parent, dict) and draw(st.integers(0, 9)) == 0:
        del parent[key]  # sometimes a field left out altogether
        return ruleset, doc, f"deleted {'/'.join(map(str, path))} (was {old!r})"[:300]
    parent[key] = new
    return ruleset, doc, f"{'/'.join(map(str, path))}: {old!r} -> {new!r}"[:300]


def check_edit(ruleset: str, doc: dict[str, Any], what: str, folder: Path) -> None:
    path = folder / "edited.json"
    path.write_text(json.dumps(doc))
    try:
        loaded = load_position(path)
    except InvalidPositionError:
        return
    cap = get_ruleset(ruleset).default_max_turns or 60
    out = folder / "continued.log"
    out.unlink(missing_ok=True)  # the last edit's game: a log is never written over
    try:
        continue_game(loaded, out, seed=3, bots=["random", "random"], max_turns=loaded.state.turn + cap)
        assert rerun(read_log(out)).ok
    except Exception as exc:
        raise AssertionError(f"accepted edit {what} then failed: {type(exc).__name__}: {exc}") from exc


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(edits())
def test_single_field_edits_are_refused_or_play_on(edit: tuple[str, dict[str, Any], str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        check_edit(*edit, Path(folder))


@pytest.mark.soak
@settings(max_examples=3000, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(edits())
def test_single_field_edits_are_refused_or_play_on_soak(edit: tuple[str, dict[str, Any], str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        check_edit(*edit, Path(folder))


def test_the_unedited_positions_load_and_play_on(tmp_path: Path) -> None:
    """The fuzz's starting points are accepted and play on (else every edit would be refused trivially), except
    a position saved in the middle of one action of the rules, which is refused as such."""
    accepted = 0
    for i, (ruleset, doc) in enumerate(positions()):
        path = tmp_path / "p.json"
        path.write_text(json.dumps(doc))
        try:
            load_position(path)
        except InvalidPositionError as exc:
            named = "in the middle of an action" in str(exc) or "inside one action of the rules" in str(exc)
            assert named, f"position {i} of {ruleset}: {exc}"  # (queries.positions.midway names it before play)
            continue
        check_edit(ruleset, doc, f"none (position {i})", tmp_path)
        accepted += 1
    assert accepted >= len(positions()) - 4
