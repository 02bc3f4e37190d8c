"""The lake's task (``spark.lake.export_shard``, run here without Spark) writes each table straight from ingest's
Arrow tables (``ingest.tables``): the files, their schemas and their rows are those of the local export of a
database ingested from the same archives, a damaged game quarantined alone with the same line. The same lake built
on Spark and read back by Spark is compared in ``test_spark.py``."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest

from annals.engine.simulate import simulate
from annals.ingest.loader import ingest
from annals.ingest.schema import open_database
from annals.ingest.tables import ingest_tables, staged
from annals.queries.export import OMNISCIENT, export
from annals.schemas.archive import archive_digest, read_archive, read_index
from annals.spark.lake import export_shard, manifest_of

BOTS = ["heuristic", "random"]


@pytest.fixture(scope="module")
def archives(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Archives of both rulesets (5 Miras 9 games in archives of 3, 5 MORANA games), one game of the last damaged."""
    root = tmp_path_factory.mktemp("lake-rows")
    list(simulate("miras9", 5, 8, None, BOTS, root / "m9", shard_size=3))
    list(simulate("morana", 5, 8, None, BOTS, root / "mor", shard_size=5))
    shards = sorted((root / "m9").iterdir()) + sorted((root / "mor").iterdir())
    victim = read_archive(shards[-1]).members[1]
    data = bytearray(shards[-1].read_bytes())
    data[victim.offset + victim.length // 2] ^= 0x40  # a flipped bit: the game's chain fails, the archive reads
    shards[-1].write_bytes(bytes(data))
    return shards


def _rows(con: duckdb.DuckDBPyConnection, folder: Path, table: str) -> str:
    return f"SELECT * FROM read_parquet('{folder}/{table}/**/*.parquet', hive_partitioning = true)"


def test_the_lake_written_from_arrow_equals_the_local_export(archives: list[Path], tmp_path: Path) -> None:
    lake = tmp_path / "lake"
    done, base = {}, 1
    for shard in archives:
        marker = export_shard(str(shard), str(lake), base, archive_digest(read_index(shard)))
        done[marker["shard"]] = marker
        base += marker["games"]
    report = ingest(archives, tmp_path / "local.duckdb")
    con = open_database(tmp_path / "local.duckdb", read_only=True)
    try:
        local = export(con, tmp_path / "export")
    finally:
        con.close()
    assert report.files_quarantined == 1 and report.games_added == 9
    assert [line for m in done.values() for line in m["quarantined"]] == report.quarantined
    assert manifest_of(done)["tables"] == local["tables"]  # rows, integer sums and digests of every table
    con = duckdb.connect()
    try:
        for table in OMNISCIENT:
            ours, theirs = (
                sorted((lake / table).rglob("*.parquet")),
                sorted((tmp_path / "export" / table).rglob("*.parquet")),
            )
            assert {p.parent.relative_to(lake) for p in ours} == {
                p.parent.relative_to(tmp_path / "export") for p in theirs
            }
            schema = pq.read_schema(theirs[0])
            assert all(pq.read_schema(p).equals(schema) for p in ours + theirs), table  # columns, types, nullability
            a, b = _rows(con, lake, table), _rows(con, tmp_path / "export", table)
            assert con.sql(a).types == con.sql(b).types
            for first, second in ((a, b), (b, a)):
                assert con.execute(f"SELECT count(*) FROM (({first}) EXCEPT ALL ({second}))").fetchall() == [(0,)]
            assert con.sql(f"SELECT count(*) FROM ({a})").fetchall()[0][0] == local["tables"][table]["rows"] > 0
    finally:
        con.close()


def test_staged_tables_hold_what_a_database_ingested_from_the_logs_holds(archives: list[Path], tmp_path: Path) -> None:
    """Beyond the export's columns: every table ingest fills, typed as the database types it, row for row."""
    ingested = ingest_tables(archives[:2], first_game=4)
    ingest(archives[:2], tmp_path / "db.duckdb", first_game=4)
    mem = staged(ingested)
    db = open_database(tmp_path / "db.duckdb", read_only=True)
    try:
        for table in ("games", "players", "deck_cards", "events", "decisions", "card_facts", "card_games"):
            ours, theirs = mem.sql(f"SELECT * FROM {table}"), db.sql(f"SELECT * FROM {table}")
            assert ours.types == theirs.types, table
            assert sorted(ours.fetchall(), key=repr) == sorted(theirs.fetchall(), key=repr), table
    finally:
        mem.close()
        db.close()
