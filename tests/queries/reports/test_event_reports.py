"""The event reports fit events (issue 30): ``--event`` takes the id, the name or the folder the organiser used,
a small field shows every deck by default, and ``--min-games 0`` is taken by every report."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from annals.engine.tournament import event as lib
from annals.engine.tournament import play
from annals.engine.tournament.store import EventStore
from annals.queries.reports.filters import Filters, NotApplicableError, UnknownValueError
from annals.queries.reports.run import MIN_GAMES, run_report

ANNALS = str(Path(sys.executable).parent / "annals")


@pytest.fixture(scope="module")
def event_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[EventStore, Path]:
    """A 12-player event (a field far under the default floor of MIN_GAMES games a row), ingested."""
    base = tmp_path_factory.mktemp("small-event")
    lib.new_event(base / "spring-open", "Spring-Open-26", "morana", rounds=2, best_of=1, top=0, seed=5)
    store = EventStore.open(base / "spring-open")
    lib.fill_with_bots(store, 12)
    play.run_event(store)
    db = base / "annals.duckdb"
    done = subprocess.run([ANNALS, "ingest", str(store.folder), "--db", str(db), "-q"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return store, db


def test_event_decks_shows_a_small_field_by_default(event_db: tuple[EventStore, Path]) -> None:
    store, db = event_db
    con = duckdb.connect(str(db), read_only=True)
    result = run_report(con, "event_decks", filters=Filters(event=store.config().event_id))
    assert result.frame.height > 0 and result.hidden == 0 and all(n < MIN_GAMES for n in result.frame["games"])
    assert "every row shown" in result.sample


@pytest.mark.parametrize("how", ["id", "name", "folder path", "folder name"])
def test_event_is_found_by_id_name_or_folder(event_db: tuple[EventStore, Path], how: str) -> None:
    store, db = event_db
    con = duckdb.connect(str(db), read_only=True)
    given = {"id": store.config().event_id, "name": "spring-open-26", "folder path": str(store.folder),
             "folder name": "spring-open"}[how]  # fmt: skip
    by_id = run_report(con, "event_standings", filters=Filters(event=store.config().event_id)).frame
    assert run_report(con, "event_standings", filters=Filters(event=given)).frame.equals(by_id)
    assert by_id.height == 12


def test_an_unknown_event_is_named_with_the_closest(event_db: tuple[EventStore, Path]) -> None:
    _, db = event_db
    con = duckdb.connect(str(db), read_only=True)
    with pytest.raises(UnknownValueError, match="no event 'spring-opne'; did you mean 'spring-open'"):
        run_report(con, "metagame", filters=Filters(event="spring-opne"))


@pytest.mark.parametrize("report", ["metagame", "event_standings", "event_decks"])
def test_min_games_zero_is_taken_by_every_event_report(event_db: tuple[EventStore, Path], report: str) -> None:
    _, db = event_db
    con = duckdb.connect(str(db), read_only=True)
    assert run_report(con, report, filters=Filters(event="spring-open"), min_games=0).frame.height > 0
    if report != "event_decks":  # no games column: a floor above 0 means nothing there, and says so
        with pytest.raises(NotApplicableError, match="has no games column, so --min-games 5 does not apply"):
            run_report(con, report, filters=Filters(event="spring-open"), min_games=5)


def test_the_cli_takes_the_folder_the_organiser_used(event_db: tuple[EventStore, Path]) -> None:
    store, db = event_db
    done = subprocess.run(
        [ANNALS, "report", "event_standings", "--event", str(store.folder), "--db", str(db), "--min-games", "0"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert store.config().event_id in done.stdout
