"""Positions: the log fold (from snapshots), the conventions fold and the SQL ``position()`` macro agree on every
event of sample games; coordinates resolve; views hide what the viewer never saw."""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from annals.engine.core import Position
from annals.engine.replay import fold
from annals.ingest.flatten import collect
from annals.ingest.schema import open_database
from annals.queries.positions import sqlfiles
from annals.queries.positions.timeline import (
    POINT_QUERY_SKIPPED_OPTIMIZERS,
    CoordinateError,
    Timeline,
    convention_fold,
    game_number,
    point_queries,
    position_from_db,
    position_from_macro,
)
from annals.schemas.logfile import read_log

# Rulesets whose Ruleset.position is exactly the field-name conventions (Nim's events predate them: its pile
# size travels in `size`/`left`, not `counter`/`value`, so it has no SQL position to agree with).
CONVENTION_RULESETS = ("cardtoy",)


@pytest.mark.parametrize("ruleset", CONVENTION_RULESETS)
def test_log_fold_equals_sql_macro_on_every_event(db: Path, logs_dir: Path, ruleset: str) -> None:
    con = duckdb.connect(str(db), read_only=True)
    for path in collect([logs_dir / ruleset])[:6]:
        timeline = Timeline.from_file(path, every=8)
        gid = timeline.header.game_id
        for n in range(len(timeline.events)):
            from_log = timeline.position(n + 1)
            assert from_log == position_from_db(con, gid, n) == position_from_macro(con, gid, n), (path, n)
            assert from_log == convention_fold(timeline.events[: n + 1])


def test_point_queries_change_the_settings_for_the_block_only(db: Path, logs_dir: Path) -> None:
    con = duckdb.connect(str(db), read_only=True)
    con.execute("SET threads = 2")
    con.execute("SET disabled_optimizers = 'top_n'")
    settings = "SELECT current_setting('threads'), current_setting('disabled_optimizers')"
    gid = Timeline.from_file(collect([logs_dir / "cardtoy"])[0]).header.game_id
    with point_queries(con):
        threads, disabled = con.execute(settings).fetchall()[0]
        answer = position_from_db(con, gid, 20)
    assert threads == 1 and set(disabled.split(",")) == {"top_n", *POINT_QUERY_SKIPPED_OPTIMIZERS}
    assert con.execute(settings).fetchall() == [(2, "top_n")]
    assert answer == position_from_db(con, gid, 20) and answer.cards
    assert position_from_db(con, "no-such-game", 20) == position_from_db(con, gid, -1) == convention_fold([])
    with pytest.raises(ZeroDivisionError), point_queries(con):
        _ = 1 // 0
    assert con.execute(settings).fetchall() == [(2, "top_n")]


def test_game_numbers_are_kept_only_where_they_cannot_change(db: Path, logs_dir: Path, tmp_path: Path) -> None:
    """position_from_db keeps a game's number on a read-only connection (nothing can write the file while it is
    open) and looks it up each time on a writable one, where a game removed and ingested again changes number."""
    gid = Timeline.from_file(collect([logs_dir / "cardtoy"])[0]).header.game_id
    con = duckdb.connect(str(db), read_only=True)
    expected = position_from_db(con, gid, 20)
    assert game_number(con, gid) == con.execute("SELECT game FROM games WHERE game_id = ?", [gid]).fetchall()[0][0]
    con.close()
    copy = tmp_path / "copy.duckdb"
    copy.write_bytes(db.read_bytes())
    con = duckdb.connect(str(copy))
    assert position_from_db(con, gid, 20) == expected
    (old,) = con.execute("SELECT game FROM games WHERE game_id = ?", [gid]).fetchall()[0]
    for table in ("games", "events"):  # renumbered, as a re-ingest does
        con.execute(f"UPDATE {table} SET game = game + 100000 WHERE game = ?", [old])
    assert game_number(con, gid) == old + 100000 and position_from_db(con, gid, 20) == expected
    con.close()


def test_point_queries_agree_with_the_log_fold_on_every_event(real_db: Path, real_logs: Path) -> None:
    """The point queries and the macro, planned without the skipped optimizer passes, on every event of real Miras 9
    and MORANA games."""
    con = duckdb.connect(str(real_db), read_only=True)
    with point_queries(con):
        for path in collect([real_logs]):
            timeline = Timeline.from_file(path)
            gid = timeline.header.game_id
            for n in range(len(timeline.events)):
                from_log = timeline.position(n + 1)
                assert from_log == position_from_db(con, gid, n) == position_from_macro(con, gid, n), (path, n)


def test_a_point_query_reads_one_row_group() -> None:
    """Events sorted by (game, n) over 3 row groups: the zone maps on `game` leave one to read, with the point
    query settings too, and the latest move at or before the event wins."""
    con = open_database(":memory:")
    con.execute(
        "INSERT INTO games (game, game_id, file, digest, ruleset, ruleset_version, engine_version, card_pool_hash, "
        "format_version, seed, max_turns, winner, end_reason, events, decisions, turns) "
        "SELECT g, 'g' || g, 'f', 'd', 'cardtoy', '1', '1', 'h', 1, 0, 0, -1, 'x', 500, 0, 1 FROM range(600) t(g)"
    )
    con.execute(
        "INSERT INTO events (game, n, turn, step, player, kind, card, dst) "
        "SELECT g, n, 1, 'main', 0, 'Moved', 1000 + n % 40, ['hand', 'deck', 'discard'][n % 3 + 1] "
        "FROM range(600) a(g), range(500) b(n) ORDER BY g, n"
    )
    zones = ["hand", "deck", "discard"]
    expected = {1000 + m % 40: zones[m % 3] for m in range(124)}
    for tuned in (False, True):
        with point_queries(con) if tuned else nullcontext(con):
            plan = con.execute("EXPLAIN ANALYZE SELECT * FROM position_at(?, ?)", ["g370", 123]).fetchall()[0][1]
            assert "Row Groups Scanned: 1 / 3" in plan, plan
            rows = con.execute("EXPLAIN ANALYZE " + sqlfiles.load("position_rows"), [370, 123]).fetchall()[0][1]
            assert "Row Groups Scanned: 1 / 3" in rows, rows
            assert position_from_db(con, "g370", 123) == position_from_macro(con, "g370", 123) == Position(expected, {})


def test_snapshot_seek_equals_a_plain_fold(logs_dir: Path) -> None:
    path = collect([logs_dir / "cardtoy"])[0]
    log = read_log(path)
    timeline = Timeline(log, every=5)
    for count in range(len(log.events) + 1):
        assert timeline.state_after(count) == fold(log, count)


def test_coordinates(logs_dir: Path) -> None:
    timeline = Timeline.from_file(collect([logs_dir / "cardtoy"])[0])
    events = timeline.events
    assert timeline.resolve("start") == 0 and timeline.resolve("end") == len(events)
    assert timeline.resolve("event:7") == 8
    first_t2 = next(e.n for e in events if e.turn == 2)
    assert timeline.resolve("turn:2") == first_t2 + 1
    main_t2 = next(e.n for e in events if e.turn == 2 and e.step == "main")
    assert timeline.resolve("turn:2/main") == main_t2 + 1
    plays = [e.n for e in events if type(e).__name__ == "CardPlayed"]
    assert timeline.resolve("CardPlayed:1") == plays[0] + 1
    assert timeline.resolve("play:2") == plays[1] + 1
    in_t2 = [e.n for e in events if type(e).__name__ == "CardPlayed" and e.turn == 2]
    if in_t2:
        assert timeline.resolve("turn:2/play:1") == in_t2[0] + 1
    for bad in ("event:99999", "turn:999", "nonsense", "event:x", "CardPlayed:999", "event:1/x/y"):
        with pytest.raises(CoordinateError):
            timeline.resolve(bad)


def test_views_hide_what_the_viewer_never_saw(logs_dir: Path) -> None:
    timeline = Timeline.from_file(collect([logs_dir / "cardtoy"])[0])
    count = timeline.resolve("turn:1")
    omni = timeline.position(count)
    me = timeline.position(count, "player0")
    spectator = timeline.position(count, "spectator")
    own_hand = {c for c, z in omni.cards.items() if z == "hand" and c < 2000}
    their_hand = {c for c, z in omni.cards.items() if z == "hand" and c >= 2000}
    assert own_hand and their_hand
    assert own_hand <= set(me.cards) and not their_hand & set(me.cards)
    assert not (own_hand | their_hand) & set(spectator.cards)
    assert me.counters == omni.counters


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=30) | st.from_regex(r"(event|turn|step|play|CardPlayed):-?[0-9]{1,3}(/[a-z]+(:[0-9])?)?"))
def test_any_coordinate_text_resolves_or_is_refused_by_name(text: str) -> None:
    """Whatever is typed after --at: a position inside the game, or a CoordinateError (never another error)."""
    timeline = _TIMELINE[0]
    try:
        count = timeline.resolve(text)
    except CoordinateError:
        return
    assert 0 <= count <= len(timeline.events)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_event_coordinate_is_the_fold_up_to_that_event(data: st.DataObject) -> None:
    timeline = _TIMELINE[0]
    n = data.draw(st.integers(0, len(timeline.events) - 1))
    count = timeline.resolve(f"event:{n}")
    assert count == n + 1
    assert timeline.position(count) == convention_fold(timeline.events[:count])


_TIMELINE: list[Timeline] = []


@pytest.fixture(autouse=True)
def _timeline(logs_dir: Path) -> None:
    if not _TIMELINE:
        _TIMELINE.append(Timeline.from_file(collect([logs_dir / "cardtoy"])[5]))
