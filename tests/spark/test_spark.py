"""Annals on Spark in local mode (``local[2,2]``: two cores, a failed task tried twice): simulations equal a local
run game by game, a killed task leaves the same output, the lake equals the local export and appends
idempotently, and the reports on Spark SQL (the event reports over the lake's tournament tables too) give DuckDB's
numbers. Skipped, with the reason, without pyspark or
Java; the missing-pyspark message is tested everywhere."""

from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.simulate import simulate
from annals.engine.tournament import event as lib
from annals.engine.tournament.store import EventStore
from annals.ingest.events import ingest_events
from annals.ingest.loader import ingest
from annals.ingest.schema import open_database
from annals.queries.export import EVENT_TABLES, PLAYED, export
from annals.queries.reports.filters import Filters
from annals.queries.reports.run import REPORTS, run_report
from annals.spark import missing

MASTER = "local[2,2]"
runner = CliRunner()
needs_spark = pytest.mark.skipif(missing() is not None, reason=f"Spark cannot run here: {missing()}")


def test_without_pyspark_spark_options_say_how_to_get_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "pyspark", None)  # as if not installed: importing it fails
    for args in (
        ["simulate", "morana", "-n", "2", "--spark", "local[2]", "--out", str(tmp_path)],
        ["report", "game_length", "--spark", "local[2]", "--lake", str(tmp_path)],
        ["export", str(tmp_path / "lake"), "--spark", "local[2]", "--shards", str(tmp_path)],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 1, result.output
        assert "pyspark is not installed" in result.output and "pip install 'annals[spark]'" in result.output


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Archives of both rulesets, played on Spark: miras9 (12 games, archives of 6) and MORANA (12, of 6)."""
    from annals.spark.simulate import simulate_on_spark

    root = tmp_path_factory.mktemp("spark")
    simulate_on_spark(MASTER, "miras9", 12, 3, None, ["heuristic", "random"], root / "m9", shard_size=6)
    simulate_on_spark(MASTER, "morana", 12, 3, None, ["heuristic", "random"], root / "mor", shard_size=6)
    return root


def _same_as_local(tmp: Path, games: int, size: int, kill: bool = False) -> None:
    from annals.spark.simulate import simulate_on_spark

    spark = simulate_on_spark(MASTER, "morana", games, 11, None, ["random", "heuristic"], tmp / "spark",
                              shard_size=size, kill_first_attempt=kill)  # fmt: skip
    local = list(simulate("morana", games, 11, None, ["random", "heuristic"], tmp / "local", shard_size=size))
    assert [(r.game_id, r.digest) for r in local] == [(gid, digest) for gid, digest, _ in spark.played]
    assert spark.games == games and spark.events == sum(r.events for r in local)
    names = sorted(p.name for p in (tmp / "local").iterdir())
    assert sorted(p.name for p in (tmp / "spark").iterdir()) == names  # no partial archive left behind
    for name in names:
        assert (tmp / "spark" / name).read_bytes() == (tmp / "local" / name).read_bytes()


@needs_spark
def test_spark_simulation_equals_a_local_run(tmp_path: Path, games: Path) -> None:
    _same_as_local(tmp_path, 100, 25)


@needs_spark
@pytest.mark.soak
def test_two_thousand_games_on_spark_equal_a_local_run(tmp_path: Path, games: Path) -> None:
    _same_as_local(tmp_path, 2000, 250)


@needs_spark
def test_a_killed_task_retried_leaves_the_same_output(tmp_path: Path, games: Path) -> None:
    _same_as_local(tmp_path, 12, 6, kill=True)  # every first attempt dies with half an archive written


def _lake_table(folder: Path, table: str) -> pl.DataFrame:
    con = duckdb.connect()
    try:
        query = f"SELECT * FROM read_parquet('{folder}/{table}/**/*.parquet', hive_partitioning = true)"
        frame: pl.DataFrame = con.sql(query).pl()
    finally:
        con.close()
    return frame.sort(frame.columns)


@needs_spark
def test_the_lake_equals_the_local_export_and_appends_idempotently(tmp_path: Path, games: Path) -> None:
    from annals.spark.lake import export_to_lake

    lake = tmp_path / "lake"
    first = export_to_lake(MASTER, [games / "m9"], lake)
    assert len(first.exported) == 2 and not first.skipped
    both = export_to_lake(MASTER, [games / "m9", games / "mor"], lake)  # appends MORANA, skips what is there
    assert (len(both.exported), len(both.skipped)) == (2, 2)
    again = export_to_lake(MASTER, [games / "m9", games / "mor"], lake)
    assert (again.exported, len(again.skipped)) == ([], 4)
    ingest([games / "m9", games / "mor"], tmp_path / "local.duckdb")
    con = open_database(tmp_path / "local.duckdb", read_only=True)
    try:
        local = export(con, tmp_path / "export")
        rulesets = sorted(con.execute("SELECT game, ruleset FROM games").fetchall())
    finally:
        con.close()
    assert again.manifest["tables"] == local["tables"]  # rows, integer sums and digests of every table
    for folder in (lake, tmp_path / "export"):  # games keyed as every table: its own ruleset the path's alone
        assert sorted(p.name for p in (folder / "games").iterdir()) == ["ruleset=miras9", "ruleset=morana"]
    from annals.spark.session import session

    spark = session(MASTER)
    for table in PLAYED:  # read back by DuckDB, and by Spark: the same rows and types
        expected = _lake_table(tmp_path / "export", table)
        assert_frame_equal(_lake_table(lake, table), expected)
        ours, theirs = (spark.read.parquet(str(folder / table)) for folder in (lake, tmp_path / "export"))
        assert ours.schema == theirs.schema, table
        read = pl.from_arrow(ours.toArrow())
        assert isinstance(read, pl.DataFrame) and read.height == local["tables"][table]["rows"]
        assert_frame_equal(read.sort(expected.columns).select(expected.columns), expected, check_dtypes=False)
    read_games = spark.read.parquet(str(lake / "games"))  # one ruleset, the database's, as Spark reads the lake
    assert read_games.columns.count("ruleset") == 1 and "ruleset_1" not in read_games.columns
    assert sorted((r.game, r.ruleset) for r in read_games.select("game", "ruleset").collect()) == rulesets
    files = [p for table in PLAYED for p in (lake / table).rglob("*.parquet")]
    assert len(files) == 4 * 7  # one file per archive and table: none twice


@pytest.fixture(scope="module")
def both(games: Path, event_folder: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The archives and an event's tournament tables as a lake, and as a database (the archives ingested, the
    event's tables written by ``ingest_events``: its games are not in the archives, nor so in the database)."""
    from annals.spark.lake import export_to_lake

    root = tmp_path_factory.mktemp("reports")
    export_to_lake(MASTER, [games / "m9", games / "mor"], root / "lake", [event_folder])
    ingest([games / "m9", games / "mor"], root / "db.duckdb")
    con = open_database(root / "db.duckdb")
    try:
        ingest_events(con, [EventStore.open(event_folder)])
    finally:
        con.close()
    return root / "lake", root / "db.duckdb"


def _compare(name: str, both: tuple[Path, Path], filters: Filters) -> None:
    from annals.spark.reports import report_on_spark

    lake, db = both
    floor = 0 if REPORTS[name].sample_column else None
    on_spark = report_on_spark(MASTER, name, str(lake), filters=filters, min_games=floor)
    con = open_database(db, read_only=True)
    try:
        on_duckdb = run_report(con, name, filters=filters, min_games=floor)
    finally:
        con.close()
    a, b = on_spark.frame, on_duckdb.frame
    assert a.columns == b.columns and a.height == b.height
    # Rounded averages may differ in the last digit at an exact half (Spark rounds the decimal, DuckDB the double)
    assert_frame_equal(a.sort(a.columns), b.sort(b.columns), check_dtypes=False, abs_tol=0.0100001)
    assert on_spark.sample.split("; from")[0] == on_duckdb.sample.split("; from")[0]


# The default run: exact percentiles, a split, a filter, a window and JSON fields, an ASOF join (rewritten for
# Spark: spark.asof; slava_curves, the other, in --soak and on DuckDB in test_asof.py), the three event reports
# over the lake's tournament tables, card_metrics split and filtered (DuckDB reads card_metrics_cells, Spark the full
# query over card_games); --soak runs every report.
FEW = [("game_length", Filters(ruleset="miras9")), ("deck_matrix", Filters(by="agent")),
       ("damage_payments", Filters(agent="heuristic")), ("site_control", Filters()),
       ("metagame", Filters(ruleset="morana")), ("event_decks", Filters()), ("event_standings", Filters()),
       ("card_metrics", Filters(by="deck", min_turns=3))]  # fmt: skip
SPARK_REPORTS = [name for name, spec in REPORTS.items() if not spec.reviews]  # lakes hold no decision reviews


@needs_spark
@pytest.mark.parametrize(("name", "filters"), FEW, ids=[n for n, _ in FEW])
def test_reports_on_spark_equal_duckdb(name: str, filters: Filters, both: tuple[Path, Path]) -> None:
    _compare(name, both, filters)


@needs_spark
@pytest.mark.soak
@pytest.mark.parametrize("name", SPARK_REPORTS)
def test_every_report_on_spark_equals_duckdb(name: str, both: tuple[Path, Path]) -> None:
    _compare(name, both, Filters())


@needs_spark
def test_the_event_reports_read_the_events_of_the_lake(both: tuple[Path, Path], event_folder: Path) -> None:
    from annals.spark.reports import report_on_spark

    store = EventStore.open(event_folder)
    eid = store.config().event_id
    table = report_on_spark(MASTER, "event_standings", str(both[0]), filters=Filters(event=eid)).frame
    assert table["player_id"].to_list() == [p for _, p in lib.placings(store)] and len(store.players()) == 5
    assert report_on_spark(MASTER, "metagame", str(both[0]), filters=Filters(ruleset="miras9")).frame.height == 0


@needs_spark
def test_a_report_the_lake_cannot_answer_is_refused_by_name(both: tuple[Path, Path], tmp_path: Path) -> None:
    old = tmp_path / "old-lake"  # a lake written before lakes held the tournament tables
    shutil.copytree(both[0], old, ignore=shutil.ignore_patterns(*EVENT_TABLES))
    for name in [n for n, s in REPORTS.items() if s.event_tables]:
        result = runner.invoke(app, ["report", name, "--spark", MASTER, "--lake", str(old)])
        assert result.exit_code == 2 and "tournament tables" in result.output and "--events" in result.output
    no_pools = tmp_path / "no-pools"  # a lake written before lakes held the card pools
    shutil.copytree(both[0], no_pools, ignore=shutil.ignore_patterns("cards"))
    result = runner.invoke(app, ["report", "mulligan", "--spark", MASTER, "--lake", str(no_pools)])
    assert result.exit_code == 2 and "reads cards, which the lake" in result.output, result.output
    result = runner.invoke(app, ["report", "game_length", "--spark", MASTER, "--lake", str(both[0]), "--since",
                                 "2020-01-01"])  # fmt: skip
    assert result.exit_code == 2 and "--since and --until need recording times" in result.output, result.output


@needs_spark
def test_the_documented_spark_commands_run_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The ```sh spark block of docs/reference/scale.md, line by line through the CLI in this process (one Spark
    session for the block: a subprocess per line would start one each); last in the module, as its master is the
    page's."""
    from tests.test_examples import DOCS, readme_examples

    page = DOCS / "reference" / "scale.md"
    examples, skipped = readme_examples(page.read_text(), where="docs/reference/scale.md", block="sh spark")
    assert len(examples) >= 3 and not skipped
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ANNALS_HOME", str(tmp_path / "home"))
    for example in examples:
        args = shlex.split(example.line, comments=True)
        assert args[0] == "annals" and not {"|", ">", "<", "&&", ";"} & set(args), f"{example.where}: not plain"
        result = runner.invoke(app, args[1:])
        assert result.exit_code == (1 if example.fails else 0), f"{example.where}: {example.line}\n{result.output}"
    assert sorted(p.name for p in (tmp_path / "spark-shards").iterdir()) == [
        f"morana-{lo:08d}-{lo + 9:08d}.shard" for lo in (1, 11, 21, 31)
    ]
    assert (tmp_path / "lake" / "manifest.json").is_file()
