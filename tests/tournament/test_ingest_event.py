"""``annals ingest EVENT_FOLDER``: the tournament tables beside the games, idempotent; the event reports."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from annals.engine.tournament import event as lib
from annals.engine.tournament import play
from annals.engine.tournament.store import EventStore
from annals.ingest.schema import SCHEMA_VERSION, ddl, open_database
from annals.queries.reports.filters import Filters, UnknownValueError
from annals.queries.reports.run import run_report

ANNALS = str(Path(sys.executable).parent / "annals")


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> tuple[EventStore, Path]:
    base = tmp_path_factory.mktemp("ingest")
    lib.new_event(base / "event", "ingest", "morana", rounds=3, best_of=3, top=4, seed=77)
    store = EventStore.open(base / "event")
    lib.fill_with_bots(store, 9)  # odd: byes
    play.run_event(store)
    db = base / "annals.duckdb"
    for _ in range(2):  # the second ingest changes nothing
        done = subprocess.run([ANNALS, "ingest", str(store.folder), "--db", str(db), "-q"],
                              capture_output=True, text=True)  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert "0 quarantined" in done.stdout and "tournament tables written" in done.stdout
    return store, db


def test_tables_hold_the_event_and_join_the_games(ingested: tuple[EventStore, Path]) -> None:
    store, db = ingested
    con = duckdb.connect(str(db), read_only=True)

    def count(query: str) -> int:
        return int(con.execute(query).fetchall()[0][0])

    matches = store.matches()
    assert count("SELECT count(*) FROM tournaments") == 1
    assert count("SELECT count(*) FROM entrants") == 9
    assert count("SELECT count(*) FROM rounds") == 3 + 2
    assert count("SELECT count(*) FROM pairings") == sum(len(r.pairings) for r in store.rounds())
    assert count("SELECT count(*) FROM matches") == len(matches)
    assert count("SELECT count(*) FROM matches WHERE player_b IS NULL") == 3  # one bye a Swiss round
    assert count("SELECT count(*) FROM match_games") == sum(len(m.games) for m in matches)
    assert count("SELECT count(*) FROM match_games LEFT JOIN games USING (game_id) WHERE games.game IS NULL") == 0
    assert count("SELECT count(*) FROM games") == sum(len(m.games) for m in matches)
    assert count("SELECT count(*) FROM interventions") == 0
    rows = con.execute("SELECT player_id, rank, points FROM standings ORDER BY rank").fetchall()
    assert rows == [(s.player, s.rank, s.points) for s in lib.current_standings(store)]
    # a game's winner in match_games is the player in the games table's winning seat
    agree = con.execute(
        "SELECT count(*) FILTER (WHERE p.name = e.name), count(*) FROM match_games mg "
        "JOIN games g USING (game_id) JOIN players p ON p.game = g.game AND p.seat = g.winner "
        "JOIN entrants e ON e.event_id = mg.event_id AND e.player_id = mg.winner"
    ).fetchall()[0]
    decided = sum(1 for m in matches for g in m.games if g.winner)
    assert agree == (decided, decided) and decided > 0
    con.close()


def test_event_reports_metagame_deck_win_rates_and_standings(ingested: tuple[EventStore, Path]) -> None:
    store, db = ingested
    con = open_database(db, read_only=True)
    eid = store.config().event_id
    meta = run_report(con, "metagame", filters=Filters(event=eid)).frame
    assert meta["players"].sum() == 9 and meta["share"].sum() == pytest.approx(1, abs=1e-3)
    assert meta["in_top"].sum() == 4
    decks = run_report(con, "event_decks", filters=Filters(event=eid), min_games=0).frame
    assert {"win_rate", "ci_low", "ci_high"} <= set(decks.columns)
    assert all(lo <= wr <= hi for lo, wr, hi in decks.select("ci_low", "win_rate", "ci_high").iter_rows())
    decided = sum(1 for m in store.matches() for g in m.games if g.winner)
    assert decks["wins"].sum() == decided  # each decided game won by exactly one deck
    table = run_report(con, "event_standings", filters=Filters(event=eid)).frame
    assert table["player_id"].to_list() == [p for _, p in lib.placings(store)]
    with pytest.raises(UnknownValueError, match="no event 'no-such-event'"):
        run_report(con, "metagame", filters=Filters(event="no-such-event"))
    con.close()


def test_a_version_1_database_is_migrated_to_the_tournament_tables(tmp_path: Path) -> None:
    path = tmp_path / "v1.duckdb"
    con = duckdb.connect(str(path))
    con.execute(ddl("schema_v1"))
    con.execute("INSERT INTO schema_version VALUES (1)")
    con.close()
    con = open_database(path)
    assert con.execute("SELECT max(version) FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
    assert con.execute("SELECT count(*) FROM tournaments").fetchall() == [(0,)]
    con.close()


def test_an_event_that_fails_verification_is_refused_by_name(ingested: tuple[EventStore, Path], tmp_path: Path) -> None:
    store, _ = ingested
    folder = tmp_path / "event"
    shutil.copytree(store.folder, folder)
    (folder / "decks" / "bot-002.txt").write_text("Deck: clash\nWarden: Lada\n1 firebird\n")  # an illegal deck
    db = tmp_path / "annals.duckdb"
    done = subprocess.run([ANNALS, "ingest", str(folder), "--db", str(db), "-q"], capture_output=True, text=True)
    assert done.returncode == 1 and len(done.stderr.strip().splitlines()) == 1
    assert "fails verification: decks/bot-002.txt" in done.stderr and not db.exists()


def test_a_player_who_withdrew_before_round_1_is_not_in_the_metagame(tmp_path: Path) -> None:
    folder = tmp_path / "event"
    lib.new_event(folder, "small", "morana", rounds=1, best_of=1, seed=4)
    store = EventStore.open(folder)
    lib.fill_with_bots(store, 5)
    lib.drop(store, "bot-005")  # a withdrawal: no entrant
    play.run_event(store)
    db = tmp_path / "annals.duckdb"
    done = subprocess.run([ANNALS, "ingest", str(folder), "--db", str(db), "-q"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    con = open_database(db, read_only=True)
    meta = run_report(con, "metagame", filters=Filters(event=store.config().event_id)).frame
    assert meta["players"].sum() == 4 and meta["share"].sum() == pytest.approx(1, abs=1e-3)
    con.close()
