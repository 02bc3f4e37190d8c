"""``annals export``: hive-partitioned Parquet read back by DuckDB, polars and pyarrow gives the counts and digests
of the database; the spectator view holds only public information."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import polars as pl
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.queries.export import OMNISCIENT, digest_of

runner = CliRunner()


@pytest.fixture(scope="module")
def exported(real_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("export") / "data"
    done = runner.invoke(app, ["export", str(folder), "--format", "parquet", "--db", str(real_db)])
    assert done.exit_code == 0, done.output
    return folder


@pytest.mark.parametrize("table", OMNISCIENT)
def test_three_readers_agree_with_the_database(exported: Path, real_db: Path, table: str) -> None:
    manifest = json.loads((exported / "manifest.json").read_text())["tables"][table]
    con = duckdb.connect(str(real_db), read_only=True)
    stored = digest_of(con.sql(f"SELECT * FROM {table}").pl())
    pattern = str(exported / table / "**" / "*.parquet")
    reader = duckdb.connect()
    by_duckdb = digest_of(reader.sql(f"SELECT * FROM read_parquet('{pattern}', hive_partitioning = true)").pl())
    by_polars = digest_of(pl.scan_parquet(pattern, hive_partitioning=True).collect())
    by_pyarrow = digest_of(pl.from_arrow(ds.dataset(exported / table, partitioning="hive").to_table()))  # type: ignore[arg-type]
    assert stored["rows"] > 0
    assert stored == manifest == by_duckdb == by_polars == by_pyarrow


def test_partitions_readme_and_refusals(exported: Path, real_db: Path) -> None:
    rulesets = sorted(p.name for p in (exported / "events").iterdir())
    assert rulesets == ["ruleset=miras9", "ruleset=morana"]
    assert all(m.name.startswith("month=") for m in (exported / "events" / "ruleset=miras9").iterdir())
    readme = (exported / "README.md").read_text()
    assert "### events" in readme and "first_player" in readme and "[MOR-13]" in readme
    assert "in the folder names alone (`games.ruleset` too)" in readme
    again = runner.invoke(app, ["export", str(exported), "--db", str(real_db)])
    assert again.exit_code == 1 and "is not empty" in again.output
    bad = runner.invoke(app, ["export", str(exported.parent / "x"), "--view", "god", "--db", str(real_db)])
    assert bad.exit_code == 2 and "unknown view 'god'" in bad.output


@pytest.mark.parametrize("table", OMNISCIENT)
def test_every_table_is_keyed_ruleset_and_month_and_read_back_holds_one_ruleset(
    exported: Path, real_db: Path, table: str
) -> None:
    """Every table's folders are ``ruleset=R/month=M`` (``games`` too, which holds a ``ruleset`` of its own: an
    earlier export named its key ``ruleset_1``), the keys in the path alone; read back with hive partitioning by
    each reader, a table has the database's columns and the two keys once each, and ``games.ruleset`` is the
    database's game by game."""
    keys = {p.name.partition("=")[0] for p in (exported / table).iterdir()}
    months = {p.name.partition("=")[0] for p in (exported / table).glob("*/*")}
    assert (keys, months) == ({"ruleset"}, {"month"}), table
    files = list((exported / table).rglob("*.parquet"))
    assert files and not any({"ruleset", "month"} & set(pq.read_schema(f).names) for f in files)
    con = duckdb.connect(str(real_db), read_only=True)
    columns = {*con.sql(f"SELECT * FROM {table} LIMIT 0").columns, "ruleset", "month"}
    pattern = str(exported / table / "**" / "*.parquet")
    reader = duckdb.connect()
    by_duckdb = reader.sql(f"SELECT * FROM read_parquet('{pattern}', hive_partitioning = true)").pl()
    by_polars = pl.scan_parquet(pattern, hive_partitioning=True).collect()
    by_pyarrow = pl.from_arrow(ds.dataset(exported / table, partitioning="hive").to_table())
    assert isinstance(by_pyarrow, pl.DataFrame)
    for frame in (by_duckdb, by_polars, by_pyarrow):
        assert sorted(frame.columns) == sorted(columns), table  # each name once: no ruleset_1
    if table == "games":
        stored = sorted(con.execute("SELECT game, ruleset FROM games").fetchall())
        assert {r for _, r in stored} == {"miras9", "morana"}
        for frame in (by_duckdb, by_polars, by_pyarrow):
            assert sorted(frame.select("game", pl.col("ruleset").cast(pl.String)).rows()) == stored


def test_spectator_view_exports_only_public_information(real_db: Path, tmp_path: Path) -> None:
    """[MOR-07] [MOR-15] hands, deck order and sealed commits are hidden: the export holds the redacted stream."""
    folder = tmp_path / "public"
    done = runner.invoke(app, ["export", str(folder), "--view", "spectator", "--db", str(real_db)])
    assert done.exit_code == 0, done.output
    assert sorted(p.name for p in folder.iterdir() if p.is_dir()) == ["games", "players", "public_events"]
    events = pl.scan_parquet(str(folder / "public_events" / "**" / "*.parquet"), hive_partitioning=True).collect()
    con = duckdb.connect(str(real_db), read_only=True)
    assert events.height == con.execute("SELECT count(*) FROM events").fetchall()[0][0]
    shuffles = events.filter(pl.col("kind").is_in(["DeckShuffled", "PileShuffled"]))
    assert shuffles.height > 0
    for fields in shuffles["fields"]:
        assert set(json.loads(fields)["cards"]) <= {-1, 0}  # no deck order
    assert "Committed" not in set(events["kind"])  # sealed MORANA commits appear only as Sealed
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["view"] == "spectator" and manifest["tables"]["public_events"]["rows"] == events.height


def test_an_unknown_view_is_a_usage_error_before_any_database_is_opened(tmp_path: Path) -> None:
    """The view is checked first: with no database there either, the answer is still the view (exit 2)."""
    bad = runner.invoke(app, ["export", str(tmp_path / "x"), "--view", "spectato", "--db", str(tmp_path / "no.duckdb")])
    assert bad.exit_code == 2 and "unknown view 'spectato'; did you mean 'spectator'?" in bad.output
