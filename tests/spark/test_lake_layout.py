"""The lake's ``games`` table keyed as every other (``games/ruleset=R/month=M``, the key in the path alone), every
game-level row carrying its ``game_id``, and a lake an earlier annals wrote refused by the next export into it by
name, untouched (``spark.lake_layout``). The tasks run in this process (``build_lake`` with ``test_lake_rows``'
runner), as Spark's would run them."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from annals.engine.simulate import simulate
from annals.ingest.loader import ingest
from annals.ingest.schema import open_database
from annals.queries.export import PLAYED, export
from annals.spark import lake as lake_module
from annals.spark.lake import LakeExport, build_lake, view_tables
from annals.spark.lake_layout import LakeLayoutError
from tests.spark.test_lake_rows import _local_runner, _rows

BOTS = ["heuristic", "random"]


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Two Miras 9 archives of two games each and a MORANA archive of two."""
    root = tmp_path_factory.mktemp("lake-layout")
    list(simulate("miras9", 4, 31, None, BOTS, root / "m9", shard_size=2))
    list(simulate("morana", 2, 31, None, BOTS, root / "mor", shard_size=2))
    return sorted((root / "m9").iterdir()) + sorted((root / "mor").iterdir())


class Local(NamedTuple):
    export: Path  # the export folder
    tables: dict[str, Any]  # its manifest's tables section
    rulesets: list[tuple[int, str]]  # (game, ruleset) in the database


@pytest.fixture(scope="module")
def local(shards: list[Path], tmp_path_factory: pytest.TempPathFactory) -> Local:
    """One local ingest of every archive and its export."""
    root = tmp_path_factory.mktemp("lake-layout-local")
    ingest(shards, root / "db.duckdb")
    con = open_database(root / "db.duckdb", read_only=True)
    try:
        manifest = export(con, root / "export")
        rulesets = sorted(con.execute("SELECT game, ruleset FROM games").fetchall())
    finally:
        con.close()
    return Local(root / "export", manifest["tables"], rulesets)


def _earlier_query(table: str, view: str = "omniscient") -> str:
    """The export query of the annals of the first layout, verbatim: ``games`` gets a second ``ruleset``; no row
    carries a ``game_id`` of its own."""
    columns = "p.name, p.seat, p.agent, p.deck, p.game" if (view, table) == ("spectator", "players") else "x.*"
    alias = "p" if columns.startswith("p.") else "x"
    return f"SELECT {columns}, k.ruleset, k.month FROM {table} {alias} JOIN export_keys k USING (game)"


def _keyed_by_game_alone(table: str, view: str = "omniscient") -> str:
    """The export query of the annals before game ids: this layout's keys, no ``game_id`` or ``played_at``."""
    own = ("ruleset",) if table == "games" else ()
    columns = "x.name, x.seat, x.agent, x.deck, x.game" if (view, table) == ("spectator", "players") else "x.*"
    if own and columns == "x.*":
        columns = "x.* EXCLUDE (ruleset)"
    return f"SELECT {columns}, k.ruleset, k.month FROM {table} x JOIN export_keys k USING (game)"


def _earlier_lake(shards: list[Path], lake: Path, monkeypatch: pytest.MonkeyPatch, query: Any) -> LakeExport:
    """``shards`` exported into ``lake`` as an earlier annals exported them (its query, no layout check)."""
    with monkeypatch.context() as patch:
        patch.setattr(lake_module, "table_query", query)
        patch.setattr(lake_module, "check_layout", lambda lake, tables: None)
        patch.setattr(lake_module, "as_dataset", lambda rows, ids, table: rows)  # no game_id added
        return build_lake(shards, lake, _local_runner(lake))


@pytest.mark.parametrize("query", [_earlier_query, _keyed_by_game_alone], ids=["ruleset_1", "no-game-id"])
def test_a_lake_an_earlier_annals_wrote_is_refused_by_name_and_left_as_it_was(
    shards: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, query: Any
) -> None:
    """Appending to it would mix two layouts no reader reads as one table: the export stops before writing
    anything, naming a file and the fix; a new lake of the same archives is written."""
    lake = tmp_path / "lake"
    _earlier_lake(shards[:2], lake, monkeypatch, query)
    before = {p: p.stat().st_mtime_ns for p in lake.rglob("*") if p.is_file()}
    with pytest.raises(LakeLayoutError, match=r"was written by an earlier annals \(.*has no game_id.*new lake"):
        build_lake(shards, lake, _local_runner(lake))
    assert {p: p.stat().st_mtime_ns for p in lake.rglob("*") if p.is_file()} == before
    fresh = build_lake(shards, tmp_path / "fresh", _local_runner(tmp_path / "fresh"))
    assert fresh.exported == [p.name for p in shards]


def test_every_game_level_row_of_the_lake_names_its_game(shards: list[Path], local: Local, tmp_path: Path) -> None:
    """The lake's child tables carry ``game_id``, the games their ``played_at``: read back, each row's id is its own
    game's, as in the local export."""
    lake = tmp_path / "lake"
    build_lake(shards, lake, _local_runner(lake))
    con = duckdb.connect()
    try:
        games = dict(con.sql(f"SELECT game, game_id FROM ({_rows(con, lake, 'games')})").fetchall())
        assert len(games) == len(local.rulesets)
        for table in PLAYED:
            if table == "games":
                assert con.sql(f"SELECT count(played_at) FROM ({_rows(con, lake, table)})").fetchall()[0][0] == 6
                continue
            pairs = con.sql(f"SELECT DISTINCT game, game_id FROM ({_rows(con, lake, table)})").fetchall()
            assert pairs and all(games[game] == game_id for game, game_id in pairs), table
    finally:
        con.close()


def _layout(lake: Path, view: str = "omniscient") -> dict[str, pa.Schema]:
    """Every partitioned file of ``lake`` by its path in the lake, with its schema (key-value metadata too)."""
    tables = view_tables(view)
    return {str(p.relative_to(lake)): pq.read_schema(p) for t in tables for p in (lake / t).rglob("*.parquet")}


def _rulesets(lake: Path) -> list[tuple[int, str]]:
    con = duckdb.connect()
    try:
        frame = con.sql(f"SELECT * FROM ({_rows(con, lake, 'games')})")
        assert frame.columns.count("ruleset") == 1 and "ruleset_1" not in frame.columns
        return sorted(con.sql(f"SELECT game, ruleset::VARCHAR FROM ({_rows(con, lake, 'games')})").fetchall())
    finally:
        con.close()


def test_games_is_keyed_ruleset_in_the_lake_and_read_back_holds_one_ruleset(
    shards: list[Path], local: Local, tmp_path: Path
) -> None:
    lake = tmp_path / "lake"
    done = build_lake(shards, lake, _local_runner(lake))
    assert sorted(p.name for p in (lake / "games").iterdir()) == ["ruleset=miras9", "ruleset=morana"]
    assert not any("ruleset" in schema.names for schema in _layout(lake).values())  # the keys: the path's alone
    assert _rulesets(lake) == local.rulesets
    assert done.manifest["tables"] == local.tables
