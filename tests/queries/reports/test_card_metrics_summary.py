"""``card_metrics`` over ``card_metrics_summary`` (derived and kept fresh by ``ingest.summary``): the
same rows as the full query when run with no filter but ``--ruleset``, the full query under any other filter, and
whenever the stored rows are stale or missing (an older database) until they are derived again."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest

from annals.ingest.remove import remove_game
from annals.ingest.schema import open_database
from annals.ingest.summary import refresh_card_summary, summary_fresh
from annals.queries.reports import run
from annals.queries.reports.filters import Filters
from annals.queries.reports.run import ReportResult, run_report

STORED = "card_metrics_summary"
ANSWERED = [Filters(), Filters(pool=False), Filters(ruleset="miras9"), Filters(ruleset="morana")]
NOT_ANSWERED = [
    Filters(pool=True),
    Filters(by="agent"),
    Filters(agent="random"),
    Filters(seat=0),
    Filters(min_turns=5),
    Filters(ruleset="miras9", by="play"),
]


def full_query(con: duckdb.DuckDBPyConnection, f: Filters, monkeypatch: pytest.MonkeyPatch) -> ReportResult:
    with monkeypatch.context() as m:
        m.setattr(run, "SUMMARIES", {k: v for k, v in run.SUMMARIES.items() if k != "card_metrics"})
        m.setattr(run, "CELLS", {})  # nor the cells (test_card_metrics_cells.py)
        return run_report(con, "card_metrics", filters=f, min_games=0)


def same(a: ReportResult, b: ReportResult) -> bool:
    return (a.sample, a.frame.schema, a.frame.write_csv()) == (b.sample, b.frame.schema, b.frame.write_csv())


@pytest.mark.parametrize("f", ANSWERED, ids=lambda f: str(f.given()) or "none")
def test_the_stored_rows_are_the_rows_of_the_full_query(
    real_db: Path, f: Filters, monkeypatch: pytest.MonkeyPatch
) -> None:
    con = duckdb.connect(str(real_db), read_only=True)
    assert run._summary_answers(con, f, "card_metrics")
    fast = run_report(con, "card_metrics", filters=f, min_games=0)
    assert fast.frame.height > 0 and fast.frame["iwd_ci_low"].drop_nulls().len() > 0
    assert same(fast, full_query(con, f, monkeypatch))
    con.close()


@pytest.mark.parametrize("f", NOT_ANSWERED, ids=lambda f: str(f.given()))
def test_any_other_filter_runs_the_full_query(real_db: Path, f: Filters) -> None:
    con = duckdb.connect(str(real_db), read_only=True)
    assert not run._summary_answers(con, f, "card_metrics")
    con.close()


def test_stale_stored_rows_are_not_read_until_derived_again(
    real_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "copy.duckdb"
    shutil.copy(real_db, path)
    con = duckdb.connect(str(path))
    before = run_report(con, "card_metrics", min_games=0).frame
    con.execute("UPDATE games SET winner = 1 - winner WHERE winner IN (0, 1)")  # behind the summary's back
    assert not summary_fresh(con, STORED)
    after = run_report(con, "card_metrics", min_games=0)
    assert same(after, full_query(con, Filters(), monkeypatch))
    assert after.frame["gp_wins"].to_list() != before["gp_wins"].to_list()  # the stored wins would be the old ones
    refresh_card_summary(con)
    assert summary_fresh(con, STORED)
    assert run_report(con, "card_metrics", min_games=0).frame.write_csv() == after.frame.write_csv()
    con.close()


def test_a_database_made_before_the_stored_rows_gets_them_on_a_writable_open(
    real_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.duckdb"
    shutil.copy(real_db, path)
    con = duckdb.connect(str(path))
    con.execute(f"DROP TABLE {STORED}")
    con.execute(f"DROP TABLE {STORED}_stamp")
    con.close()
    con = duckdb.connect(str(path), read_only=True)  # read-only: nothing can be derived, the full query runs
    assert not run._summary_answers(con, Filters(), "card_metrics")
    slow = run_report(con, "card_metrics", min_games=0)
    con.close()
    con = open_database(path)
    con.close()
    con = duckdb.connect(str(path), read_only=True)
    assert run._summary_answers(con, Filters(), "card_metrics")
    assert same(run_report(con, "card_metrics", min_games=0), slow)
    con.close()


def test_removing_a_game_derives_the_stored_rows_again(real_db: Path, tmp_path: Path) -> None:
    path = tmp_path / "copy.duckdb"
    shutil.copy(real_db, path)
    con = duckdb.connect(str(path), read_only=True)
    before = con.execute(f"SELECT sum(gp_games) FROM {STORED}").fetchall()[0][0]
    game_id = con.execute("SELECT game_id FROM games WHERE winner >= 0 ORDER BY game LIMIT 1").fetchall()[0][0]
    con.close()
    remove_game(path, game_id, "a test of card_metrics_summary")
    con = duckdb.connect(str(path), read_only=True)
    assert summary_fresh(con, STORED)
    assert con.execute(f"SELECT sum(gp_games) FROM {STORED}").fetchall()[0][0] < before
    con.close()
