"""The C fast path of ingest (``ingest/_columnar.c``) gives exactly the reference flattener's tables, or hands the
chunk to it: on real games of every ruleset, on generated events and decisions of every kind, and on chunks that
hold damaged files. With ``ANNALS_PURE_PYTHON`` set, ingest runs on the reference alone and stores the same."""

from __future__ import annotations

import os
import tempfile
import typing
from pathlib import Path
from typing import Any

import msgspec
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from annals.engine.registry import get_ruleset
from annals.engine.simulate import make_header
from annals.ingest import columnar
from annals.ingest.flatten import Chunk, _flatten_files, collect, flatten_files
from annals.ingest.loader import ingest
from annals.ingest.plans import plans_for
from annals.schemas.header import LogClose
from annals.schemas.logfile import LogWriter
from annals.schemas.records import Decision
from annals.schemas.rulesets import ruleset_names, schema_for
from tests.ingest.test_ingest import snapshot
from tests.strategies import members


def test_the_extension_is_built_where_ci_requires_it() -> None:
    """CI sets ANNALS_REQUIRE_C: there the compiler is present, so a build that quietly failed is a failure."""
    if not columnar.BUILT and not os.environ.get("ANNALS_REQUIRE_C"):
        pytest.skip("the C extension is not built here (no compiler at install time); ingest uses the reference")
    if os.environ.get(columnar.PURE_PYTHON_VARIABLE):
        pytest.skip(f"{columnar.PURE_PYTHON_VARIABLE} switches the fast path off; ingest uses the reference")
    assert columnar.BUILT and columnar.enabled()


needs_c = pytest.mark.skipif(
    not columnar.BUILT, reason="the C extension is not built here (no compiler at install time)"
)


def fast(paths: list[str]) -> Chunk:
    """The fast path alone: raises ``Unsupported`` instead of handing the chunk to the reference."""
    return _flatten_files(paths, {}, columnar.NativeSink())


def assert_same(a: Chunk, b: Chunk) -> None:
    for name in a.events.schema.names:  # column by column, for a readable failure
        assert a.events.column(name).equals(b.events.column(name)), name
    for name in a.decisions.schema.names:
        assert a.decisions.column(name).equals(b.decisions.column(name)), name
    assert a.events.schema == b.events.schema and a.decisions.schema == b.decisions.schema
    assert (a.games, a.skipped, a.bad) == (b.games, b.skipped, b.bad)


@needs_c
def test_real_games_of_every_ruleset_give_the_reference_tables(real_logs: Path, logs_dir: Path) -> None:
    files = collect([real_logs, logs_dir])
    ours, reference = fast(files), flatten_files(files, {}, fast=False)
    assert_same(ours, reference)
    assert ours.events.num_rows == sum(g.events for g in ours.games) > 1000
    assert ours.decisions.num_rows == sum(g.decisions for g in ours.games) > 100
    assert {g.header.ruleset for g in ours.games} == {"miras9", "morana", "toy", "cardtoy"}


@needs_c
def test_a_damaged_file_in_the_middle_of_a_chunk_leaves_the_others_whole(real_logs: Path, tmp_path: Path) -> None:
    """A file that fails after some of its frames were parsed: its rows are dropped, the files around it kept."""
    files = collect([real_logs])[:3]
    damaged = tmp_path / "damaged.log"
    data = Path(files[1]).read_bytes()
    damaged.write_bytes(data[: len(data) - 40])  # the closing frame torn off: every batch frame reads first
    chunk = [files[0], str(damaged), files[2]]
    ours = fast(chunk)
    assert_same(ours, flatten_files(chunk, {}, fast=False))
    assert [b.error for b in ours.bad] == ["TruncatedLogError"] and len(ours.games) == 2


class Values(typing.NamedTuple):
    """How to draw the values of generated rows."""

    ints: st.SearchStrategy[int]
    text: st.SearchStrategy[str]
    player: st.SearchStrategy[int]

    def of(self, t: Any) -> st.SearchStrategy[Any]:
        origin, args = typing.get_origin(t), typing.get_args(t)
        if origin is typing.Literal:
            return st.sampled_from(args)
        if t is bool:
            return st.booleans()
        if t is int:
            return self.ints
        if t is str:
            return self.text
        if origin is list:
            return st.lists(self.of(args[0]), max_size=4)
        if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
            return st.lists(self.of(args[0]), max_size=4).map(tuple)
        if isinstance(t, type) and issubclass(t, msgspec.Struct):
            fields = {f.name: self.player if f.name == "player" else self.of(f.type)
                      for f in msgspec.structs.fields(t)}  # fmt: skip
            return st.builds(t, **fields)
        raise AssertionError(f"no strategy for {t!r}: extend Values.of() with the new field type")


# Values the fast path takes as they are: ints of 32 bits (a player in a TINYINT), strings JSON writes without
# escapes (non-ASCII too); and any values the schema admits.
PLAIN = Values(st.integers(-(2**31), 2**31 - 1), st.text(st.sampled_from("abcxyz019:-_./ éžŁ"), max_size=12),
               st.integers(-1, 1))  # fmt: skip
ANY = Values(st.integers(-(2**63), 2**63 - 1), st.text(max_size=12), st.integers(-(2**63), 2**63 - 1))


@st.composite
def game_rows(draw: st.DrawFn, ruleset: str, values: Values) -> tuple[list[Any], list[Any]]:
    """Events of any kind numbered 0, 1, ... ending with the ruleset's end event, and decisions numbered 0, 1, ...
    by a seat (with ``PLAIN`` values) whose chosen index is among the options offered (``write_log`` puts each at
    an event of its frame)."""
    schema = schema_for(ruleset)
    kinds = [t for t in members(schema.event_type) if t is not schema.end_event]
    events = draw(st.lists(st.one_of([values.of(t) for t in kinds]), max_size=30))
    end = draw(values.of(schema.end_event))
    events.append(msgspec.structs.replace(end, winner=draw(st.integers(-1, 1))) if values is PLAIN else end)
    events = [msgspec.structs.replace(e, n=i) for i, e in enumerate(events)]
    options = st.lists(st.one_of([values.of(t) for t in members(schema.option_type)]), min_size=1, max_size=5)
    decisions = []
    seat = values.player.map(abs) if values is PLAIN else values.player
    for i, offered in enumerate(draw(st.lists(options, max_size=6))):
        at, player, point = draw(st.tuples(values.ints, seat, values.text.filter(bool)))
        decisions.append(Decision(i, at, player, point, offered, draw(st.integers(0, len(offered) - 1))))
    return events, decisions


def write_log(folder: Path, ruleset: str, events: list[Any], decisions: list[Any]) -> str:
    """The rows as a log file in two batch frames, each decision at an event of its frame (in order), closed with
    the last event's result when it is an end event (else a record the close check refuses)."""
    rs = get_ruleset(ruleset)
    deck = sorted(rs.decks())[0]
    header = make_header(rs, 1, [deck, deck], sorted(rs.agents())[:1] * 2)
    path = folder / f"{ruleset}.log"
    writer = LogWriter(path, header)
    half, split = len(events) // 2, len(decisions) // 2
    spans = [(0, half)] * split + [(half, len(events))] * (len(decisions) - split)
    ats = [lo + d.at % (hi - lo + 1) for d, (lo, hi) in zip(decisions, spans, strict=True)]
    ats = sorted(ats[:split]) + sorted(ats[split:])
    decisions = [msgspec.structs.replace(d, at=at) for d, at in zip(decisions, ats, strict=True)]
    writer.write_batch(events[:half], decisions[:split])
    writer.write_batch(events[half:], decisions[split:])
    last = events[-1] if events else None
    result = (getattr(last, "winner", -1), getattr(last, "reason", "test"), last.turn if last is not None else 0)
    writer.close(LogClose(result[0], result[1], len(events), len(decisions), result[2]))
    return str(path)


def same_as_reference(ruleset: str, values: Values, examples: int) -> None:
    """Generated logs of ``ruleset``: with ``PLAIN`` values the fast path must take every one and give the
    reference's tables; with ``ANY`` values it gives them or hands the chunk over (``Unsupported``), and ingest's
    result is the reference's either way, a quarantine included. The examples run one after another on this
    thread's builder, so a failed chunk leaving anything behind shows too."""

    @settings(max_examples=examples, suppress_health_check=[HealthCheck.too_slow])
    @given(game_rows(ruleset, values))
    def check(rows: tuple[list[Any], list[Any]]) -> None:
        with tempfile.TemporaryDirectory() as folder:
            path = write_log(Path(folder), ruleset, *rows)
            reference = flatten_files([path], {}, fast=False)
            if values is PLAIN:
                assert_same(fast([path]), reference)
                return
            assert_same(flatten_files([path], {}), reference)
            try:
                ours = fast([path])
            except columnar.Unsupported:
                return
            assert_same(ours, reference)

    check()


@needs_c
@pytest.mark.parametrize("ruleset", ruleset_names())
@pytest.mark.parametrize("values", [PLAIN, ANY], ids=["plain", "any"])
def test_generated_rows_of_every_kind_give_the_reference_result(ruleset: str, values: Values) -> None:
    same_as_reference(ruleset, values, 40)


@needs_c
@pytest.mark.soak
@pytest.mark.parametrize("ruleset", ruleset_names())
@pytest.mark.parametrize("values", [PLAIN, ANY], ids=["plain", "any"])
def test_soak_generated_rows_give_the_reference_result(ruleset: str, values: Values) -> None:
    same_as_reference(ruleset, values, 2_000)


def with_text(kind: type[Any], text: str) -> Any:
    """An event of ``kind`` numbered 0 whose every string field is ``text`` (lists empty, numbers 0)."""
    return kind(**{f.name: text if f.type is str else [] if typing.get_origin(f.type) is list else 0
                   for f in msgspec.structs.fields(kind)})  # fmt: skip


@needs_c
def test_a_string_json_must_escape_goes_to_the_reference(tmp_path: Path) -> None:
    """The fast path writes ``extra`` JSON only for strings needing no escapes; a quote sends the chunk over, and
    the bytes it had written for that row do not leak into the next chunk the same thread parses."""
    schema = schema_for("morana")
    plans, _ = plans_for(schema)
    kind = next(t for t in members(schema.event_type)
                if any(arrow == pa.string() for _, _, arrow in plans[t.__struct_config__.tag].extra))  # fmt: skip
    (tmp_path / "quoted").mkdir()
    (tmp_path / "plain").mkdir()
    end = msgspec.structs.replace(with_text(schema.end_event, "slava_13"), n=1, winner=0)
    quoted = write_log(tmp_path / "quoted", "morana", [with_text(kind, 'say "hi"\n'), end], [])
    plain = write_log(tmp_path / "plain", "morana", [with_text(kind, "fine"), end], [])
    with pytest.raises(columnar.Unsupported, match="escape"):
        fast([quoted])
    assert_same(fast([plain]), flatten_files([plain], {}, fast=False))  # this thread's builder, reused
    chunk = flatten_files([quoted], {})
    assert_same(chunk, flatten_files([quoted], {}, fast=False))
    assert chunk.events.num_rows == 2 and not chunk.bad and '\\"hi\\"' in chunk.events.column("extra")[0].as_py()


def test_pure_python_ingest_stores_the_same_database(
    real_logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Threads over the C parser (the default) and worker processes over the reference store the same rows."""
    default = ingest([real_logs], tmp_path / "default.duckdb", workers=2, chunk_files=1)
    monkeypatch.setenv(columnar.PURE_PYTHON_VARIABLE, "1")
    assert not columnar.enabled()
    pure = ingest([real_logs], tmp_path / "pure.duckdb", workers=2, chunk_files=1)
    assert default.reconciled and pure.reconciled and default.events_stored == pure.events_stored > 0
    assert snapshot(tmp_path / "default.duckdb") == snapshot(tmp_path / "pure.duckdb")
