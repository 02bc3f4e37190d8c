"""``annals export``: hive-partitioned Parquet read back by DuckDB, polars and pyarrow gives the counts and digests
of the database; the spectator view holds only public information."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import duckdb
import polars as pl
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.queries.cards import find_card
from annals.queries.export import PLAYED, digest_of

runner = CliRunner()


@pytest.fixture(scope="module")
def exported(real_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("export") / "data"
    done = runner.invoke(app, ["export", str(folder), "--format", "parquet", "--db", str(real_db)])
    assert done.exit_code == 0, done.output
    return folder


@pytest.mark.parametrize("table", PLAYED)
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
    reviews = json.loads((exported / "manifest.json").read_text())["tables"]["decision_reviews"]
    assert reviews["rows"] == 0 and not list((exported / "decision_reviews").rglob("*.parquet"))  # listed, no files
    other = exported.parent / "other"
    other.mkdir()
    (other / "notes.txt").write_text("not an export")
    refused = runner.invoke(app, ["export", str(other), "--db", str(real_db)])
    assert refused.exit_code == 1 and "is not empty and holds no annals export" in refused.output
    view = runner.invoke(app, ["export", str(exported), "--view", "spectator", "--db", str(real_db)])
    assert view.exit_code == 1 and "holds the omniscient view, not the spectator view" in view.output
    bad = runner.invoke(app, ["export", str(exported.parent / "x"), "--view", "god", "--db", str(real_db)])
    assert bad.exit_code == 2 and "unknown view 'god'" in bad.output


@pytest.mark.parametrize("table", PLAYED)
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
    keyed = "played_at" if table == "games" else "game_id"  # every row names its game by id; a game says when
    columns = {*con.sql(f"SELECT * FROM {table} LIMIT 0").columns, "ruleset", "month", keyed}
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


@pytest.mark.parametrize("option", ["--events", "--shards"])
def test_events_or_shards_without_spark_is_a_usage_error_not_ignored(
    real_db: Path, tmp_path: Path, option: str
) -> None:
    """``--events`` without ``--spark`` was dropped without a word (exit 0, a folder that does not exist too): it
    is a usage error saying where it goes and how to put an event in a database export; nothing is written."""
    folder = tmp_path / "data"
    bad = runner.invoke(app, ["export", str(folder), "--db", str(real_db), option, str(tmp_path / "no-such-event")])
    assert bad.exit_code == 2, bad.output
    assert f"{option} goes with --spark MASTER" in bad.stderr and "annals ingest FOLDER --db DB" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1 and not folder.exists()


def _read(folder: Path, table: str) -> pl.DataFrame:
    return pl.scan_parquet(str(folder / table / "**" / "*.parquet"), hive_partitioning=True).collect()


def test_the_dataset_stands_on_its_own_card_names_game_ids_dates_and_json_as_text(
    exported: Path, real_db: Path, tmp_path: Path
) -> None:
    """Copied elsewhere with nothing but its files, the dataset names every card id a deck held, joins every
    game-level table to its game by ``game_id`` (not the per-database ``game`` number), says when each game was
    played, and its JSON columns read as text in polars and DuckDB alike (not Binary)."""
    copy = tmp_path / "elsewhere"
    shutil.copytree(exported, copy)
    cards = _read(copy, "cards")
    games = _read(copy, "games")
    pools = games.select("game_id", "card_pool_hash", pl.col("ruleset").cast(pl.String))
    decks = _read(copy, "deck_cards").drop("ruleset").join(pools, on="game_id")
    named = decks.join(cards, on=["ruleset", "card_pool_hash", "card_id"], how="left")
    assert decks.height > 0 and named["name"].null_count() == 0  # every card id in a deck has its name
    for row in named.unique(["ruleset", "card_id"]).iter_rows(named=True):  # as ``annals card`` reads it
        card = find_card(row["card_id"], row["ruleset"]).card
        assert (row["name"], row["cost"], row["text"]) == (card.name, card.cost, card.text)
        assert json.loads(row["stats"]) == card.stats
    assert cards["text"].null_count() < cards.height and (cards["editions"].str.len_chars() > 0).all()
    assert games["played_at"].dtype == pl.Datetime("us") and games["played_at"].null_count() == 0
    for table in ("players", "deck_cards", "events", "decisions", "card_games", "card_facts"):
        rows = _read(copy, table)
        assert rows["game_id"].null_count() == 0, table
        assert set(rows["game_id"]) <= set(games["game_id"]), table
        pairs = rows.select("game", "game_id").unique().join(games.select("game", "game_id"), on="game")
        assert (pairs["game_id"] == pairs["game_id_right"]).all(), table  # the id is the row's own game's
    reader = duckdb.connect()
    for table, column in (("events", "extra"), ("decisions", "offered"), ("cards", "data")):
        assert _read(copy, table)[column].dtype == pl.String, (table, column)
        by_duckdb = reader.sql(f"SELECT {column} FROM read_parquet('{copy / table}/**/*.parquet') LIMIT 1").types
        assert str(by_duckdb[0]) == "VARCHAR", table
    offered = _read(copy, "decisions")["offered"][0]
    assert isinstance(json.loads(offered), list)


def test_two_incremental_exports_equal_one_export_of_everything(real_logs: Path, tmp_path: Path) -> None:
    """A nightly refresh: exporting after the Miras 9 games are ingested, then again after the MORANA games, into
    one folder, gives what one export of everything gives (every table's rows, both ways, and its digest); the
    manifest says what each run added; a run with nothing new adds nothing and rewrites no file."""
    db = tmp_path / "annals.duckdb"
    nightly, once = tmp_path / "nightly", tmp_path / "once"
    for ruleset in ("miras9", "morana"):
        assert runner.invoke(app, ["ingest", str(real_logs / ruleset), "--db", str(db)]).exit_code == 0
        done = runner.invoke(app, ["export", str(nightly), "--db", str(db)])
        assert done.exit_code == 0, done.output
    files = {p: p.stat().st_mtime_ns for p in nightly.rglob("*.parquet") if p.parent.name.startswith("month=")}
    assert runner.invoke(app, ["export", str(nightly), "--db", str(db)]).exit_code == 0  # nothing new
    assert runner.invoke(app, ["export", str(once), "--db", str(db)]).exit_code == 0
    runs = json.loads((nightly / "manifest.json").read_text())["runs"]
    con = duckdb.connect(str(db), read_only=True)
    counts = dict(con.execute("SELECT ruleset, count(*) FROM games GROUP BY ALL").fetchall())
    assert [r["games_added"] for r in runs] == [counts["miras9"], counts["morana"], 0]
    assert runs[2]["rows_added"]["events"] == 0 and runs[0]["rows_added"]["events"] > 0
    assert {p: p.stat().st_mtime_ns for p in files} == files  # the third run rewrote nothing
    nightly_manifest = json.loads((nightly / "manifest.json").read_text())
    once_manifest = json.loads((once / "manifest.json").read_text())
    assert nightly_manifest["tables"] == once_manifest["tables"]
    reader = duckdb.connect()
    for table in PLAYED:
        a, b = (
            f"SELECT * FROM read_parquet('{f / table}/**/*.parquet', hive_partitioning = true)" for f in (nightly, once)
        )
        for first, second in ((a, b), (b, a)):
            assert reader.execute(f"SELECT count(*) FROM (({first}) EXCEPT ALL ({second}))").fetchall() == [(0,)]


def test_the_readme_example_runs_in_the_dataset_folder(exported: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The dataset's README shows a card win-rate query over nothing but its files: it runs there and names cards."""
    readme = (exported / "README.md").read_text()
    sql = readme.split("```sql\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(exported)
    rows = duckdb.connect().execute(sql).fetchall()
    assert rows and all(name and 0 <= rate <= 1 and games > 0 for name, rate, games in rows)
