"""`annals sql` reaches its database and nothing else: every route to a file, an extension or a setting is refused
with a clear message, and ``--allow-files DIR`` opens exactly that folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.queries.reports.output import FileAccessError, QueryError, ReadOnlyError, run_sql

OUTSIDE = "outside"  # a folder beside the allowed one, in each test's tmp_path

ROUTES = [
    ("COPY (SELECT 1 AS a) TO '{out}/copy.csv'", "reaches a file outside the database"),
    ("COPY games TO '{out}/games.parquet' (FORMAT parquet)", "reaches a file outside the database"),
    ("EXPORT DATABASE '{out}/export'", "reaches a file outside the database"),
    ("SELECT * FROM read_csv('/etc/passwd', sep = ':')", "reaches a file outside the database"),
    ("SELECT * FROM read_text('/etc/passwd')", "reaches a file outside the database"),
    ("SELECT * FROM read_blob('/etc/passwd')", "reaches a file outside the database"),
    ("SELECT * FROM glob('/root/*')", "reaches a file outside the database"),
    ("SELECT * FROM sniff_csv('/etc/passwd')", "reaches a file outside the database"),
    ("ATTACH '{out}/other.duckdb' AS other", "reaches a file outside the database"),
    ("INSTALL httpfs", "installs and loads no extensions"),
    ("LOAD httpfs", "installs and loads no extensions"),
    ("SET enable_external_access = true", "changes no settings"),
    ("SET allowed_directories = ['/']", "changes no settings"),
    ("SET threads = 1", "changes no settings"),
    ("RESET lock_configuration", "changes no settings"),
]


@pytest.mark.parametrize(("query", "message"), ROUTES)
def test_every_route_out_of_the_database_is_refused(db: Path, tmp_path: Path, query: str, message: str) -> None:
    out = tmp_path / OUTSIDE
    out.mkdir()
    with pytest.raises(FileAccessError, match=message):
        run_sql(db, query.format(out=out))
    assert list(out.iterdir()) == []  # nothing written


def test_a_path_as_a_table_name_is_only_a_table_name(db: Path) -> None:
    """With external access off DuckDB does not replace a quoted path by a scan of that file."""
    with pytest.raises(QueryError, match="Table with name /etc/passwd does not exist"):
        run_sql(db, "SELECT * FROM '/etc/passwd'")


def test_writes_to_the_database_stay_refused(db: Path) -> None:
    with pytest.raises(ReadOnlyError, match="would change the database"):
        run_sql(db, "CREATE TABLE t AS SELECT 1")


def test_an_allowed_folder_is_the_only_one_reachable(db: Path, tmp_path: Path) -> None:
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    outside = tmp_path / OUTSIDE
    outside.mkdir()
    run_sql(db, f"COPY (SELECT game_id FROM games ORDER BY 1) TO '{allowed}/ids.csv'", allow_files=[allowed])
    read = run_sql(db, f"SELECT count(*) AS n FROM read_csv('{allowed}/ids.csv')", allow_files=[allowed])
    games = run_sql(db, "SELECT count(*) AS n FROM games")
    assert read["n"].to_list() == games["n"].to_list()
    listed = run_sql(db, f"SELECT * FROM glob('{allowed}/*')", allow_files=[allowed])
    assert listed["file"].to_list() == [f"{allowed}/ids.csv"]
    for query in (
        f"COPY (SELECT 1) TO '{outside}/x.csv'",
        f"SELECT * FROM read_csv('{allowed}/../{OUTSIDE}/x.csv')",
        "SELECT * FROM read_text('/etc/passwd')",
        "INSTALL httpfs",
    ):
        with pytest.raises(FileAccessError):
            run_sql(db, query, allow_files=[allowed])
    assert list(outside.iterdir()) == []


def test_the_command_says_so_in_one_line(db: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["sql", "SELECT * FROM read_text('/etc/passwd')", "--db", str(db)])
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "--allow-files DIR" in lines[0] and "root:" not in result.output
    allowed = tmp_path / "mine"
    allowed.mkdir()
    target = allowed / "n.csv"
    ok = CliRunner().invoke(
        app, ["sql", f"COPY (SELECT 42 AS n) TO '{target}'", "--db", str(db), "--allow-files", str(allowed)]
    )
    assert ok.exit_code == 0, ok.output
    assert target.read_text().split() == ["n", "42"]
    missing = CliRunner().invoke(app, ["sql", "SELECT 1", "--db", str(db), "--allow-files", str(tmp_path / "no")])
    assert missing.exit_code == 1 and "not a folder" in missing.stderr
    assert os.access(db, os.R_OK)
