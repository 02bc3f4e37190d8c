"""Event folders into the tournament tables (``ingest/sql/migrate_to_v2.sql``), beside their games.

``annals ingest EVENT_FOLDER`` verifies the folder against its record (``engine.tournament.verify``), ingests
the folder's game logs (``logs/``, never the torn logs set aside under ``torn/``) with the ordinary loader, then
replaces the event's rows in tournaments, entrants, rounds, pairings, matches, match_games, standings and the
match overrides (the last correction of each match) among the interventions in one transaction:
re-ingesting a folder gives the same rows, and an event ingested part-way (while it runs) is brought up to date.
The logs' judge frames enter ``interventions`` with their games (``ingest.loader``), for any log.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import duckdb
import msgspec
import pyarrow as pa

from annals.engine.tournament.event import current_standings, placings
from annals.engine.tournament.store import EVENT_FILE, EventStore
from annals.engine.tournament.verify import require_verified

TABLES = ("tournaments", "entrants", "rounds", "pairings", "matches", "match_games", "standings", "interventions")


def is_event_folder(path: Path) -> bool:
    return path.is_dir() and (path / EVENT_FILE).is_file()


def split_paths(paths: Sequence[str | Path]) -> tuple[list[Path], list[EventStore]]:
    """Log paths for the loader (an event folder gives its ``logs/``), and the event folders found; an event folder
    that fails ``annals event verify`` is refused by name (``EventRecordError``) before anything is read."""
    logs: list[Path] = []
    events: list[EventStore] = []
    for raw in paths:
        path = Path(raw)
        if is_event_folder(path):
            store = EventStore.open(path)
            require_verified(store)
            events.append(store)
            if (path / "logs").is_dir():
                logs.append(path / "logs")
        else:
            logs.append(path)
    return logs, events


def _none(value: str) -> str | None:
    return value or None


def event_rows(store: EventStore) -> dict[str, pa.Table]:
    """The event's rows, table by table (as Arrow tables in the columns' order)."""
    config = store.config()
    eid = config.event_id
    players = store.players()
    rounds = store.rounds()
    matches = store.matches()
    place = {p: n for n, p in placings(store)}
    rows: dict[str, list[dict[str, object]]] = {t: [] for t in TABLES}
    rows["tournaments"].append(
        {
            "event_id": eid, "name": config.name, "ruleset": config.ruleset, "rounds": config.rounds,
            "best_of": config.best_of, "top": config.top, "seed": config.seed, "max_turns": config.max_turns,
            "players": sum(p.dropped_after != 0 for p in players), "folder": str(store.folder.resolve()),
        }
    )  # fmt: skip
    for p in players:
        dropped = p.dropped_after if p.dropped_after >= 0 else None
        rows["entrants"].append(
            {"event_id": eid, "player_id": p.id, "name": p.name, "deck": p.deck_name,
             "leader": p.deck.leader if p.deck else "",
             "dropped_after": dropped}
        )  # fmt: skip
    for r in rounds:
        rows["rounds"].append(
            {"event_id": eid, "round": r.number, "stage": r.stage, "seed": r.seed, "tables": len(r.pairings)}
        )
        for pairing in r.pairings:
            rows["pairings"].append(
                {"event_id": eid, "round": r.number, "table_no": pairing.table, "player_a": pairing.a,
                 "player_b": _none(pairing.b)}
            )  # fmt: skip
    for m in matches:
        o = m.override
        wins = (m.wins_a, m.wins_b, m.draws) if o is None else (o.wins_a, o.wins_b, o.draws)
        rows["matches"].append(
            {"event_id": eid, "round": m.round, "stage": m.stage, "table_no": m.table, "player_a": m.a,
             "player_b": _none(m.b), "wins_a": wins[0], "wins_b": wins[1], "draws": wins[2],
             "winner": _none(m.winner), "ended": m.ended if o is None else "override", "turn_cap": m.turn_cap,
             "override_judge": o.judge if o else None, "override_reason": o.reason if o else None}
        )  # fmt: skip
        if o is not None:
            rows["interventions"].append(
                {"event_id": eid, "round": m.round, "table_no": m.table, "kind": "match_override",
                 "judge": o.judge, "reason": o.reason or None, "data": msgspec.json.encode(o).decode()}
            )  # fmt: skip
        for g in m.games:
            rows["match_games"].append(
                {"event_id": eid, "round": m.round, "table_no": m.table, "game_no": g.number, "game_id": g.game_id,
                 "first_player": _none(g.first), "decider": _none(g.decider), "method": g.method,
                 "winner": _none(g.winner), "end_reason": g.end_reason, "turns": g.turns}
            )  # fmt: skip
    for s in current_standings(store):
        rows["standings"].append(
            {"event_id": eid, "rank": s.rank, "player_id": s.player, "points": s.points, "wins": s.wins,
             "losses": s.losses, "draws": s.draws, "byes": s.byes, "omw": s.omw, "gw": s.gw, "ogw": s.ogw,
             "place": place[s.player]}
        )  # fmt: skip
    return {name: pa.Table.from_pylist(table) for name, table in rows.items() if table}


def ingest_events(con: duckdb.DuckDBPyConnection, stores: Sequence[EventStore]) -> int:
    """Replace each event's rows; returns the number of events written."""
    for store in stores:
        tables = event_rows(store)
        eid = store.config().event_id
        con.execute("BEGIN")
        try:
            for name in TABLES:
                only_ours = " AND frame IS NULL" if name == "interventions" else ""  # a log's rows stay
                con.execute(f"DELETE FROM {name} WHERE event_id = ?{only_ours}", [eid])
            for name, table in tables.items():
                con.register("_event_rows", table)
                columns = ", ".join(table.column_names)
                con.execute(f"INSERT INTO {name} ({columns}) SELECT {columns} FROM _event_rows")
                con.unregister("_event_rows")
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
    return len(stores)
