"""The lake's task (``spark.lake.export_shard``, run here without Spark) writes each table straight from ingest's
Arrow tables (``ingest.tables``): the files, their schemas and their rows are those of the local export of a
database ingested from the same archives, a damaged game quarantined alone with the same line. The same lake built
on Spark and read back by Spark is compared in ``test_spark.py``; the driver's numbering (``build_lake``) is
run here with the tasks in this process."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import pyarrow.parquet as pq
import pytest

from annals.engine.judge import intervene
from annals.engine.simulate import simulate
from annals.engine.tournament.store import EventStore
from annals.engine.tournament.verify import EventRecordError
from annals.ingest.events import ingest_events
from annals.ingest.loader import IngestReport, ingest
from annals.ingest.schema import open_database
from annals.ingest.tables import Types, ingest_tables, staged
from annals.queries.export import EVENT_TABLES, PLAYED, export
from annals.schemas.archive import ArchiveWriter, archive_digest, read_archive, read_index
from annals.schemas.judge import Intervention
from annals.schemas.logfile import read_log
from annals.spark import lake as lake_module
from annals.spark.lake import LakeViewError, Task, build_lake, export_shard, manifest_of, run_task
from annals.spark.lake_events import SCHEMA_FILE, NotAnEventError, event_stem

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
    per_archive = {t: v for t, v in local["tables"].items() if t != "cards"}  # cards: the whole lake's (build_lake)
    assert manifest_of(done)["tables"] == per_archive  # rows, integer sums and digests of every table
    con = duckdb.connect()
    try:
        for table in PLAYED:
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


def _local_runner(lake: Path, stop_after: int | None = None) -> Callable[[list[Task], Types], list[dict[str, Any]]]:
    """``build_lake``'s runner in this process (what each Spark task runs); with ``stop_after``, the export
    stops (an error) on the run after that many, as a driver killed between its two jobs would."""
    runs = [0]

    def run(todo: list[Task], types: Types) -> list[dict[str, Any]]:
        if stop_after is not None and runs[0] >= stop_after:
            raise KeyboardInterrupt
        runs[0] += 1
        return [run_task(task, str(lake), types) for task in todo[::-1]]

    return run


def _numbers(lake: Path) -> list[tuple[int, str]]:
    con = duckdb.connect()
    try:
        return sorted(con.sql(f"SELECT game, game_id FROM ({_rows(con, lake, 'games')})").fetchall())
    finally:
        con.close()


@pytest.fixture(scope="module")
def damaged_first(archives: list[Path], tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The same archives, the one with a damaged game renamed to come first (so every later archive follows it)."""
    root = tmp_path_factory.mktemp("damaged-first")
    copies = [root / f"{'a' if shard == archives[-1] else 'b'}-{shard.name}" for shard in archives]
    for shard, copy in zip(archives, copies, strict=True):
        shutil.copyfile(shard, copy)
    return sorted(copies)


def test_a_quarantined_game_leaves_no_gap_in_the_lake_numbering(
    damaged_first: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lake numbers games as a local ingest of the same archives does, though the damaged game in the first
    archive was given a number's room before its task found it: the archives after it are not flattened again,
    their files' game numbers are moved in place (``move_shard``); a lake left with the gap (an export stopped
    between its two runs) is closed up by the next export, which moves the archives after it."""
    report = ingest(damaged_first, tmp_path / "local.duckdb")
    con = open_database(tmp_path / "local.duckdb", read_only=True)
    try:
        local = sorted(con.execute("SELECT game, game_id FROM games").fetchall())
        export(con, tmp_path / "export")
    finally:
        con.close()
    assert report.files_quarantined == 1 and [n for n, _ in local] == list(range(1, len(local) + 1))
    flattened: list[str] = []
    real_export = lake_module.export_shard

    def counting(shard: str, *args: Any) -> dict[str, Any]:
        flattened.append(Path(shard).name)
        return real_export(shard, *args)

    monkeypatch.setattr(lake_module, "export_shard", counting)
    lake = tmp_path / "lake"
    done = build_lake(damaged_first, lake, _local_runner(lake))
    assert sorted(flattened) == [p.name for p in damaged_first]  # each archive flattened once
    assert _numbers(lake) == local
    assert done.exported == [p.name for p in damaged_first] and done.renumbered == []
    shards = done.manifest["shards"]
    assert [(shards[p.name]["first_game"], shards[p.name]["games"]) for p in damaged_first] == [(1, 4), (5, 3), (8, 2)]

    stopped = tmp_path / "stopped"
    with pytest.raises(KeyboardInterrupt):
        build_lake(damaged_first, stopped, _local_runner(stopped, stop_after=1))
    assert _numbers(stopped) != local  # the room left for the damaged game: the later archives one number up
    flattened.clear()
    again = build_lake(damaged_first, stopped, _local_runner(stopped))
    assert again.exported == [] and again.skipped == [p.name for p in damaged_first] and flattened == []
    assert again.renumbered == [p.name for p in damaged_first[1:]]
    assert _numbers(stopped) == local
    assert again.manifest["tables"] == done.manifest["tables"]
    for table in PLAYED:  # the moved files: the local export's rows and types
        _same_rows(stopped, tmp_path / "export", table)

    for marker in (stopped / "_shards").iterdir():  # markers as written before plans: no damage named
        older = json.loads(marker.read_text())
        marker.write_text(json.dumps({k: v for k, v in older.items() if k not in ("numbers", "plan", "damaged")}))
    flattened.clear()
    old = build_lake(damaged_first, stopped, _local_runner(stopped))
    assert old.renumbered == [] and flattened == [] and _numbers(stopped) == local


def test_the_lake_holds_an_events_tournament_tables_as_the_local_export_does(
    event_folder: Path, tmp_path: Path
) -> None:
    """An event folder's tournament tables (what the event reports read) in the lake: the local export's files
    of a database the event was ingested into, row for row, and replaced (not added to) when exported again."""
    store = EventStore.open(event_folder)
    con = open_database(tmp_path / "local.duckdb")
    try:
        ingest_events(con, [store])
        local = export(con, tmp_path / "export")
    finally:
        con.close()
    lake = tmp_path / "lake"
    build_lake([], lake, _local_runner(lake), [event_folder])
    done = build_lake([], lake, _local_runner(lake), [event_folder])  # again: the same files, replaced
    assert done.manifest["tables"] == local["tables"]
    assert [m["event_id"] for m in done.manifest["events"].values()] == [store.config().event_id]
    reader = duckdb.connect()
    try:
        for table in EVENT_TABLES:
            assert sorted(p.name for p in (lake / table).iterdir()) == [
                f"{event_stem(store.config().event_id)}_0.parquet",
                SCHEMA_FILE,
            ]
            a, b = _rows(reader, lake, table), _rows(reader, tmp_path / "export", table)
            assert reader.sql(a).types == reader.sql(b).types
            for first, second in ((a, b), (b, a)):
                assert reader.execute(f"SELECT count(*) FROM (({first}) EXCEPT ALL ({second}))").fetchall() == [(0,)]
            assert reader.sql(f"SELECT count(*) FROM ({a})").fetchall()[0][0] == local["tables"][table]["rows"] > 0
    finally:
        reader.close()
    with pytest.raises(NotAnEventError, match="not an event folder"):
        build_lake([], lake, _local_runner(lake), [tmp_path])
    tampered = tmp_path / "tampered"
    shutil.copytree(event_folder, tampered)
    log = next((tampered / "logs").rglob("*.log"))
    log.unlink()  # a game log gone: the event fails verification, and the lake refuses it by name
    with pytest.raises(EventRecordError, match=f"fails verification: {log.relative_to(tampered)}: missing"):
        build_lake([], lake, _local_runner(lake), [tampered])


@pytest.fixture(scope="module")
def shared_ids(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Three archives sharing game ids: ``a`` holds games 1, 2 and 3 (3 with a judge's note), ``b`` a copy of 1
    (the same bytes) and game 4, ``c`` another log of game 2 (the same header, so the same id, with a judge's
    warning appended: another digest)."""
    root = tmp_path_factory.mktemp("shared-ids")
    list(simulate("morana", 4, 21, None, BOTS, root / "logs"))
    logs = sorted((root / "logs").glob("*.log"))
    intervene(logs[2], Intervention("note", "R. Vance", note="asked for a ruling"))
    other = root / "other.log"
    shutil.copyfile(logs[1], other)
    intervene(other, Intervention("warning", "R. Vance", player=1, reason="slow play"))

    def pack(name: str, members: list[Path]) -> Path:
        with ArchiveWriter(root / name) as archive:
            for log in members:
                game = read_log(log)
                archive.add(game.header.game_id, log.read_bytes(), game.digest)
        return root / name

    return [pack("a.shard", logs[:3]), pack("b.shard", [logs[0], logs[3]]), pack("c.shard", [other])]


def _local(archives: list[Path], tmp_path: Path) -> tuple[IngestReport, list[tuple[int, str]], dict[str, Any]]:
    """One local ingest of ``archives`` into a new database: its report, (game, game_id) pairs and export."""
    db = tmp_path / f"local-{len(list(tmp_path.iterdir()))}.duckdb"
    report = ingest(archives, db)
    con = open_database(db, read_only=True)
    try:
        numbers = sorted(con.execute("SELECT game, game_id FROM games").fetchall())
        local = export(con, db.with_suffix(".export"))
    finally:
        con.close()
    return report, numbers, local


def _same_rows(lake: Path, export_folder: Path, table: str) -> None:
    con = duckdb.connect()
    try:
        a, b = _rows(con, lake, table), _rows(con, export_folder, table)
        assert con.sql(a).types == con.sql(b).types, table
        for first, second in ((a, b), (b, a)):
            assert con.execute(f"SELECT count(*) FROM (({first}) EXCEPT ALL ({second}))").fetchall() == [(0,)], table
    finally:
        con.close()


def test_a_game_id_in_two_archives_is_kept_as_one_local_ingest_keeps_it(shared_ids: list[Path], tmp_path: Path) -> None:
    """A copy of a game in a later archive is skipped (one number, as ingest gives it), and another log of a game
    id puts the id in conflict: neither log is kept, both quarantined, the first one's number left unused as
    ingest leaves it; appending the conflicting archive to a lake that holds the first exports that one again."""
    report, numbers, local = _local(shared_ids, tmp_path)
    a, b, c = shared_ids
    assert report.games_added == 3 and report.games_skipped == 1 and report.files_quarantined == 2
    assert [n for n, _ in numbers] == [1, 3, 4]  # game 2 withdrawn, its number not given again

    lake = tmp_path / "lake"
    done = build_lake(shared_ids, lake, _local_runner(lake))
    assert _numbers(lake) == numbers
    assert done.manifest["tables"] == local["tables"]
    assert sorted(done.manifest["quarantined"]) == sorted(report.quarantined)
    assert all("ConflictingLogsError" in line for line in report.quarantined)
    shards = done.manifest["shards"]
    assert [(shards[p.name]["first_game"], shards[p.name]["numbers"], shards[p.name]["games"]) for p in shared_ids] == [
        (1, 3, 2), (4, 1, 1), (5, 0, 0)
    ]  # fmt: skip
    for table in (*PLAYED, "interventions"):
        _same_rows(lake, tmp_path / "local-0.export", table)

    appended = tmp_path / "appended"
    build_lake([a, b], appended, _local_runner(appended))
    assert [n for n, _ in _numbers(appended)] == [1, 2, 3, 4]  # without c: game 2 is a's
    again = build_lake([a, b, c], appended, _local_runner(appended))
    assert again.exported == [c.name] and again.skipped == [a.name, b.name] and again.renumbered == [a.name]
    assert _numbers(appended) == numbers
    assert again.manifest["tables"] == local["tables"]
    assert sorted(again.manifest["quarantined"]) == sorted(report.quarantined)


def test_the_judges_records_are_in_the_lake_as_in_the_local_export(
    shared_ids: list[Path], event_folder: Path, tmp_path: Path
) -> None:
    """``interventions``: a judge's note in a game's log (from its archive's task) and an event's match override
    (from the driver), one file per archive and per event, as the local export's one file holds them; the judged
    log of a game in conflict is quarantined, and its warning with it."""
    db = tmp_path / "local.duckdb"
    ingest(shared_ids, db)
    con = open_database(db)
    try:
        ingest_events(con, [EventStore.open(event_folder)])
        local = export(con, tmp_path / "export")
        kinds = sorted(r[0] for r in con.execute("SELECT kind FROM interventions").fetchall())
    finally:
        con.close()
    assert kinds == ["match_override", "note"]
    lake = tmp_path / "lake"
    done = build_lake(shared_ids, lake, _local_runner(lake), [event_folder])
    assert done.manifest["tables"]["interventions"] == local["tables"]["interventions"]
    assert done.manifest["tables"] == local["tables"]
    files = sorted(p.name for p in (lake / "interventions").iterdir())
    event = event_stem(EventStore.open(event_folder).config().event_id)
    assert files == ["a_0.parquet", f"{event}_0.parquet", SCHEMA_FILE]  # b and c: no judge's record kept
    _same_rows(lake, tmp_path / "export", "interventions")  # and the same column types, as DuckDB reads them


def test_a_spectator_lake_equals_the_local_spectator_export(archives: list[Path], tmp_path: Path) -> None:
    """``view="spectator"``: a lake of what a spectator may see, for sharing: games, players without deck lists,
    and each event as the ruleset's redaction gives it (``public_events``), the local spectator export's files row
    for row; no decisions, deck lists or judge's records. A lake holds one view: the other is refused."""
    ingest(archives, tmp_path / "local.duckdb")
    con = open_database(tmp_path / "local.duckdb", read_only=True)
    try:
        local = export(con, tmp_path / "export", view="spectator")
    finally:
        con.close()
    lake = tmp_path / "lake"
    done = build_lake(archives, lake, _local_runner(lake), view="spectator")
    assert done.manifest["view"] == "spectator" and done.manifest["tables"] == local["tables"]
    assert sorted(p.name for p in lake.iterdir()) == [
        "README.md", "_shards", "games", "manifest.json", "players", "public_events"
    ]  # fmt: skip
    for table in ("games", "players", "public_events"):
        _same_rows(lake, tmp_path / "export", table)
    assert "seat" in pq.read_schema(next((lake / "players").rglob("*.parquet"))).names
    assert "leader" not in pq.read_schema(next((lake / "players").rglob("*.parquet"))).names
    with pytest.raises(LakeViewError, match="lake of the spectator view"):
        build_lake(archives, lake, _local_runner(lake))
