"""``card_metrics`` over ``card_metrics_cells`` (derived and kept fresh by ``ingest.summary``): under every split and
filter the cells answer (all but ``--since``/``--until``) the same rows as the full query over ``card_games``,
exactly, including the game-length fifths of the length-matched IWD, which cross blocks of game numbers; the full
query whenever the cells are stale or missing."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Any
from unittest.mock import patch

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from annals.engine.simulate import simulate
from annals.ingest import summary
from annals.ingest.loader import ingest
from annals.ingest.schema import open_database
from annals.ingest.summary import refresh_card_summary, summary_fresh
from annals.queries.reports import run
from annals.queries.reports.filters import BY, Filters, select
from annals.queries.reports.run import ReportResult, run_report

STORED = "card_metrics_cells"
# Bot pairings of both orders, a mirror match (both seats of a game in one --by deck split: a pair), an event.
BATCHES = [
    ("miras9", 10, ["windrunner", "wreckers"], ["heuristic", "random"], ""),
    ("miras9", 8, ["wreckers", "windrunner"], ["random", "random"], ""),
    ("miras9", 8, ["windrunner", "windrunner"], ["random", "heuristic"], "cup"),
    ("morana", 8, ["clash", "glory"], ["heuristic", "random"], ""),
]


@pytest.fixture(scope="module")
def mixed_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cells")
    for i, (ruleset, games, decks, bots, event) in enumerate(BATCHES):
        list(simulate(ruleset, games, 5 + i, decks, bots, root / "logs" / str(i), event=event))
    path = root / "annals.duckdb"
    report = ingest([root / "logs"], path, workers=1)
    assert report.reconciled and report.games_added == sum(b[1] for b in BATCHES)
    return path


def no_stored_rows() -> Any:
    """card_metrics run with its stored rows (card_metrics_summary, test_card_metrics_summary.py) turned off."""
    return patch.dict(run.SUMMARIES, {k: v for k, v in run.SUMMARIES.items() if k != "card_metrics"}, clear=True)


@contextmanager
def cells_only() -> Iterator[list[str]]:
    """card_metrics run with the stored rows turned off (the cells or the full query); yields the SQL of each run
    that read the cells."""
    read: list[str] = []
    real = run.cells_sql

    def spy(sql: str, name: str = "card_metrics") -> str:
        read.append(real(sql, name))
        return read[-1]

    with no_stored_rows(), patch.object(run, "cells_sql", spy):
        yield read


def full_query(con: duckdb.DuckDBPyConnection, f: Filters) -> ReportResult:
    with no_stored_rows(), patch.dict(run.CELLS, clear=True):
        return run_report(con, "card_metrics", filters=f, min_games=0)


def from_cells(con: duckdb.DuckDBPyConnection, f: Filters) -> ReportResult:
    with cells_only() as read:
        result = run_report(con, "card_metrics", filters=f, min_games=0)
    assert len(read) == 1, "the cells were not read"
    return result


def assert_same(a: ReportResult, b: ReportResult) -> None:
    assert a.frame.height > 0
    assert (a.sample, a.frame.schema) == (b.sample, b.frame.schema)
    assert a.frame.write_csv() == b.frame.write_csv()


FILTERS = [
    Filters(),
    Filters(pool=True),
    Filters(agent="heuristic"),
    Filters(agent="heuristic", min_turns=5),
    Filters(deck="windrunner", pool=True),
    Filters(seat=1),
    Filters(ruleset="miras9", min_turns=3),
    Filters(event="cup"),
]


@pytest.mark.parametrize("by", [None, *BY])
@pytest.mark.parametrize("f", FILTERS, ids=lambda f: str(f.given()) or "none")
def test_every_split_and_filter_gives_the_rows_of_the_full_query(mixed_db: Path, by: str | None, f: Filters) -> None:
    con = duckdb.connect(str(mixed_db), read_only=True)
    f = Filters(**{**f.given(), "by": by})
    assert run._cells_answer(con, f)
    assert_same(from_cells(con, f), full_query(con, f))
    con.close()


def test_a_length_matched_iwd_is_there_to_compare(mixed_db: Path) -> None:
    con = duckdb.connect(str(mixed_db), read_only=True)
    frame = from_cells(con, Filters(by="agent")).frame
    assert frame["iwd_length_matched"].drop_nulls().len() > 0 and frame["iwd_ci_low"].drop_nulls().len() > 0
    con.close()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    by=st.sampled_from([None, *BY]),
    ruleset=st.sampled_from([None, "miras9", "morana"]),
    agent=st.sampled_from([None, "heuristic", "random"]),
    deck=st.sampled_from([None, "windrunner", "wreckers", "clash"]),
    seat=st.sampled_from([None, 0, 1]),
    min_turns=st.sampled_from([None, 0, 4, 8, 14]),
    pool=st.sampled_from([None, True]),
)
def test_any_combination_of_filters_gives_the_rows_of_the_full_query(
    mixed_db: Path,
    by: str | None,
    ruleset: str | None,
    agent: str | None,
    deck: str | None,
    seat: int | None,
    min_turns: int | None,
    pool: bool | None,
) -> None:
    f = Filters(by=by, ruleset=ruleset, agent=agent, deck=deck, seat=seat, min_turns=min_turns, pool=pool)
    con = duckdb.connect(str(mixed_db), read_only=True)
    try:
        fast, slow = from_cells(con, f), full_query(con, f)
        assert (fast.sample, fast.frame.schema, fast.frame.write_csv()) == (
            slow.sample,
            slow.frame.schema,
            slow.frame.write_csv(),
        )
    finally:
        con.close()


@pytest.mark.parametrize("block", [2, 3, 7])
def test_fifths_are_exact_across_blocks_of_games(
    mixed_db: Path, tmp_path: Path, block: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "copy.duckdb"
    shutil.copy(mixed_db, path)
    monkeypatch.setattr(summary, "CELL_BLOCK", block)
    con = duckdb.connect(str(path))
    refresh_card_summary(con)  # the cells again, in blocks of `block` games
    assert con.execute(f"SELECT max(block) FROM {STORED}").fetchall()[0][0] >= 34 // block - 1
    read = {True: 0, False: 0}
    for f in [Filters(by="agent"), Filters(by="deck", min_turns=3), Filters(pool=True), Filters(by="matchup")]:
        fast = from_cells(con, f)
        for whole, blocks in con.execute("SELECT whole, count(*) FROM sel_cellmap GROUP BY ALL").fetchall():
            read[whole] += blocks
        assert_same(fast, full_query(con, f))
    assert read[True] > 0 and read[False] > 0  # blocks from the cells, blocks where a fifth ends from card_games
    con.close()


def test_since_and_until_run_the_full_query(mixed_db: Path) -> None:
    con = duckdb.connect(str(mixed_db), read_only=True)
    for f in [Filters(since=date(2000, 1, 1)), Filters(by="agent", until=date(2999, 1, 1))]:
        assert not run._cells_answer(con, f)
    con.close()


def test_stale_cells_are_not_read_until_derived_again(mixed_db: Path, tmp_path: Path) -> None:
    path = tmp_path / "copy.duckdb"
    shutil.copy(mixed_db, path)
    con = duckdb.connect(str(path))
    f = Filters(by="agent")
    before = from_cells(con, f).frame
    con.execute("UPDATE games SET winner = 1 - winner WHERE winner IN (0, 1)")  # behind the cells' back
    assert not summary_fresh(con, STORED) and not run._cells_answer(con, f)
    with cells_only() as read:
        after = run_report(con, "card_metrics", filters=f, min_games=0)
    assert read == []
    assert_same(after, full_query(con, f))
    assert after.frame["gp_wins"].to_list() != before["gp_wins"].to_list()  # the cells' wins would be the old ones
    refresh_card_summary(con)
    assert summary_fresh(con, STORED)
    assert_same(from_cells(con, f), after)
    con.close()


def test_a_database_made_before_the_cells_gets_them_on_a_writable_open(mixed_db: Path, tmp_path: Path) -> None:
    path = tmp_path / "old.duckdb"
    shutil.copy(mixed_db, path)
    con = duckdb.connect(str(path))
    con.execute(f"DROP TABLE {STORED}")
    con.execute(f"DROP TABLE {STORED}_stamp")
    con.close()
    f = Filters(by="deck", min_turns=3)
    con = duckdb.connect(str(path), read_only=True)  # read-only: nothing can be derived, the full query runs
    assert not run._cells_answer(con, f)
    slow = full_query(con, f)
    con.close()
    open_database(path).close()
    con = duckdb.connect(str(path), read_only=True)
    assert run._cells_answer(con, f)
    assert_same(from_cells(con, f), slow)
    con.close()


@pytest.mark.parametrize("block", [1, 2, 5, 1024])
@pytest.mark.parametrize(
    "f",
    [Filters(by="agent"), Filters(by="matchup", min_turns=8), Filters(by="seat", deck="clash")],
    ids=lambda f: str(f.given()),
)
def test_fifths_counted_are_the_ntiles_of_every_seat(
    mixed_db: Path, block: int, f: Filters, monkeypatch: pytest.MonkeyPatch
) -> None:
    """sel_cellmap and sel_celledges count each split's fifths (ntile's arithmetic on positions) instead of ranking
    every seat: each selected decided seat's fifth and pair are those sel_cards ranks, in splits of any size (some
    of these hold fewer than five seats)."""
    monkeypatch.setattr(summary, "CELL_BLOCK", block)
    con = duckdb.connect(str(mixed_db), read_only=True)
    select(con, f, None, ("cards", "splits", "cellmap", "celledges"))
    seats, wrong, misplaced = con.execute(
        """SELECT count(*),
                  count(*) FILTER (WHERE coalesce(e.lq, m.lq) <> c.lq
                                      OR e.game IS NOT NULL AND (e.paired <> c.paired OR e.gi <> c.gi OR e.w <> c.w)),
                  count(*) FILTER (WHERE m.whole = (e.game IS NOT NULL))
           FROM sel_cards c
           JOIN sel_cellmap m ON m.gi = c.gi AND m.turns = c.turns AND m.block = c.k // 2 // $block
           LEFT JOIN sel_celledges e ON e.game = c.k // 2 AND e.seat = c.k % 2""",
        {"block": block},
    ).fetchall()[0]
    sizes = "SELECT sum(n)::BIGINT, min(n) FROM (SELECT gi, count(*) AS n FROM sel_cards GROUP BY gi)"
    total, smallest = con.execute(sizes).fetchall()[0]
    assert (seats, wrong, misplaced) == (total, 0, 0) and total > 0
    if block == 5:  # blocks of several games where a fifth ends: read seat by seat
        assert con.execute("SELECT count(*) FROM sel_celledges").fetchall()[0][0] > 0
    if f.deck == "clash":
        assert smallest < 5
    con.close()


def test_the_cells_run_ranks_no_seat(mixed_db: Path) -> None:
    """Under a split, card_metrics over the cells builds none of the full query's per-seat table (sel_cards, the
    window over every selected seat a fresh command paid for)."""
    con = duckdb.connect(str(mixed_db), read_only=True)
    fast = from_cells(con, Filters(by="agent", min_turns=4))
    tables = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables() WHERE temporary").fetchall()}
    assert {"sel_cellctx", "sel_cellmap", "sel_celledges", "sel_splits"} <= tables and "sel_cards" not in tables
    assert_same(fast, full_query(con, Filters(by="agent", min_turns=4)))
    con.close()
