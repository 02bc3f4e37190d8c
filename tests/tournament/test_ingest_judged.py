"""Ingest follows the record: an event ingested, then a judge's warning, game loss, and backup + resume, each
followed by a re-ingest of the event's folder. Every grown log supersedes its stored game (the old digest in
game_history), nothing is quarantined, every judge's act is in interventions, and the matches table never
contradicts the games table. A log changed any other way is still quarantined; ``annals db remove`` takes a game
out, recorded."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.tournament import event as lib
from annals.engine.tournament import play
from annals.engine.tournament.store import EventStore
from annals.schemas.logfile import read_log

runner = CliRunner()

# Each match against the games table: its game wins and draws counted from the games' results (the winning seat's
# player, by name, among the event's entrants); a row is a contradiction.
CONTRADICTIONS = """
WITH won AS (
    SELECT g.event AS event_id, g.round, g.table_no, e.player_id AS winner
    FROM games g
    LEFT JOIN players p ON p.game = g.game AND p.seat = g.winner
    LEFT JOIN entrants e ON e.event_id = g.event AND e.name = p.name
    WHERE g.event IS NOT NULL
)
SELECT m.round, m.table_no, m.wins_a, m.wins_b, m.draws,
       count(*) FILTER (WHERE w.winner = m.player_a) AS a, count(*) FILTER (WHERE w.winner = m.player_b) AS b,
       count(*) FILTER (WHERE w.winner IS NULL) AS d
FROM matches m JOIN won w USING (event_id, round, table_no)
GROUP BY ALL
HAVING (m.wins_a, m.wins_b, m.draws) != (a, b, d)
UNION ALL
SELECT mg.round, mg.table_no, -1, -1, -1, -1, -1, -1  -- a game of a match that the games table holds otherwise
FROM match_games mg JOIN games g USING (game_id)
LEFT JOIN players p ON p.game = g.game AND p.seat = g.winner
LEFT JOIN entrants e ON e.event_id = g.event AND e.name = p.name
WHERE mg.winner IS DISTINCT FROM e.player_id OR mg.end_reason != g.end_reason
"""


@pytest.fixture
def event(tmp_path: Path) -> EventStore:
    folder = tmp_path / "spring"
    made = runner.invoke(app, ["event", "new", str(folder), "--ruleset", "morana", "--rounds", "1", "--seed", "8",
                               "--max-turns", "30"])  # fmt: skip
    assert made.exit_code == 0, made.output
    store = EventStore.open(folder)
    lib.fill_with_bots(store, 4)
    play.run_event(store)
    return store


def _ingest(store: EventStore, db: Path) -> str:
    done = runner.invoke(app, ["ingest", str(store.folder), "--db", str(db), "-q"])
    assert done.exit_code == 0, done.output
    return done.output


def _check(db: Path) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT count(*) FROM quarantine").fetchall() == [(0,)]
    assert con.execute(CONTRADICTIONS).fetchall() == []
    return con


def test_every_judges_act_reaches_the_database_and_matches_agree_with_games(event: EventStore, tmp_path: Path) -> None:
    db = tmp_path / "annals.duckdb"
    _ingest(event, db)
    _check(db).close()
    matches = [m for m in event.matches() if m.b]
    warned, lost = matches[0].games[0], next(g for g in matches[-1].games if g.winner == matches[-1].winner)
    backed = matches[0].games[-1]
    acts = [
        (warned, ["judge", "warn", str(event.folder / warned.log), "--judge", "R. Vance", "--player",
                  warned.seats[0], "--reason", "slow play"]),
        (lost, ["judge", "game-loss", str(event.folder / lost.log), "--judge", "R. Vance", "--player",
                lost.winner, "--reason", "marked cards"]),
    ]  # fmt: skip
    for game, args in acts:
        done = runner.invoke(app, args)
        assert done.exit_code == 0, done.output
        before = read_log(event.folder / game.log).digest
        said = _ingest(event, db)
        assert "1 stored games superseded" in said and "quarantined: " not in said
        with _check(db) as con:
            assert con.execute("SELECT digest FROM games WHERE game_id = ?", [game.game_id]).fetchall() == [(before,)]
    half = len(read_log(event.folder / backed.log).decisions) // 2
    cut = runner.invoke(app, ["judge", "backup", str(event.folder / backed.log), "--judge", "R. Vance", "--to",
                              str(half), "--reason", "drew an extra card"])  # fmt: skip
    assert cut.exit_code == 0, cut.output
    resumed = runner.invoke(app, ["resume", str(event.folder / backed.log), "--players", "heuristic,heuristic"])
    assert resumed.exit_code == 0, resumed.output
    said = _ingest(event, db)
    assert "1 stored games superseded" in said and "quarantined: " not in said
    with _check(db) as con:
        kinds = con.execute("SELECT game_id, kind FROM interventions WHERE frame IS NOT NULL ORDER BY ALL").fetchall()
        assert sorted(kinds) == sorted([(warned.game_id, "warning"), (lost.game_id, "game_loss"),
                                        (backed.game_id, "backup")])  # fmt: skip
        history = con.execute("SELECT game_id, superseded_by FROM game_history").fetchall()
        assert sorted(g for g, _ in history) == sorted([warned.game_id, lost.game_id, backed.game_id])
        stored = dict(con.execute("SELECT game_id, digest FROM games").fetchall())
        assert all(stored[g] == by for g, by in history)
        assert con.execute("SELECT winner, end_reason FROM games WHERE game_id = ?", [lost.game_id]).fetchall() == [
            (lost.seats.index(lost.winner) ^ 1, "judge_game_loss")
        ]
        assert con.execute("SELECT decisions FROM games WHERE game_id = ?", [backed.game_id]).fetchall()[0][0] == len(
            read_log(event.folder / backed.log).decisions
        )


def test_a_log_changed_other_than_by_appending_is_still_quarantined(event: EventStore, tmp_path: Path) -> None:
    """The stored log loses its signature frame (cut back to its closing record): a whole log of the same game,
    but the stored one is not its first frames; it is quarantined and the stored game kept."""
    db = tmp_path / "annals.duckdb"
    _ingest(event, db)
    game = event.matches()[0].games[0]
    path = event.folder / game.log
    [signature] = read_log(path).signatures
    path.write_bytes(path.read_bytes()[: signature.offset])
    said = runner.invoke(app, ["ingest", str(path), "--db", str(db), "-q"]).output
    assert "superseded" not in said and "ChangedLogError" in said
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT error FROM quarantine").fetchall() == [("ChangedLogError",)]
        assert con.execute("SELECT digest FROM games WHERE game_id = ?", [game.game_id]).fetchall() == [(game.digest,)]


def test_db_remove_takes_a_game_out_and_records_it(event: EventStore, tmp_path: Path) -> None:
    db = tmp_path / "annals.duckdb"
    _ingest(event, db)
    game = event.matches()[0].games[0]
    refused = runner.invoke(app, ["db", "remove", game.game_id, "--reason", " ", "--db", str(db)])
    assert refused.exit_code == 2
    unknown = runner.invoke(app, ["db", "remove", "0123456789abcdef", "--reason", "test", "--db", str(db)])
    assert unknown.exit_code == 1 and "no game '0123456789abcdef'" in unknown.output
    done = runner.invoke(app, ["db", "remove", game.game_id, "--reason", "ingested by mistake", "--db", str(db)])
    assert done.exit_code == 0, done.output
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM games WHERE game_id = ?", [game.game_id]).fetchall() == [(0,)]
        gone = con.execute("SELECT count(*) FROM events e JOIN games g USING (game) WHERE g.game_id = ?",
                           [game.game_id]).fetchall()  # fmt: skip
        assert gone == [(0,)]
        assert con.execute("SELECT game_id, digest, reason FROM games_removed").fetchall() == [
            (game.game_id, game.digest, "ingested by mistake")
        ]
