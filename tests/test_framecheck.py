"""The C fast path of the reader's frame checks (``schemas/_framecheck.c``) against the reference
(``FrameCheck.frame``): on generated frames of every ruleset, as written and with one field edited, the fast path
accepts exactly the frames the reference accepts, with the same counts, and declines every other (the reference
then names what is wrong). The resealed edits of ``tests/ingest/test_verify_cases.py`` are read both ways there;
here, real logs read the same both ways, and every frame of them takes the fast path."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from annals.engine.registry import get_ruleset
from annals.engine.simulate import make_header, simulate
from annals.schemas import validate
from annals.schemas.errors import InconsistentLogError
from annals.schemas.logfile import read_log
from annals.schemas.records import Decision, Event
from annals.schemas.rulesets import ruleset_names, schema_for
from annals.schemas.validate import PURE_PYTHON_VARIABLE, FrameCheck, Where
from tests.ingest.test_columnar import ANY, PLAIN, game_rows

with contextlib.suppress(ImportError):  # not built: the tests that need it are skipped
    from annals.schemas import _framecheck

needs_c = pytest.mark.skipif(not validate.BUILT, reason="the C extension is not built here (no compiler at install)")


def test_the_extension_is_built_where_ci_requires_it() -> None:
    """CI sets ANNALS_REQUIRE_C: there the compiler is present, so a build that quietly failed is a failure."""
    if not validate.BUILT and not os.environ.get("ANNALS_REQUIRE_C"):
        pytest.skip("the C extension is not built here (no compiler at install time); the reference checks")
    if os.environ.get(validate.PURE_PYTHON_VARIABLE):
        pytest.skip(f"{validate.PURE_PYTHON_VARIABLE} switches the C checks off; the reference checks")
    assert validate.BUILT and validate.fast_checks()


# An edit of one field of the frame's rows: (events or decisions, which row, which field, the value).
Edit = tuple[int, int, int, Any]


@st.composite
def edits(draw: st.DrawFn) -> Edit | None:
    if draw(st.booleans()):
        return None
    part = draw(st.sampled_from([0, 1]))
    # events: n and player; decisions: n, at, player, point, chosen
    field = draw(st.sampled_from([1, 4] if part == 0 else [0, 1, 2, 3, 5]))
    value = draw(st.text(max_size=2) if (part, field) == (1, 3) else st.integers(-3, 40) | st.sampled_from([2**63]))
    return part, draw(st.integers(0, 40)), field, value


def reference(check: FrameCheck, events: list[Any], decisions: list[Any], end: Any) -> tuple[int, ...] | None:
    """The reference's verdict: (events, end events, decisions, last decision's event), or None if it refuses."""
    first, taken = check.events, check.decisions
    astuple = msgspec.structs.astuple
    try:
        check.frame(Where("t", 1, 0), [e.n for e in events], [e.player for e in events], map(astuple, decisions))
    except InconsistentLogError:
        return None
    return check.events - first, sum(type(e) is end for e in events), check.decisions - taken, check.at


def same_verdicts(ruleset: str, examples: int) -> None:
    schema = schema_for(ruleset)
    rs = get_ruleset(ruleset)
    deck = sorted(rs.decks())[0]
    header = make_header(rs, 1, [deck, deck], sorted(rs.agents())[:1] * 2)
    decoder = msgspec.msgpack.Decoder(schema.batch_type)
    end = schema.end_event

    @settings(max_examples=examples, suppress_health_check=[HealthCheck.too_slow])
    @given(st.one_of(game_rows(ruleset, PLAIN), game_rows(ruleset, ANY)), edits(), st.integers(0, 3))
    def check(rows: tuple[list[Any], list[Any]], edit: Edit | None, first: int) -> None:
        events = [msgspec.structs.replace(e, n=e.n + first) for e in rows[0]]
        decisions = [msgspec.structs.replace(d, at=first + d.at % (len(events) + 1)) for d in rows[1]]
        plain = [[msgspec.to_builtins(e) for e in events], [msgspec.to_builtins(d) for d in decisions]]
        if edit is not None and plain[edit[0]]:
            part, row, field, value = edit
            plain[part][row % len(plain[part])][field] = value
        try:
            typed_events, typed_decisions = decoder.decode(msgspec.msgpack.encode(plain))
        except msgspec.ValidationError:
            return  # the reader refuses it before any content check
        ours = FrameCheck("t", header)
        ours.events = ours.at = first
        want = reference(ours, typed_events, typed_decisions, end)
        got = _framecheck.typed(
            typed_events, typed_decisions, first, 0, first, len(header.players), end, Event, Decision
        )
        assert got == want, (plain, want, got)

    check()


@needs_c
@pytest.mark.parametrize("ruleset", ruleset_names())
def test_the_fast_path_accepts_exactly_what_the_reference_accepts(ruleset: str) -> None:
    same_verdicts(ruleset, 150)


@needs_c
@pytest.mark.soak
@pytest.mark.parametrize("ruleset", ruleset_names())
def test_soak_the_fast_path_accepts_exactly_what_the_reference_accepts(ruleset: str) -> None:
    same_verdicts(ruleset, 3_000)


@needs_c
@pytest.mark.skipif(not validate.fast_checks(), reason=f"{validate.PURE_PYTHON_VARIABLE} switches the C checks off")
def test_real_logs_read_the_same_both_ways_every_frame_on_the_fast_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = [*simulate("miras9", 2, 3, ["vanguard", "tempest"], ["heuristic", "random"], tmp_path / "m9"),
             *simulate("morana", 2, 3, ["clash", "glory"], ["heuristic", "random"], tmp_path / "mor")]  # fmt: skip
    paths = [g.path for g in games]
    fast = [read_log(p) for p in paths]

    def refuse(*args: Any) -> None:
        raise AssertionError("a frame of a real log went to the reference")

    with monkeypatch.context() as patched:
        patched.setattr(FrameCheck, "frame", refuse)
        assert [read_log(p) for p in paths] == fast
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
    assert [read_log(p) for p in paths] == fast


@needs_c
def test_the_writers_six_values_are_the_reference_tuples() -> None:
    """``LogWriter.write_batch`` writes a decision the table did not answer as its six values, in C where it is
    built: the same list as the Python reference, an automatic answer kept whole."""
    from annals.schemas.logfile import six_values

    decisions = [Decision(n, n + 1, n % 2, "main", [n, "x"], 0, automatic=n % 3 == 0) for n in range(10)]
    want = [d if d.automatic else six_values(d) for d in decisions]
    got = _framecheck.six_values(decisions, Decision)
    assert got == want and [type(x) for x in got] == [type(x) for x in want]
    assert _framecheck.six_values([], Decision) == []
