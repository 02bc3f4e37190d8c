"""A dataset for sharing, the way 17lands publishes game data: ``export(con, folder)`` writes one hive-partitioned
Parquet table per entity (``TABLE/ruleset=R/month=YYYY-MM/*.parquet``), a README with the data dictionary, and a
manifest of row counts and digests any Parquet reader can recompute.

A table's digest is the SHA-256 of the canonical JSON of ``{"rows": N, "sums": {column: sum}}`` over its integer
columns (partition columns excluded): order-free, so DuckDB, polars and pyarrow each recompute it from the files
(``digest_of``) and must agree with the database.

``view="spectator"`` exports only what a spectator may see: games and players (deck names, no lists), and each
event as the ruleset's own ``redact(event, -1)`` gives it (``public_events``: kind and fields as JSON), read
from the game's log file (or, when it is gone, the log rebuilt from the database: ``queries.positions.gamelog``, the
games' ids listed in the manifest's ``rebuilt_from_database``); no deck lists, decisions, card facts or decision
reviews (they reveal hands).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import polars as pl
import pyarrow as pa

from annals.engine.registry import get_ruleset
from annals.queries import sqlfiles
from annals.queries.cards import pool
from annals.queries.names import EXPORT_VIEWS
from annals.queries.positions.gamelog import LogGoneError, logged_or_stored
from annals.queries.reports.dictionary import dictionary
from annals.schemas.errors import AnnalsError, UnknownNameError

VIEWS = EXPORT_VIEWS
# The tables every game has rows in; and the omniscient view's, with the decision reviews ingest loaded
# (``ingest.reviews``: only games someone reviewed have rows). A seat's chances are estimated from its own hand, so
# the spectator view leaves the reviews out, as the viewer's spectator page does.
PLAYED = ("games", "players", "deck_cards", "events", "decisions", "card_games", "card_facts")
REVIEWS = ("decision_reviews",)
OMNISCIENT = (*PLAYED, *REVIEWS)
# The tournament tables an event folder fills (``ingest.events``), and the judge's records (``interventions``: the
# logs' judge frames, named by game id, and the events' match overrides): small, so one file each, not partitioned,
# and in the omniscient view only (seeds, deck lists; a judge's note may say what a hand held).
EVENT_TABLES = ("tournaments", "entrants", "rounds", "pairings", "matches", "match_games", "standings", "interventions")
SPECTATOR = ("games", "players")
PARTITION = ("ruleset", "month")
# The tables holding a partition key as a column of their own (``games.ruleset``, which ``export_keys`` takes the
# key from: the same value): the column is left to the path, as ``PARTITION_BY`` leaves every key there, so a hive
# reader gets one ``ruleset`` (an earlier annals wrote both, the key as ``ruleset_1``: ``spark.lake_layout``).
OWN_KEYS = {"games": ("ruleset",)}


class ExportError(AnnalsError, ValueError):
    """The export cannot be written as asked (a bad view, format, or a folder that is not empty)."""


def _canonical(rows: int, sums: dict[str, int]) -> str:
    return hashlib.sha256(json.dumps({"rows": rows, "sums": sums}, sort_keys=True).encode()).hexdigest()


def digest_of(frame: pl.DataFrame) -> dict[str, Any]:
    """Rows, integer-column sums and their digest for a frame read back from the export (partition columns and
    non-integer columns ignored)."""
    sums = {
        name: int(frame[name].cast(pl.Int64).sum())
        for name, dtype in frame.schema.items()
        if dtype.is_integer() and name not in PARTITION
    }
    return {"rows": frame.height, "sums": sums, "digest": _canonical(frame.height, sums)}


def _public_events(con: duckdb.DuckDBPyConnection, rebuilt: list[str] | None = None) -> pa.Table:
    """Every event as a spectator sees it: the ruleset's redaction of the logged event (viewer -1). A game whose log
    is gone is rebuilt from the database (``queries.positions.gamelog``) and its id appended to ``rebuilt``."""
    out: dict[str, list[Any]] = {k: [] for k in ("game", "n", "turn", "step", "player", "kind", "fields")}
    query = (
        "SELECT game, game_id, file, ruleset FROM games JOIN export_keys USING (game, game_id, ruleset) ORDER BY game"
    )
    for game, game_id, file, ruleset in con.execute(query).fetchall():
        rules = get_ruleset(ruleset)
        try:
            found = logged_or_stored(con, game_id, Path(file))
        except LogGoneError as gone:
            fix = "put the log back where it was ingested from (the database keeps that path)"
            raise ExportError(f"the spectator view needs each game's events, and {gone.what}; {fix}") from None
        if found.rebuilt and rebuilt is not None:
            rebuilt.append(game_id)
        for event in found.log.events:
            shown = rules.redact(event, -1)
            fields = msgspec.structs.asdict(shown)
            for key, value in (("game", game), ("n", shown.n), ("turn", shown.turn), ("step", shown.step),
                               ("player", shown.player), ("kind", type(shown).__name__)):  # fmt: skip
                out[key].append(value)
            rest = {k: v for k, v in fields.items() if k not in ("n", "turn", "step", "player")}
            out["fields"].append(msgspec.json.encode(rest).decode())
    types = [pa.int32(), pa.int32(), pa.int32(), pa.string(), pa.int8(), pa.string(), pa.string()]
    return pa.table({k: pa.array(v, t) for (k, v), t in zip(out.items(), types, strict=True)})


# Columns the database stores as JSON: exported as JSON text, which DuckDB, polars and pyarrow all read as a string
# (a JSON column written as is comes back as Binary in polars).
JSON_COLUMNS = {
    "events": ("extra",),
    "decisions": ("chosen_option", "offered"),
    "interventions": ("data",),
    "cards": ("data",),
}


def _columns(table: str, alias: str, own: tuple[str, ...] = ()) -> str:
    """``alias.*`` less the columns ``own`` names, with the table's JSON columns as text."""
    columns = f"{alias}.*"
    if own:
        columns += f" EXCLUDE ({', '.join(own)})"
    if json_columns := JSON_COLUMNS.get(table):
        columns += f" REPLACE ({', '.join(f'CAST({c} AS VARCHAR) AS {c}' for c in json_columns)})"
    return columns


def table_query(table: str, view: str = "omniscient") -> str:
    """The rows of ``table`` in the dataset, with the game's id, when it was played (``games`` only) and its
    partition keys (after ``export_keys`` has been made): one definition for the local export and the lake built on
    Spark (``annals.spark.lake``). A key the table holds itself (``OWN_KEYS``) is the path's alone, so the partition
    columns are named as ``PARTITION`` names them; ``game_id`` is on every row, so tables of two exports join."""
    columns = _columns(table, "x", OWN_KEYS.get(table, ()))
    keys = "k.played_at, k.ruleset, k.month" if table == "games" else "k.game_id, k.ruleset, k.month"
    if (view, table) == ("spectator", "players"):
        columns = "x.name, x.seat, x.agent, x.deck, x.game"
    return f"SELECT {columns}, {keys} FROM {table} x JOIN export_keys k USING (game)"


def event_query(table: str) -> str:
    """The rows of the tournament table ``table`` in the dataset (one definition for the local export and the
    lake's event files, ``annals.spark.lake_events``)."""
    return f"SELECT {_columns(table, 'x')} FROM {table} x"


def canonical_digest(rows: int, sums: dict[str, int]) -> str:
    """The digest of a table from its row count and integer-column sums (see the module docstring)."""
    return _canonical(rows, sums)


MANIFEST = "manifest.json"


def _earlier_runs(folder: Path, view: str) -> list[dict[str, Any]]:
    """The runs an earlier export into ``folder`` made (none for a new or empty folder). A folder holding anything
    but an annals export of the same view is refused: an export never mixes with other files."""
    if not folder.exists() or not any(folder.iterdir()):
        return []
    try:
        manifest = json.loads((folder / MANIFEST).read_text())
    except (OSError, ValueError):
        fix = "export into a new folder"
        raise ExportError(f"{folder} is not empty and holds no annals export ({MANIFEST}); {fix}") from None
    if manifest.get("view") != view:
        fix = f"export the {manifest.get('view')} view there, or the {view} view into a new folder"
        raise ExportError(f"{folder} holds the {manifest.get('view')} view, not the {view} view; {fix}")
    runs: list[dict[str, Any]] = manifest.get("runs") or [
        {"run": 1, "games_added": manifest["tables"]["games"]["rows"]}
    ]
    return runs


def _parquet(folder: Path, table: str) -> str:
    return f"read_parquet('{folder / table}/**/*.parquet', hive_partitioning = true, union_by_name = true)"


def cards_table(con: duckdb.DuckDBPyConnection, cards: str = "cards", games: str = "games") -> pa.Table:
    """The card pools of the exported games as a table that names every card id: the rows of ``cards`` (the
    database's table, or a relation of its columns) with each card's cost, stats and rules text from the pool annals
    ships (NULL for a pool it does not ship) and the editions (ruleset versions) of the ``games`` played with that
    pool. One definition for the local export and the Spark lake (``annals.spark.lake``)."""
    query = (
        "SELECT c.ruleset, c.card_pool_hash, c.card_id, c.name, c.type, CAST(c.data AS VARCHAR) AS data,"
        f" (SELECT string_agg(DISTINCT g.ruleset_version, ',' ORDER BY g.ruleset_version) FROM {games} g"
        "  WHERE g.ruleset = c.ruleset AND g.card_pool_hash = c.card_pool_hash) AS editions"
        f" FROM {cards} c ORDER BY c.ruleset, c.card_pool_hash, c.card_id"
    )
    rows = con.execute(query).fetchall()
    shipped: dict[tuple[str, str], dict[str, Any]] = {}
    out: dict[str, list[Any]] = {k: [] for k in ("ruleset", "card_pool_hash", "card_id", "name", "type", "cost",
                                                  "stats", "text", "editions", "data")}  # fmt: skip
    for ruleset, pool_hash, card_id, name, kind, data, editions in rows:
        if (ruleset, pool_hash) not in shipped:
            rules = get_ruleset(ruleset)
            same = rules.card_pool_hash() == pool_hash
            shipped[ruleset, pool_hash] = {c.id: c for c in pool(ruleset)} if same else {}
        info = shipped[ruleset, pool_hash].get(card_id)
        values = (ruleset, pool_hash, card_id, name, kind, info and info.cost,
                  info and json.dumps(info.stats), info and info.text, editions, data)  # fmt: skip
        for key, value in zip(out, values, strict=True):
            out[key].append(value)
    types = [pa.string()] * 5 + [pa.int32()] + [pa.string()] * 4
    return pa.table({k: pa.array(v, t) for (k, v), t in zip(out.items(), types, strict=True)})


def _replace_file(con: duckdb.DuckDBPyConnection, query: str, target: Path) -> None:
    """``query`` as ``target/data_0.parquet``, replacing an earlier run's file whole (written aside, then renamed)."""
    target.mkdir(exist_ok=True)
    aside = target / ".data_0.parquet.tmp"
    con.execute(f"COPY ({query}) TO '{aside}' (FORMAT parquet)")
    aside.replace(target / "data_0.parquet")


def export(con: duckdb.DuckDBPyConnection, folder: Path, *, view: str = "omniscient") -> dict[str, Any]:
    """Write the dataset into ``folder`` and return the manifest written there. A new or empty folder gets every
    game; a folder an earlier export of the same view wrote gets the games it does not hold yet (a nightly refresh:
    each run's files are its own, ``runNNNN_*.parquet``, so nothing is written twice), and the small unpartitioned
    tables (the events' and the cards) are replaced whole. The manifest's digests are of the whole folder as read
    back, and ``runs`` says what each run added."""
    if view not in VIEWS:
        raise UnknownNameError("view", view, VIEWS)
    runs = _earlier_runs(folder, view)
    run = len(runs) + 1
    folder.mkdir(parents=True, exist_ok=True)
    con.execute(sqlfiles.load("export_keys"))
    if runs:  # only the games the folder does not hold yet
        con.execute(f"DELETE FROM export_keys WHERE game_id IN (SELECT game_id FROM {_parquet(folder, 'games')})")
    tables = list(OMNISCIENT if view == "omniscient" else SPECTATOR)
    rebuilt: list[str] = []
    if view == "spectator":
        con.register("public_events", _public_events(con, rebuilt))
        tables.append("public_events")
    added: dict[str, int] = {}
    for table in tables:
        query = table_query(table, view)
        added[table] = con.execute(f"SELECT count(*) FROM ({query})").fetchall()[0][0]
        options = f"FORMAT parquet, PARTITION_BY (ruleset, month), FILENAME_PATTERN 'run{run:04d}_{{i}}'"
        con.execute(f"COPY ({query}) TO '{folder / table}' ({options}, OVERWRITE_OR_IGNORE)")
    whole = list(EVENT_TABLES) if view == "omniscient" else []
    if view == "omniscient":
        con.register("export_cards", cards_table(con))
        _replace_file(con, "SELECT * FROM export_cards", folder / "cards")
        whole.append("cards")
    for table in EVENT_TABLES if view == "omniscient" else ():
        _replace_file(con, event_query(table), folder / table)
    manifest: dict[str, Any] = {"view": view, "partitioned_by": list(PARTITION), "tables": {}}
    for table in [*tables, *whole]:
        if (folder / table).is_dir() and any((folder / table).rglob("*.parquet")):
            manifest["tables"][table] = digest_of(con.sql(f"SELECT * FROM {_parquet(folder, table)}").pl())
        else:  # no game has rows of this table yet
            manifest["tables"][table] = digest_of(con.sql(f"SELECT * FROM ({table_query(table, view)}) LIMIT 0").pl())
    manifest["runs"] = [*runs, {"run": run, "games_added": added["games"], "rows_added": added}]
    if rebuilt:  # this run's games whose logs were gone: said, as the commands that show one game say it
        manifest["rebuilt_from_database"] = rebuilt
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    (folder / "README.md").write_text(_readme(con, [*tables, *whole], view))
    return manifest


# The columns the dataset adds to the database's (their comments are not in the database: said here).
ADDED_COLUMNS = {
    "game_id": "VARCHAR: the game's id (`games.game_id`), on every row of every game-level table: join on it, "
    "since `game` numbers games within one database only and two exports' numbers collide",
    "played_at": "TIMESTAMP (games): when the game's log was written, UTC (the month partition is taken from it)",
}
CARD_COLUMNS = {
    "cost": "INTEGER: what playing it costs, NULL for a card never paid for (or a pool annals does not ship)",
    "stats": 'VARCHAR: its printed numbers as a JSON object in printed order (`{"ATK": 3, "GRIT": 2}`)',
    "text": "VARCHAR: its rules text",
    "editions": "VARCHAR: the ruleset versions of the games played with this pool, comma-separated",
}


def _readme(con: duckdb.DuckDBPyConnection, tables: list[str], view: str) -> str:
    lines = [
        f"# annals dataset ({view} view)",
        "",
        "Games of The Miras 9 TCG and MORANA recorded by annals: who played which deck, every event and decision,",
        "and per-card facts, as Parquet any reader opens with nothing but these files.",
        "",
        "## Layout",
        "",
        "One folder per table, hive-partitioned by `ruleset` and `month` (the month the game's log was written);",
        "the tournament tables (`tournaments`, `entrants`, ..., omniscient view) and `cards` are small and not",
        "partitioned. The keys are in the folder names alone (`games.ruleset` too), so read with hive partitioning",
        "to get them. Read with DuckDB `read_parquet('TABLE/**/*.parquet', hive_partitioning = true)`, polars",
        "`pl.scan_parquet('TABLE/**/*.parquet', hive_partitioning=True)` or `pyarrow.dataset.dataset('TABLE',",
        "partitioning='hive')`. JSON columns are JSON text (a string in every reader: `json.loads`, DuckDB's",
        "`json_extract`, polars' `str.json_decode`).",
        "",
        "## Keys and joins",
        "",
        "Every game-level table carries `game_id`, the game's own id: join on it (`game` numbers the games of one",
        "database only). `games.played_at` says when each game was played. `cards` names every card id: join",
        "`deck_cards` or `card_games` to `games` for the game's `ruleset` and `card_pool_hash`, then to `cards` on",
        "(`ruleset`, `card_pool_hash`, `card_id`). For example, in DuckDB:",
        "",
        "```sql",
        "SELECT c.name, avg((g.winner = cg.seat)::INT) AS win_rate, count(*) AS seat_games",
        "FROM read_parquet('card_games/**/*.parquet', hive_partitioning = true) cg",
        "JOIN read_parquet('games/**/*.parquet', hive_partitioning = true) g USING (game_id)",
        "JOIN read_parquet('cards/*.parquet') c",
        "  ON c.ruleset = g.ruleset AND c.card_pool_hash = g.card_pool_hash AND c.card_id = cg.card_id",
        "GROUP BY ALL ORDER BY seat_games DESC;",
        "```",
        "",
        "## Runs and checks",
        "",
        "An export into this folder again adds only the games it does not hold yet (files `runNNNN_*.parquet`;",
        "`cards` and the tournament tables replaced whole); `manifest.json` lists each run's games and rows added,",
        "and each table's rows, integer-column sums and their SHA-256 digest (of the canonical JSON",
        '`{"rows": N, "sums": {...}}`) over the whole folder, to check a copy against.',
        "",
        "## Data dictionary",
    ]
    frame = dictionary(con)
    for table in tables:
        lines.append(f"\n### {table}\n")
        rows = frame.filter(pl.col("table") == table)
        if rows.height == 0:
            lines.append("Each event as a spectator sees it (the ruleset's redaction): kind, and its fields as JSON.")
            continue
        for row in rows.iter_rows(named=True):
            lines.append(
                row["comment"] if row["column"] is None else f"- `{row['column']}` ({row['type']}): {row['comment']}"
            )
        if table == "cards":
            lines.extend(f"- `{name}` ({text.replace(': ', '): ', 1)}" for name, text in CARD_COLUMNS.items())
        if table in EVENT_TABLES or table == "cards":
            continue
        added = "played_at" if table == "games" else "game_id"
        lines.append(f"- `{added}` ({ADDED_COLUMNS[added].replace(': ', '): ', 1)}")
    return "\n".join(lines) + "\n"
