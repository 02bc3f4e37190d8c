"""The lake's ``games`` table keyed as every other (``games/ruleset=R/month=M``, the key in the path alone), and a
lake an earlier annals wrote (``games/ruleset_1=R/month=M``, each file with its ``ruleset`` as well) moved to that
layout by the next export into it (``spark.lake_layout``), safely when the export is killed midway. The tasks run
in this process (``build_lake`` with ``test_lake_rows``' runner), as Spark's would run them."""

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
from annals.queries.export import OMNISCIENT, export
from annals.spark import lake as lake_module
from annals.spark import lake_layout
from annals.spark.lake import LakeExport, build_lake, view_tables
from annals.spark.lake_layout import LakeLayoutError, migrate_keys
from annals.spark.parquet import write_file
from tests.spark.test_lake_rows import _local_runner, _rows, _same_rows

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
    """The export query of the annals before this layout, verbatim: ``games`` gets a second ``ruleset``."""
    columns = "p.name, p.seat, p.agent, p.deck, p.game" if (view, table) == ("spectator", "players") else "x.*"
    alias = "p" if columns.startswith("p.") else "x"
    return f"SELECT {columns}, k.ruleset, k.month FROM {table} {alias} JOIN export_keys k USING (game)"


def _earlier_lake(
    shards: list[Path], lake: Path, monkeypatch: pytest.MonkeyPatch, view: str = "omniscient"
) -> LakeExport:
    """``shards`` exported into ``lake`` as the earlier annals exported them (its query, no migration)."""
    with monkeypatch.context() as patch:
        patch.setattr(lake_module, "table_query", _earlier_query)
        patch.setattr(lake_module, "migrate_keys", lambda lake: [])
        done = build_lake(shards, lake, _local_runner(lake), view=view)
    files = sorted((lake / "games").rglob("*.parquet"))
    assert files and all(f.parent.parent.name.startswith("ruleset_1=") for f in files)  # the earlier layout
    assert all("ruleset" in pq.read_schema(f).names for f in files)
    return done


def _layout(lake: Path, view: str = "omniscient") -> dict[str, pa.Schema]:
    """Every partitioned file of ``lake`` by its path in the lake, with its schema (key-value metadata too)."""
    tables = view_tables(view)
    return {str(p.relative_to(lake)): pq.read_schema(p) for t in tables for p in (lake / t).rglob("*.parquet")}


def _same_lake(ours: Path, fresh: Path, view: str = "omniscient") -> None:
    a, b = _layout(ours, view), _layout(fresh, view)
    assert sorted(a) == sorted(b)
    assert all(a[path].equals(b[path], check_metadata=True) for path in a), "a file's columns, types or metadata"


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


def test_an_earlier_lake_is_moved_to_this_layout_by_the_next_export(
    shards: list[Path],
    local: Local,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Appending the MORANA archive to a lake of the Miras 9 ones the earlier annals wrote: the held archives are
    not exported again, their ``games`` files are moved, and the lake is the one this annals writes of them all,
    file for file (columns, types and metadata), read back as the local export."""
    lake = tmp_path / "lake"
    earlier = _earlier_lake(shards[:2], lake, monkeypatch)
    appended = build_lake(shards, lake, _local_runner(lake))
    assert appended.exported == [shards[2].name] and appended.skipped == [p.name for p in shards[:2]]
    assert list(lake.rglob("ruleset_1=*")) == []
    fresh = tmp_path / "fresh"
    build_lake(shards, fresh, _local_runner(fresh))
    _same_lake(lake, fresh)
    assert _rulesets(lake) == local.rulesets
    assert appended.manifest["tables"] == local.tables
    for table in OMNISCIENT:
        _same_rows(lake, local.export, table)
    m9 = tmp_path / "m9"  # the counts and digests ignore the keys: the earlier layout's are this one's
    assert earlier.manifest["tables"] == build_lake(shards[:2], m9, _local_runner(m9)).manifest["tables"]


def test_an_earlier_spectator_lake_is_moved_too(
    shards: list[Path], local: Local, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lake of the spectator view has ``games`` too: the next export into it moves its files the same way."""
    lake = tmp_path / "lake"
    _earlier_lake(shards[:2], lake, monkeypatch, view="spectator")
    appended = build_lake(shards, lake, _local_runner(lake), view="spectator")
    assert appended.exported == [shards[2].name] and list(lake.rglob("ruleset_1=*")) == []
    fresh = tmp_path / "fresh"
    build_lake(shards, fresh, _local_runner(fresh), view="spectator")
    _same_lake(lake, fresh, "spectator")
    assert _rulesets(lake) == local.rulesets


def test_an_export_killed_while_moving_an_earlier_lake_is_finished_by_the_next(
    shards: list[Path],
    local: Local,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Killed after a file was written at its new path and before its old one was removed (the lake then holds
    both layouts: a reader would count its games twice), the next export moves what is left, and again finds
    nothing to move."""
    lake = tmp_path / "lake"
    _earlier_lake(shards, lake, monkeypatch)
    written: list[Path] = []

    def killed_on_second(table: pa.Table, dest: Path, first_game: int | None = None) -> None:
        write_file(table, dest, first_game)
        written.append(dest)
        if len(written) == 2:
            raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(lake_layout, "write_file", killed_on_second)
        with pytest.raises(KeyboardInterrupt):
            build_lake(shards, lake, _local_runner(lake))
    left = lake_layout.old_files(lake)
    assert len(left) == 2 and written[1].is_file()  # one moved, one written but not removed, one not reached
    again = build_lake(shards, lake, _local_runner(lake))
    assert again.exported == [] and again.renumbered == []
    assert list(lake.rglob("ruleset_1=*")) == [] and migrate_keys(lake) == []
    fresh = tmp_path / "fresh"
    build_lake(shards, fresh, _local_runner(fresh))
    _same_lake(lake, fresh)
    assert _rulesets(lake) == local.rulesets
    for table in OMNISCIENT:
        _same_rows(lake, local.export, table)


def test_an_earlier_file_whose_rows_name_another_ruleset_than_its_folder_is_refused(
    shards: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Dropping its ``ruleset`` column would lose what its rows say: the export stops, naming the file and how to
    go on, and the file stays where it is."""
    lake = tmp_path / "lake"
    _earlier_lake(shards[:1], lake, monkeypatch)
    (path,) = lake_layout.old_files(lake)
    table = pq.ParquetFile(path).read()
    at = table.schema.get_field_index("ruleset")
    pq.write_table(table.set_column(at, "ruleset", pa.array(["morana"] * table.num_rows)), path)
    with pytest.raises(LakeLayoutError, match=r"ruleset 'miras9' in its folder and \['morana'\].*new lake"):
        build_lake(shards[:1], lake, _local_runner(lake))
    assert lake_layout.old_files(lake) == [path]
