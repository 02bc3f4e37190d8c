"""``card_winrate`` over ``card_summary`` (``ingest.summary``): the same rows as the report over ``card_facts`` under
every filter the summary can answer, and the full query whenever the summary cannot (a filter it does not hold) or
is stale (the games changed after it was derived) until it is derived again."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest

from annals.ingest.remove import remove_game
from annals.ingest.summary import refresh_card_summary, summary_fresh
from annals.queries.reports import run
from annals.queries.reports.filters import Filters
from annals.queries.reports.run import ReportResult, run_report

ANSWERED = [
    Filters(),
    Filters(pool=True),
    Filters(by="agent"),
    Filters(by="deck", seat=1),
    Filters(by="seat", ruleset="morana"),
    Filters(by="play", agent="random"),
    Filters(by="matchup", pool=True),
    Filters(deck="glory"),
]


def full_query(con: duckdb.DuckDBPyConnection, f: Filters, monkeypatch: pytest.MonkeyPatch) -> ReportResult:
    with monkeypatch.context() as m:
        m.setattr(run, "SUMMARIES", {})
        return run_report(con, "card_winrate", filters=f, min_games=0)


def used_summary(con: duckdb.DuckDBPyConnection, f: Filters) -> bool:
    return run._summary_answers(con, f)


@pytest.mark.parametrize("f", ANSWERED, ids=lambda f: str(f.given()) or "none")
def test_the_summary_gives_the_rows_of_the_full_query(
    real_db: Path, f: Filters, monkeypatch: pytest.MonkeyPatch
) -> None:
    con = duckdb.connect(str(real_db), read_only=True)
    assert used_summary(con, f)
    fast = run_report(con, "card_winrate", filters=f, min_games=0)
    slow = full_query(con, f, monkeypatch)
    assert fast.frame.height > 0
    assert (fast.sample, fast.frame.schema, fast.frame.write_csv()) == (
        slow.sample, slow.frame.schema, slow.frame.write_csv())  # fmt: skip
    con.close()


def test_a_filter_the_summary_does_not_hold_reads_card_facts(real_db: Path) -> None:
    con = duckdb.connect(str(real_db), read_only=True)
    assert not used_summary(con, Filters(min_turns=5))  # a game's length is not in a context
    con.close()


def test_a_stale_summary_is_not_read_until_derived_again(
    real_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "copy.duckdb"
    shutil.copy(real_db, path)
    con = duckdb.connect(str(path))
    before = run_report(con, "card_winrate", min_games=0).frame
    con.execute("UPDATE games SET winner = 1 - winner WHERE winner IN (0, 1)")  # behind the summary's back
    assert not summary_fresh(con)
    after = run_report(con, "card_winrate", min_games=0).frame
    assert after.write_csv() == full_query(con, Filters(), monkeypatch).frame.write_csv()
    assert after["wins"].to_list() != before["wins"].to_list()  # the summary's counts would be the old ones
    refresh_card_summary(con)
    assert summary_fresh(con)
    assert run_report(con, "card_winrate", min_games=0).frame.write_csv() == after.write_csv()
    con.close()


def test_removing_a_game_derives_the_summary_again(real_db: Path, tmp_path: Path) -> None:
    path = tmp_path / "copy.duckdb"
    shutil.copy(real_db, path)
    con = duckdb.connect(str(path))
    game_id = con.execute("SELECT game_id FROM games WHERE winner >= 0 ORDER BY game LIMIT 1").fetchall()[0][0]
    con.close()
    remove_game(path, game_id, "a test of card_summary")
    con = duckdb.connect(str(path), read_only=True)
    assert summary_fresh(con)
    con.close()
