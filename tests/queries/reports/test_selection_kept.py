"""The selection tables kept per read-only connection (``queries.reports.filters.select``): reports run one after
another on one connection, switching filters and rulesets back and forth past the number kept, give exactly what each
gives on a fresh connection; a connection that can write rebuilds the selection, so it sees changed data."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest

from annals.ingest.summary import summary_fresh
from annals.queries.reports import run
from annals.queries.reports.filters import KEPT, Filters
from annals.queries.reports.run import REPORTS, ReportResult, run_report

RUNS = [
    ("card_metrics", Filters(pool=True)),  # with no filter it reads its stored rows, and no sel_cards
    ("slava_curves", Filters()),  # MORANA only
    ("damage_payments", Filters()),  # Miras 9 only
    ("card_metrics", Filters(by="agent")),
    ("first_player", Filters(agent="heuristic")),
    ("deck_matrix", Filters(by="agent")),
    ("game_length", Filters(min_turns=8)),
    ("decision_choices", Filters(seat=1)),
    ("site_control", Filters(deck="clash")),
    ("card_winrate", Filters(agent="random", by="seat")),
    ("initiative", Filters(by="deck")),
]


def same(a: ReportResult, b: ReportResult) -> bool:
    return (a.sample, a.hidden, a.frame.schema, a.frame.write_csv()) == (b.sample, b.hidden, b.frame.schema,
                                                                           b.frame.write_csv())  # fmt: skip


def temp_tables(con: duckdb.DuckDBPyConnection) -> list[str]:
    return [r[0] for r in con.execute("SELECT table_name FROM duckdb_tables() WHERE temporary ORDER BY 1").fetchall()]


def test_kept_selections_answer_as_fresh_ones(real_db: Path) -> None:
    assert len({(f, REPORTS[n].rulesets) for n, f in RUNS}) > KEPT  # more selections than are kept: some dropped
    fresh = {}
    for name, f in RUNS:
        con = duckdb.connect(str(real_db), read_only=True)
        fresh[(name, f)] = run_report(con, name, filters=f, min_games=0, database="db")
        con.close()
    con = duckdb.connect(str(real_db), read_only=True)
    for name, f in [*RUNS, *reversed(RUNS), *RUNS[::2], *RUNS[1::3]]:
        assert same(run_report(con, name, filters=f, min_games=0, database="db"), fresh[(name, f)]), (name, f)
        kept = temp_tables(con)
        selections = [t for t in kept if t.startswith(("sel_games", "sel_seats"))]
        assert {"sel_games", "sel_seats"} <= set(kept) and len(selections) <= 2 * KEPT  # at most KEPT - 1 aside
        # card_metrics' extras (sel_splits, and the full query's sel_cards) are kept with their selection, renamed
        # and dropped with it
        for extra in ("sel_cards", "sel_splits"):
            assert all(t.replace(extra, "sel_seats") in kept for t in kept if t.startswith(extra))
    assert any(t.startswith("sel_seats_") for t in temp_tables(con))  # some were set aside, not rebuilt
    assert any(t.startswith("sel_splits_") for t in temp_tables(con))
    con.close()


def test_a_writable_connection_sees_changed_games(real_db: Path, tmp_path: Path) -> None:
    path = tmp_path / "copy.duckdb"
    shutil.copy(real_db, path)
    con = duckdb.connect(str(path))
    first = run_report(con, "game_length", min_games=0)
    before = first.frame
    con.execute("UPDATE games SET turns = turns + 100, events = events + 1")
    second = run_report(con, "game_length", min_games=0)
    after = second.frame
    assert first.sample != second.sample  # its events count: the sample is not kept either
    assert after["games"].to_list() == before["games"].to_list()
    assert [round(t - 100, 4) for t in after["mean_turns"]] == [round(t, 4) for t in before["mean_turns"]]
    assert temp_tables(con) == ["sel_games", "sel_seats"]  # nothing kept aside on a writable connection
    con.close()


def test_a_writable_connection_rebuilds_what_card_metrics_reads(real_db: Path, tmp_path: Path) -> None:
    path = tmp_path / "copy.duckdb"
    shutil.copy(real_db, path)
    con = duckdb.connect(str(path))
    pooled = Filters(pool=True)  # a filter card_metrics_summary does not hold: sel_cards is read
    before = run_report(con, "card_metrics", filters=pooled, min_games=0).frame
    con.execute("UPDATE games SET winner = 1 - winner WHERE winner IN (0, 1)")  # every decided game's other seat won
    after = run_report(con, "card_metrics", filters=pooled, min_games=0).frame
    assert after["gp_games"].to_list() == before["gp_games"].to_list()
    assert after["gp_wins"].to_list() == (before["gp_games"] - before["gp_wins"]).to_list()  # sel_cards made anew
    con.close()


def test_a_summarys_freshness_is_read_once_on_a_read_only_connection(
    real_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whether a summary is fresh (its stamp reads every game) is kept with the selections on a read-only
    connection, whose tables cannot change; a writable one reads it at every report, so it sees a stale one."""
    asked: list[str] = []

    def counted(con: duckdb.DuckDBPyConnection, name: str) -> bool:
        asked.append(name)
        return summary_fresh(con, name)

    monkeypatch.setattr(run, "summary_fresh", counted)
    reports = [("card_metrics", Filters(by="agent")), ("card_winrate", Filters()), ("card_metrics", Filters())]
    con = duckdb.connect(str(real_db), read_only=True)
    for name, f in reports * 3:
        run_report(con, name, filters=f, min_games=0)
    con.close()
    assert sorted(asked) == ["card_metrics_cells", "card_metrics_summary", "card_summary"]
    path = tmp_path / "copy.duckdb"
    shutil.copy(real_db, path)
    con = duckdb.connect(str(path))
    asked.clear()
    for name, f in reports * 2:
        run_report(con, name, filters=f, min_games=0)
    con.close()
    assert len(asked) == 6
