"""Two logs claiming one game id with different contents: neither is kept, in whatever order they come, and a
``decide`` hook (a signature, later) can keep one."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest

from annals.engine.registry import get_ruleset
from annals.engine.replay import verify_log
from annals.engine.rng import Rng
from annals.engine.runner import play
from annals.ingest.flatten import collect
from annals.ingest.loader import ingest
from annals.schemas.logfile import read_log


def rival(source: Path, target: Path) -> Path:
    """The game of ``source``'s header played again by bots with other generators: the same game id, other
    decisions and events, and a log that verify accepts (it re-runs legally) — only a signature could tell which
    one the players played."""
    header = read_log(source).header
    ruleset = get_ruleset(header.ruleset)
    factories = ruleset.agents()
    for attempt in range(1, 20):
        agents = [factories[p.agent](i, Rng(1000 * attempt + i)) for i, p in enumerate(header.players)]
        play(ruleset, header, agents, target)
        if read_log(target).digest != read_log(source).digest:
            verify_log(target)
            return target
    raise AssertionError("no other game found")


def stored_and_quarantined(db: Path, game_id: str) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        games = con.execute("SELECT file FROM games WHERE game_id = ?", [game_id]).fetchall()
        rows = con.execute(
            "SELECT file, error, reason FROM quarantine WHERE game_id = ? ORDER BY file", [game_id]
        ).fetchall()
        orphans = con.execute(
            "SELECT count(*) FROM events WHERE game NOT IN (SELECT game FROM games) UNION ALL "
            "SELECT count(*) FROM decisions WHERE game NOT IN (SELECT game FROM games) UNION ALL "
            "SELECT count(*) FROM players WHERE game NOT IN (SELECT game FROM games) UNION ALL "
            "SELECT count(*) FROM card_facts WHERE game NOT IN (SELECT game FROM games)"
        ).fetchall()
        assert orphans == [(0,)] * 4  # a withdrawn game leaves no rows behind
        return games, rows
    finally:
        con.close()


@pytest.fixture
def pair(logs_dir: Path, tmp_path: Path) -> tuple[Path, Path, str]:
    """A folder of good logs with a rival of one of them beside it (named to sort before or after it)."""
    folder = tmp_path / "logs"
    shutil.copytree(logs_dir / "cardtoy", folder)
    genuine = Path(collect([folder])[3])
    other = rival(genuine, folder / "rival.log")
    return genuine, other, read_log(genuine).header.game_id


def assert_neither_kept(db: Path, game_id: str, files: list[Path]) -> None:
    games, rows = stored_and_quarantined(db, game_id)
    assert games == []
    assert sorted(str(f) for f in files) == [r[0] for r in rows]
    for _file, error, reason in rows:
        assert error == "ConflictingLogsError"
        assert all(str(f) in str(reason) for f in files), reason  # each row names every file of the conflict


@pytest.mark.parametrize("rival_first", [True, False])
def test_two_logs_of_one_game_id_in_one_run_keep_neither(
    pair: tuple[Path, Path, str], tmp_path: Path, rival_first: bool
) -> None:
    genuine, other, game_id = pair
    if rival_first:  # files are ingested in sorted order: put the rival first
        other = other.rename(other.with_name("000-rival.log"))
    db = tmp_path / "one.duckdb"
    report = ingest([genuine.parent], db, workers=1)
    assert report.reconciled and report.files_quarantined == 2
    assert report.games_added == report.files - 2
    assert_neither_kept(db, game_id, [genuine, other])


@pytest.mark.parametrize("stored_first", ["genuine", "rival"])
def test_a_log_conflicting_with_a_stored_game_withdraws_it(
    pair: tuple[Path, Path, str], tmp_path: Path, stored_first: str
) -> None:
    """Across ingests: the stored game leaves the database with the newcomer; a third ingest of both files ends
    where one ingest of both does."""
    genuine, other, game_id = pair
    first, second = (genuine, other) if stored_first == "genuine" else (other, genuine)
    db = tmp_path / "two.duckdb"
    assert ingest([first], db, workers=1).games_added == 1
    report = ingest([second], db, workers=1)
    assert report.games_added == 0 and report.games_withdrawn == 1 and report.reconciled
    assert report.events_withdrawn == read_log(first).close.events
    assert any("ConflictingLogsError" in line and str(first) in line for line in report.quarantined)
    assert_neither_kept(db, game_id, [genuine, other])
    again = ingest([genuine.parent], db, workers=2, chunk_files=3)
    assert again.reconciled
    assert_neither_kept(db, game_id, [genuine, other])


def test_copies_of_a_conflicting_log_are_quarantined_too(pair: tuple[Path, Path, str], tmp_path: Path) -> None:
    """A byte-identical copy of the stored log was skipped as a copy; when the conflict appears it is part of it."""
    genuine, other, game_id = pair
    copy = genuine.with_name("0-copy.log")
    shutil.copyfile(genuine, copy)
    db = tmp_path / "copies.duckdb"
    report = ingest([copy, genuine, other], db, workers=1)
    assert report.reconciled and report.games_skipped == 0 and report.files_quarantined == 3
    assert_neither_kept(db, game_id, [copy, genuine, other])


@pytest.mark.parametrize("rival_first", [True, False])
def test_a_decide_hook_keeps_the_log_it_names(pair: tuple[Path, Path, str], tmp_path: Path, rival_first: bool) -> None:
    """Where a signature tells the genuine log (branch ``sign``), ``decide`` names it: it is stored, the other
    goes to quarantine naming it, whichever came first."""
    genuine, other, game_id = pair
    seen: list[tuple[str, str]] = []

    def decide(held: str, claimant: str) -> str | None:
        seen.append((held, claimant))
        return str(genuine)

    db = tmp_path / "decide.duckdb"
    first, second = (other, genuine) if rival_first else (genuine, other)
    ingest([first], db, workers=1)
    report = ingest([second], db, workers=1, decide=decide)
    assert seen == [(str(first), str(second))] and report.reconciled
    games, rows = stored_and_quarantined(db, game_id)
    assert games == [(str(genuine),)]
    assert [r[0] for r in rows] == [str(other)] and "chosen by its signature" in str(rows[0][2])
