"""``annals export LAKE --spark MASTER --shards PATH``: archives into the Parquet lake, one Spark task per archive.

The lake has the tables and layout of the local export (``queries.export``: ``TABLE/ruleset=R/month=M/*.parquet``,
omniscient view) and the same ``manifest.json`` tables section (rows, integer-column sums, digest). Each task runs
ingest's own stages on its archive (``ingest.tables``, the C fast path where built: the same flattening, checks and
quarantine) up to the Arrow tables ingest would insert, and writes each table from them with the export's own
query (``table_query``) by DuckDB in memory, the files by pyarrow (``spark.parquet``): no rows go through a
database file. Event folders give the tournament tables (``spark.lake_events``).
The games of an archive are numbered from a base the driver gives (the archives in name order, each after the
ones before, a quarantined game taking no number: ``build_lake``), and a game id in several archives is claimed
as the driver's plan says (``spark.lake_claims``), so a lake of archives numbers and keeps games as one local
ingest of them does. The judge's records of an archive's games are one file, ``interventions/NAME_0.parquet``.
A lake of the spectator view (``view="spectator"``) holds that view's tables instead.
Decision reviews are saved beside loose logs, never in an archive, so a lake's ``decision_reviews`` is listed in its
manifest with no rows and no files, as a local export of unreviewed games lists it.

Appending is idempotent: each exported archive leaves a marker ``_shards/NAME.json`` (its games, counts, the
digest of its index), written last; an archive with a marker is skipped, an archive of that name with other
content is refused (``LakeConflictError``). A task's files get fixed names (``NAME_0.parquet``), written under a
temporary name and renamed, so a retried task overwrites what a killed attempt left, never adds to it. A lake
an earlier annals wrote (``games`` keyed ``ruleset_1=``, or rows without ``game_id``) is refused by the next export
into it (``spark.lake_layout``): its archives go into a new lake.

The lake must be a folder every executor can write: a local folder in local mode, a shared file system (or an
object store mounted as one) on a cluster. Reports read it with Spark itself, so ``s3a://`` URIs work there.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc

from annals.ingest.cardpools import definitions
from annals.ingest.schema import open_database
from annals.ingest.tables import CLAIM_ERRORS, IngestedTables, Types, column_types, ingest_tables, staged, types_of
from annals.queries import sqlfiles
from annals.queries.export import (
    EVENT_TABLES,
    OMNISCIENT,
    PARTITION,
    REVIEWS,
    SPECTATOR,
    VIEWS,
    _public_events,
    _readme,
    canonical_digest,
    cards_table,
    digest_of,
    table_query,
)
from annals.schemas.archive import SUFFIX, Archive, archive_digest, read_index
from annals.schemas.errors import AnnalsError, UnknownNameError
from annals.spark import require
from annals.spark.lake_claims import EMPTY_PLAN_DIGEST, Holdings, Plan, claims_of, empty_plan, plan_claims, plan_digest
from annals.spark.lake_events import JUDGED, event_markers, export_events, open_event, write_unpartitioned
from annals.spark.lake_layout import check_layout
from annals.spark.parquet import INTEGERS, as_json, counted, renumber_file, write_atomic, write_file, write_partitioned
from annals.spark.session import collect, session

MANIFEST = "manifest.json"
MARKERS = "_shards"


class LakeConflictError(AnnalsError, ValueError):
    """An archive of a name the lake holds, with other games in it."""


class LakeViewError(AnnalsError, ValueError):
    """A lake holds one view: another is exported into another lake."""


class NoArchivesError(AnnalsError, FileNotFoundError):
    """--shards names no archive."""


def _view_of(lake: Path) -> str | None:
    """The view of the lake at ``lake`` (None: no manifest yet)."""
    try:
        view = json.loads((lake / MANIFEST).read_text()).get("view")
    except (OSError, ValueError):
        return None
    return str(view) if view is not None else None


class LakeExport(NamedTuple):
    exported: list[str]  # archives exported by this run
    skipped: list[str]  # archives the lake held already
    manifest: dict[str, Any]
    renumbered: list[str] = []  # archives the lake held, exported again to close a gap in the numbering


def _typed(
    con: duckdb.DuckDBPyConnection, table: str, arrow: pa.Table | None, types: Types, json_columns: set[str]
) -> pa.Table | None:
    """``table``'s rows as ingest gave them in Arrow, where they are already typed as the database types them
    (events, decisions: most of the rows), so they are written as they are, where DuckDB would copy every value
    out again (about 0.2 us an event); None where they are not (DuckDB then casts them)."""
    if arrow is None or set(PARTITION) & set(arrow.column_names):
        return None
    key = (table, types.get(table, ()))
    if key not in _TYPED:  # the same in every task of a process: asked of DuckDB once
        _TYPED[key] = as_json(con.sql(f"SELECT * FROM {table} LIMIT 0").to_arrow_table(), json_columns).schema
    return arrow if arrow.schema.equals(_TYPED[key]) else None


_TYPED: dict[tuple[str, tuple[tuple[str, str], ...]], pa.Schema] = {}  # a table's Arrow schema, by its column types


def export_shard(
    shard: str,
    lake: str,
    first_game: int,
    digest: str,
    types: Types | None = None,
    plan: Plan | None = None,
    view: str = "omniscient",
) -> dict[str, Any]:
    """One task: the archive at ``shard`` flattened as ingest flattens it (its games numbered from
    ``first_game``, its game ids claimed as ``plan`` says: ``spark.lake_claims``) and each table's rows written
    from Arrow into ``lake``; return its marker (also written to ``_shards/``). ``types``: the schema's column
    types (``ingest.tables.column_types``), sent by the driver. Its three stages: ``ingest_tables`` (reading,
    checking and flattening), ``staged`` (the rows typed and the card tables derived, in DuckDB in memory) and
    ``write_tables``."""
    types = types if types is not None else column_types()
    plan = plan if plan is not None else empty_plan()
    name = Path(shard).name
    stem = name.removesuffix(SUFFIX)
    ingested = ingest_tables(
        [shard], first_game=first_game, claims=claims_of(plan), withdrawn=frozenset(plan["withdrawn"])
    )
    con = staged(ingested, types, threads=1)  # a task is one core
    try:
        tables = write_tables(con, ingested, Path(lake), stem, first_game, types, view)
    finally:
        con.close()
    report = ingested.report
    damaged = sorted({b.file.rpartition("#")[2] for b in ingested.bad if b.error not in CLAIM_ERRORS})
    marker = {
        "shard": name, "path": shard, "digest": digest, "first_game": first_game, "games": report.games_added,
        "numbers": ingested.next_game - first_game, "plan": plan_digest(plan), "damaged": damaged, "view": view,
        "quarantined": report.quarantined, "tables": tables,
    }  # fmt: skip
    markers = Path(lake) / MARKERS
    markers.mkdir(parents=True, exist_ok=True)
    write_atomic(markers / f"{stem}.json", json.dumps(marker, sort_keys=True))
    return marker


def write_tables(
    con: duckdb.DuckDBPyConnection,
    ingested: IngestedTables,
    lake: Path,
    stem: str,
    first_game: int,
    types: Types,
    view: str = "omniscient",
) -> dict[str, Any]:
    """The lake files of one archive's rows (``ingested``, staged in ``con``), and each table's counts.

    Each table's rows are ingest's Arrow rows where they are typed as the database types them (``_typed``), else
    the export's own query (``table_query``) run by DuckDB in memory over them; they are split into partitions by
    their games' keys (``export_keys``, a row per game) and written by pyarrow (``write_partitioned``): several
    times faster than DuckDB's ``COPY ... PARTITION_BY`` for the same files' columns, types and rows. The judge's
    records of its games (``interventions``) are one file, ``interventions/STEM_0.parquet``, as the tournament
    tables are (``spark.lake_events``)."""
    tables: dict[str, Any] = {}
    con.execute(sqlfiles.load("export_keys"))
    keys = con.sql("SELECT game, ruleset, month FROM export_keys").to_arrow_table()
    ids = con.sql("SELECT game, game_id, played_at FROM export_keys").to_arrow_table()
    if view == "spectator":
        con.register("public_events", _public_events(con))
    for table in view_tables(view):
        if table in REVIEWS:  # saved beside loose logs, never in an archive: no rows, no files
            tables[table] = {"rows": 0, "sums": {}}  # its columns' zero sums are the manifest's (``_summed``)
            continue
        json_columns = {c for c, t in types.get(table, ()) if t == "JSON"}
        rows, names = None, PARTITION
        if view == "omniscient":
            rows = _typed(con, table, ingested.tables.get(table), types, json_columns)
        if rows is None:  # the export's own query, less its keys (the last columns): split by game as above
            query = f"SELECT * FROM ({table_query(table, view)})"  # names made distinct
            rows = con.sql(query).to_arrow_table()
            names = tuple(rows.column_names[-len(PARTITION) :])
            rows = rows.select(range(rows.num_columns - len(PARTITION)))
        rows = as_dataset(rows, ids, table)
        write_partitioned(rows, keys, lake / table, stem, names, first_game)
        tables[table] = counted(rows)
    if view == "omniscient":
        tables[JUDGED] = write_unpartitioned(con, JUDGED, types, lake / JUDGED / f"{stem}_0.parquet")
    return tables


def as_dataset(rows: pa.Table, ids: pa.Table, table: str) -> pa.Table:
    """A table's rows as the dataset holds them (``queries.export.table_query``): JSON columns as text, and after
    the table's own columns its game's id (``games``: when it was played), looked up in ``ids`` by ``game``."""
    for i, field in enumerate(rows.schema):
        if isinstance(field.type, pa.JsonType):
            text = pa.chunked_array([c.storage for c in rows.column(i).chunks], field.type.storage_type)
            rows = rows.set_column(i, pa.field(field.name, field.type.storage_type), text)
    key = "played_at" if table == "games" else "game_id"
    if key in rows.column_names:
        return rows
    found = pc.index_in(rows.column("game"), value_set=ids.column("game"))
    return rows.append_column(ids.schema.field(key), pc.take(ids.column(key), found))


def move_shard(lake: str, marker: dict[str, Any], first_game: int) -> dict[str, Any] | None:
    """One task: an archive the lake holds, exported with the plan it still has, its games numbered from
    ``first_game`` instead (a damaged game before it found): each of its files' ``game`` column moved in place
    (``parquet.renumber_file``; no flattening again), then its marker. None where a file does not say its number
    (written before files did): the archive is then exported again."""
    stem = marker["shard"].removesuffix(SUFFIX)
    partitioned = view_tables(marker.get("view", "omniscient"))
    for table in partitioned:
        for path in sorted((Path(lake) / table).glob(f"**/{stem}_0.parquet")):
            if not renumber_file(path, first_game):
                return None
    delta = first_game - marker["first_game"]
    tables = {}
    for table, counts in marker["tables"].items():
        sums = dict(counts["sums"])
        if "game" in sums and table in partitioned:
            sums["game"] += delta * counts["rows"]
        tables[table] = {**counts, "sums": sums}
    moved = {**marker, "first_game": first_game, "tables": tables}
    write_atomic(Path(lake) / MARKERS / f"{stem}.json", json.dumps(moved, sort_keys=True))
    return moved


def run_task(task: Task, lake: str, types: Types) -> dict[str, Any]:
    """What each Spark task runs: ``move_shard`` where the task carries the archive's marker, and it can, else
    ``export_shard``."""
    path, first, digest, plan, marker, view = task
    if marker is not None:
        moved = move_shard(lake, marker, first)
        if moved is not None:
            return moved
    return export_shard(path, lake, first, digest, types, plan, view)


def _archives(paths: list[Path]) -> list[Path]:
    found: set[Path] = set()
    for p in paths:
        p = p.absolute()
        found.update(p.rglob(f"*{SUFFIX}") if p.is_dir() else [p])
    return sorted(found)


def markers(lake: Path) -> dict[str, dict[str, Any]]:
    """The archives the lake holds, by name."""
    folder = lake / MARKERS
    if not folder.is_dir():
        return {}
    found = {}
    for f in sorted(folder.glob("*.json")):
        marker = json.loads(f.read_text())
        found[marker["shard"]] = marker
    return found


def _summed(table: str, counts: list[dict[str, Any]], types: Types) -> dict[str, Any]:
    """A table's rows and integer-column sums over its parts (every integer column, 0 where there are none), with
    their digest: what ``queries.export.digest_of`` gives for the whole table."""
    sums = {c: 0 for c, t in types.get(table, ()) if t in INTEGERS and c not in PARTITION}  # public_events: none
    for part in counts:
        for column, value in part["sums"].items():
            sums[column] = sums.get(column, 0) + value
    rows = sum(part["rows"] for part in counts)
    return {"rows": rows, "sums": sums, "digest": canonical_digest(rows, sums)}


def view_tables(view: str) -> tuple[str, ...]:
    """The partitioned tables of a lake of ``view`` (``queries.export``'s, with ``public_events`` for spectators)."""
    if view not in VIEWS:
        raise UnknownNameError("view", view, VIEWS)
    return OMNISCIENT if view == "omniscient" else (*SPECTATOR, "public_events")


def manifest_of(
    done: dict[str, dict[str, Any]],
    events: dict[str, dict[str, Any]] | None = None,
    types: Types | None = None,
    view: str = "omniscient",
) -> dict[str, Any]:
    """The lake's manifest: the local export's tables section (rows, sums and digest, summed over the archives
    and, for the tournament tables, the events; the judge's records over both), and each archive's and event's
    marker. A spectator lake has the spectator view's tables alone (no tournament tables, as the local export)."""
    types = types if types is not None else column_types()
    events = events or {}
    tables = {t: _summed(t, [m["tables"][t] for m in done.values()], types) for t in view_tables(view)}
    if view == "omniscient":
        tables.update({t: _summed(t, [m["tables"][t] for m in events.values()], types) for t in EVENT_TABLES})
        parts = [m["tables"][JUDGED] for m in [*done.values(), *events.values()] if JUDGED in m["tables"]]
        tables[JUDGED] = _summed(JUDGED, parts, types)  # a marker from before they were exported: none counted
    quarantined = [line for m in done.values() for line in m["quarantined"]]
    return {"view": view, "partitioned_by": list(PARTITION), "tables": tables, "shards": done,
            "events": events, "quarantined": quarantined}  # fmt: skip


# An archive's path, its first game's number, its index's digest, its plan, and its marker where only its first
# game moves (its files are renumbered in place: ``move_shard``), and the view.
Task = tuple[str, int, str, Plan, dict[str, Any] | None, str]
Runner = Callable[[list[Task], Types], list[dict[str, Any]]]  # tasks run (in any order): their markers


class _Unit(NamedTuple):
    name: str
    path: str
    digest: str
    games: dict[str, str] | None  # its game ids and chain digests (``lake_claims.Holdings``); None: file gone
    numbers: int | None  # the game numbers it took when exported (None: not exported yet)
    first: int | None  # the number of its first game in the lake (None: not exported yet)
    plan: str | None  # the digest of the plan it was exported with
    damaged: frozenset[str] = frozenset()  # its damaged games, as its task found them


def _games(archive: Archive) -> dict[str, str]:
    games: dict[str, str] = {}
    for m in archive.members:
        games.setdefault(m.game_id, m.digest)  # the first of an id: the one ``ARCHIVE#GAME_ID`` reads
    return games


def _exported(unit: _Unit, marker: dict[str, Any]) -> _Unit:
    """``unit`` as its marker says it was exported (a marker from before plans: no damage known, no plan)."""
    return unit._replace(
        numbers=marker.get("numbers", marker["games"]), first=marker["first_game"],
        plan=marker.get("plan", EMPTY_PLAN_DIGEST), damaged=frozenset(marker.get("damaged", ())),
    )  # fmt: skip


def _held(marker: dict[str, Any]) -> _Unit:
    """An archive the lake holds, its ids read again from its index (None when its file has gone: it is then
    neither planned again nor exported again)."""
    try:
        games: dict[str, str] | None = _games(read_index(marker["path"]))
    except OSError:
        games = None
    unit = _Unit(marker["shard"], marker["path"], marker["digest"], games, None, None, None)
    return _exported(unit, marker)


def build_lake(
    shards: list[Path], lake: Path, run: Runner, events: Sequence[Path] = (), view: str = "omniscient"
) -> LakeExport:
    """Export the archives under ``shards`` into ``lake``, each task run by ``run`` (Spark's, or in this process),
    and the tournament tables of the event folders ``events`` (``spark.lake_events``).

    The archives are numbered as one local ingest of them numbers games: those the lake holds first (by their first
    game), then the new ones in name order, each game after the ones before; a game id in several archives is kept
    once, or not at all in a conflict, as ingest keeps it (``spark.lake_claims``: the driver's plan from the
    indexes). A damaged game is not known before its task has checked it (it is quarantined and takes no number),
    so its archive is first given room for it; an archive whose first game then moves (a game before it
    quarantined) has its files' numbers moved, one whose part of the plan changes is exported again, its files
    and marker replaced. A lake left so by an export stopped between the two is brought right the same way by the
    next export; a lake of an earlier annals' layout is refused (``spark.lake_layout``). A lake holds one view
    (``view``: the spectator view's tables, for sharing, or the omniscient's); another view is refused
    (``LakeViewError``)."""
    tables = view_tables(view)
    if view != "omniscient" and events:
        raise LakeViewError("the spectator view has no tournament tables: export --events into an omniscient lake")
    held_view = _view_of(lake)
    if held_view is not None and held_view != view:
        raise LakeViewError(f"{lake} is a lake of the {held_view} view; export the {view} view into another lake")
    archives = _archives(shards)
    if not archives and (shards or not events):
        raise NoArchivesError(
            f"no archives (*{SUFFIX}) in {', '.join(map(str, shards)) or 'no --shards'}; write them with annals "
            "simulate --shard-size"
        )
    stores = [open_event(folder) for folder in events]
    lake.mkdir(parents=True, exist_ok=True)
    done = markers(lake)
    units = [_held(m) for m in sorted(done.values(), key=lambda m: m["first_game"])]
    skipped: list[str] = []
    for path in archives:
        archive = read_index(path)
        digest = archive_digest(archive)
        held = done.get(path.name)
        if held is not None:
            if held["digest"] != digest:
                raise LakeConflictError(
                    f"{path}: the lake holds an archive named {path.name} with other games (index digest "
                    f"{held['digest']}, this one {digest}); rename the archive or export into another lake"
                )
            skipped.append(path.name)
            continue
        units.append(_Unit(path.name, os.fspath(path), digest, _games(archive), None, None, None))
    check_layout(lake, tables)  # a lake of an earlier annals is refused before anything is written
    new = [u.name for u in units if u.first is None]
    con = open_database(":memory:")  # the schema: its column types (sent to the tasks), the README, event rows
    try:
        types = types_of(con)
        readme = _readme(con, [*tables, *EVENT_TABLES] if view == "omniscient" else list(tables), view)
        held_events = {}
        if view == "omniscient":
            held_events = {**event_markers(lake), **export_events(con, stores, lake, types)}
    finally:
        con.close()
    renumbered: set[str] = set()
    for _ in range(len(units) + 2):  # three times at most: the plan and every count are exact after the first
        holdings = [Holdings(u.name, u.path, {g: d for g, d in (u.games or {}).items() if g not in u.damaged})
                    for u in units]  # fmt: skip
        planned = plan_claims(holdings)
        todo: list[Task] = []
        base = 1
        for u in units:
            plan = planned[u.name]
            same = u.plan == plan_digest(plan.plan)
            if u.games is not None and (u.first != base or not same):
                todo.append((u.path, base, u.digest, plan.plan, done[u.name] if same else None, view))
                if u.first is not None:
                    renumbered.add(u.name)
            if u.games is None or (same and u.numbers is not None):
                base += u.numbers or 0  # what it took, exported with this plan (a marker from before plans too)
            else:
                base += plan.numbers  # exact once its damage is known (none assumed before its first export)
        if not todo:
            break
        for marker in run(todo, types):
            done[marker["shard"]] = marker
        units = [_exported(u, done[u.name]) if u.name in done else u for u in units]
    manifest = manifest_of(done, held_events, types, view)
    if view == "omniscient":
        manifest["tables"]["cards"] = write_cards(lake)
    write_atomic(lake / MANIFEST, json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    write_atomic(lake / "README.md", readme)
    return LakeExport(new, skipped, manifest, sorted(renumbered - set(new)))


def write_cards(lake: Path) -> dict[str, Any]:
    """The lake's ``cards`` table (``queries.export.cards_table``: what the local export writes) from the pools of
    the games it holds, replaced whole as one file; its rows, sums and digest for the manifest."""
    con = duckdb.connect()
    try:
        games = f"read_parquet('{lake / 'games'}/**/*.parquet', hive_partitioning = true)"
        decks = f"read_parquet('{lake / 'deck_cards'}/**/*.parquet', hive_partitioning = true)"
        typed = f"SELECT game, ruleset::VARCHAR AS ruleset, card_pool_hash, ruleset_version FROM {games}"
        if not any((lake / "games").rglob("*.parquet")):  # a lake of events alone: no game, no card
            typed = "SELECT 0 AS game, '' AS ruleset, '' AS card_pool_hash, '' AS ruleset_version LIMIT 0"
            decks = "(SELECT 0 AS game, '' AS card_id LIMIT 0)"
        con.execute(f"CREATE TEMP VIEW lake_games AS {typed}")
        pools = con.execute("SELECT DISTINCT ruleset, card_pool_hash FROM lake_games ORDER BY ALL").fetchall()
        rows: list[tuple[str, str, str, str | None, str | None, str | None]] = [
            (r, h, card_id, *described) for r, h in pools for card_id, described in definitions(r, h).items()
        ]
        named = {(r, h, c) for r, h, c, *_ in rows}
        in_decks = con.execute(
            f"SELECT DISTINCT g.ruleset, g.card_pool_hash, d.card_id FROM {decks} d JOIN lake_games g USING (game)"
        ).fetchall()
        rows += [(r, h, c, None, None, None) for r, h, c in in_decks if (r, h, c) not in named]
        con.execute("CREATE TEMP TABLE lake_cards (ruleset VARCHAR, card_pool_hash VARCHAR, card_id VARCHAR, "
                    "name VARCHAR, type VARCHAR, data VARCHAR)")  # fmt: skip
        if rows:
            con.executemany("INSERT INTO lake_cards VALUES (?, ?, ?, ?, ?, ?)", rows)
        table = cards_table(con, "lake_cards", "lake_games")
    finally:
        con.close()
    (lake / "cards").mkdir(parents=True, exist_ok=True)
    write_file(table, lake / "cards" / "data_0.parquet")
    frame = pl.from_arrow(table)
    assert isinstance(frame, pl.DataFrame)
    return digest_of(frame)


def export_to_lake(
    master: str, shards: list[Path], lake: Path, events: Sequence[Path] = (), view: str = "omniscient"
) -> LakeExport:
    """Export the archives under ``shards`` (files or folders) into ``lake`` on Spark, one task per archive, and
    the tournament tables of the event folders ``events``; see the module docstring and ``build_lake``."""
    require()
    target = os.fspath(lake.absolute())

    def on_spark(todo: list[Task], types: Types) -> list[dict[str, Any]]:
        rdd = session(master).sparkContext.parallelize(todo, len(todo))
        return collect(rdd.map(lambda t: run_task(t, target, types)))

    return build_lake(shards, lake, on_spark, events, view)
