"""An event whose deck lists are optional (``event new --deck-lists optional``, ruling R-EVT-14): a club night where
people play with cards and the organiser types the slips' results. Players register without a list; pairings,
results, standings, verify and ingest work; a game played through annals still needs both lists, and every path
that would play one says so by name."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.tournament.store import EventStore
from annals.engine.tournament.verify import verify_event
from tests.eventkit import ORGANISER, call
from tests.serverkit import server

runner = CliRunner()


def _ok(*args: str) -> str:
    done = runner.invoke(app, list(args))
    assert done.exit_code == 0, (args, done.output)
    return done.stdout


def _club(tmp_path: Path) -> Path:
    folder = tmp_path / "club"
    made = _ok("event", "new", str(folder), "--ruleset", "miras9", "--rounds", "2", "--seed", "3",
               "--deck-lists", "optional")  # fmt: skip
    assert "deck lists optional" in made
    _ok("deck", "miras9", "vanguard", "--output", str(tmp_path / "vanguard.txt"))
    for pid in ("ada", "cy"):
        assert "without a deck list" in _ok("event", "register", str(folder), "--id", pid, "--name", pid.title())
    for pid in ("bo", "di"):
        _ok(
            "event",
            "register",
            str(folder),
            "--id",
            pid,
            "--name",
            pid.title(),
            "--deck",
            str(tmp_path / "vanguard.txt"),
        )
    return folder


def test_a_club_night_registers_without_lists_and_types_paper_results_R_EVT_14(tmp_path: Path) -> None:
    folder = _club(tmp_path)
    paired = _ok("event", "pair", str(folder))
    state = EventStore.open(folder).state()
    unlisted = {p.id for p in state.players() if p.deck is None}
    assert unlisted == {"ada", "cy"}
    for pairing in state.rounds[0].round.pairings:
        named = f"round 1 table {pairing.table}: "
        if {pairing.a, pairing.b} & unlisted:
            assert f"note: {named}" in paired and "registered without a deck list" in paired
        else:
            assert f"note: {named}" not in paired
        _ok("event", "result", str(folder), "--round", "1", "--table", str(pairing.table), "2-1")
    standings = _ok("event", "standings", str(folder), "--format", "csv")
    decks = {line.split(",")[1]: line.split(",")[3] for line in standings.splitlines()[1:]}
    assert decks == {"ada": "(no list)", "cy": "(no list)", "bo": "vanguard", "di": "vanguard"}
    verdict = verify_event(folder)
    assert verdict.ok and verdict.decks == 2, verdict.problems
    db = tmp_path / "club.duckdb"
    _ok("ingest", str(folder), "--db", str(db), "-q")
    rows = duckdb.connect(str(db), read_only=True).execute("SELECT player_id, deck FROM entrants ORDER BY 1").fetchall()
    assert rows == [("ada", "(no list)"), ("bo", "vanguard"), ("cy", "(no list)"), ("di", "vanguard")]


def test_an_event_with_required_lists_refuses_a_player_without_one_R_EVT_14(tmp_path: Path) -> None:
    folder = tmp_path / "open"
    _ok("event", "new", str(folder), "--ruleset", "miras9")
    refused = runner.invoke(app, ["event", "register", str(folder), "--name", "Ada"])
    assert refused.exit_code == 2
    assert refused.stderr == ("error: Ada: this event's deck lists are required: give --deck FILE (see "
                              "docs/deck-lists.md), or make the event with --deck-lists optional\n")  # fmt: skip
    bot = runner.invoke(app, ["event", "register", str(_club(tmp_path)), "--name", "Robo", "--bot", "random"])
    assert bot.exit_code == 2 and "a bot plays its games through annals, which needs a deck list" in bot.stderr
    wrong = runner.invoke(app, ["event", "new", str(tmp_path / "x"), "--ruleset", "miras9", "--deck-lists", "maybe"])
    assert wrong.exit_code == 2 and "--deck-lists 'maybe': give required or optional" in wrong.stderr
    assert not (tmp_path / "x").exists()


def test_a_game_through_annals_needs_both_lists_R_EVT_14(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _club(tmp_path)
    _ok("event", "pair", str(folder))
    state = EventStore.open(folder).state()
    unlisted = {p.id for p in state.players() if p.deck is None}
    tables = {p.table: bool({p.a, p.b} & unlisted) for p in state.rounds[0].round.pairings}
    ran = runner.invoke(app, ["event", "run", str(folder), "-q"])
    assert ran.exit_code == 1 and "registered without a deck list, and a game played through annals needs one" in (
        ran.stderr
    )
    monkeypatch.setenv("ANNALS_ORGANISER_TOKEN", ORGANISER)
    with server(tmp_path / "data", "--event", str(folder)) as running:
        status, view = call(running, "/api/desk")
    assert status == 200
    for row in view["tables"]:
        if tables[row["table"]]:  # on paper from the start, and the desk says why
            assert row["state"] == "paper" and "registered without a deck list" in row["error"], row
        else:
            assert row["state"] != "paper" and "error" not in row, row
