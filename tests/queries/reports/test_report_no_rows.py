"""A report with no rows says why (which filter left nothing, or the --min-games floor, or an empty database) in the
place of an empty table: it printed ``(no rows)``, or nothing at all under the sample line."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.ingest.schema import open_database
from annals.queries.reports.filters import Filters
from annals.queries.reports.run import run_report

runner = CliRunner()


@pytest.fixture(scope="module")
def con(db: Path) -> duckdb.DuckDBPyConnection:
    return duckdb.connect(str(db), read_only=True)


def test_the_filter_that_matches_no_game_is_named(con: duckdb.DuckDBPyConnection) -> None:
    result = run_report(con, "deck_matrix", min_games=0, filters=Filters(deck="low", min_turns=100_000))
    assert result.frame.height == 0
    assert result.empty == "--min-turns 100000 matches no game this report reads"


def test_filters_that_match_games_alone_but_none_together_are_named_together(con: duckdb.DuckDBPyConnection) -> None:
    """cardtoy games are played with the decks low and high, toy games with pile: each filter alone keeps games."""
    assert run_report(con, "deck_matrix", min_games=0, filters=Filters(deck="low")).frame.height > 0
    assert run_report(con, "deck_matrix", min_games=0, filters=Filters(ruleset="toy")).frame.height > 0
    result = run_report(con, "deck_matrix", min_games=0, filters=Filters(ruleset="toy", deck="low"))
    assert result.frame.height == 0
    assert result.empty == "--ruleset toy and --deck low together match no game (each alone matches some)"


def test_rows_all_under_the_floor_say_how_many_and_how_to_see_them(con: duckdb.DuckDBPyConnection) -> None:
    shown = run_report(con, "deck_matrix", min_games=0).frame.height
    result = run_report(con, "deck_matrix", min_games=1_000_000)
    assert result.frame.height == 0 and result.hidden == shown > 1
    assert result.empty == f"all {shown} rows have fewer than 1000000 games (--min-games 0 shows them)"


def test_an_empty_database_says_so_and_the_command_prints_the_reason_not_a_table(tmp_path: Path) -> None:
    path = tmp_path / "empty.duckdb"
    open_database(path).close()
    done = runner.invoke(app, ["report", "deck_matrix", "--db", str(path), "--min-games", "0"])
    assert done.exit_code == 0, done.output
    last = done.stdout.splitlines()[-1]
    assert last == "no rows: the database holds no games; annals ingest LOGS adds some"
    assert done.stdout.splitlines()[-2].startswith("sample: 0 games") and "(no rows)" not in done.stdout


def test_the_csv_keeps_its_header_and_says_why_on_stderr(db: Path) -> None:
    done = runner.invoke(app, ["report", "deck_matrix", "--db", str(db), "--min-turns", "100000", "-f", "csv"])
    assert done.exit_code == 0
    assert done.stdout.startswith("pairing,") and len(done.stdout.splitlines()) == 1
    assert done.stderr.splitlines()[-1] == "no rows: --min-turns 100000 matches no game this report reads"


def test_an_event_report_over_no_event_says_to_ingest_one(con: duckdb.DuckDBPyConnection) -> None:
    result = run_report(con, "metagame")
    assert result.frame.height == 0
    assert result.empty == "the database holds no event's record; ingest an event's folder (annals ingest EVENT)"
