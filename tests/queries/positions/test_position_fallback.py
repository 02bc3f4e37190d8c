"""``annals position GAME_ID`` when the log the game was ingested from is gone: the log is rebuilt from the stored
decisions (``queries.positions.storedlog``, every event checked against the stored one; every view from it is in
``test_position_stored_views``), and ``--save`` from it, as from the log, saves only at a stop. A game the database
cannot rebuild (here: a stored decision changed) still gets its omniscient board from the database's ``position()``
macro, saying so; a player's view is refused with a ``LogGoneError`` naming where the log was expected, why the
database cannot give it back, and what to pass instead."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.words import Words
from annals.ingest.flatten import collect
from annals.ingest.loader import ingest
from annals.queries.pictures.board import board, stored_board
from annals.queries.positions.files import position_file
from annals.queries.positions.timeline import CoordinateError, StoredGame, Timeline

runner = CliRunner()


@pytest.fixture
def moved(real_logs: Path, tmp_path: Path) -> tuple[Path, list[Timeline], Path]:
    """A database of one Miras 9 and one MORANA game whose logs were moved away after ingest."""
    logs = tmp_path / "logs"
    logs.mkdir()
    for ruleset in ("miras9", "morana"):
        shutil.copy(collect([real_logs / ruleset])[0], logs)
    db = tmp_path / "annals.duckdb"
    assert ingest([logs], db, workers=1).games_added == 2
    timelines = [Timeline.from_file(p) for p in collect([logs])]
    shutil.move(logs, tmp_path / "elsewhere")
    return db, timelines, logs


def unreplayable(db: Path, gid: str) -> None:
    """Change game ``gid``'s first stored decision of more than one option: the re-run no longer gives its stored
    events back (its events, and so the ``position()`` macro, are untouched)."""
    con = duckdb.connect(str(db))
    con.execute(
        "UPDATE decisions SET chosen = (chosen + 1) % n_offered WHERE n_offered > 1 AND "
        "game = (SELECT game FROM games WHERE game_id = ?) AND n = (SELECT min(n) FROM decisions WHERE n_offered > 1 "
        "AND game = (SELECT game FROM games WHERE game_id = ?))",
        [gid, gid],
    )
    con.close()


def test_a_moved_log_falls_back_to_the_database(moved: tuple[Path, list[Timeline], Path]) -> None:
    db, timelines, logs = moved
    for t in timelines:
        gid = t.header.game_id
        unreplayable(db, gid)
        for at in ("start", "event:40", "turn:2", "end"):
            result = runner.invoke(app, ["position", gid, "--db", str(db), "--at", at, "--format", "json"])
            assert result.exit_code == 0, result.output
            shown = json.loads(result.stdout)
            count = t.resolve(at)
            from_log = board(t, count, "omniscient", at)
            assert (shown["zones"], shown["counters"]) == (from_log.zones, from_log.counters), (gid, at)
            assert shown["events_applied"] == count and shown["view"] == "omniscient"
            if count:
                last = t.events[count - 1]
                assert (shown["turn"], shown["step"]) == (last.turn, last.step)
            assert shown["over"] == (at == "end") and shown["winner"] == (t.final.winner if at == "end" else -1)
            note = result.stderr
            assert "was not found" in note and str(logs) in note and "from the database" in note
            assert "cannot rebuild the game" in note and "the position() macro" in note
        table = runner.invoke(app, ["position", gid, "--db", str(db), "--at", "turn:6"])
        assert table.exit_code == 0 and "every card shown" in table.stdout
        counters = board(t, t.resolve("turn:6"), "omniscient").counters  # each said beside its card or player
        assert counters and all(Words.state(k.rpartition(":")[2], v) in table.stdout for k, v in counters.items())


def test_what_needs_the_log_is_refused_saying_where(moved: tuple[Path, list[Timeline], Path], tmp_path: Path) -> None:
    db, timelines, logs = moved
    gid = timelines[0].header.game_id
    unreplayable(db, gid)
    for extra in (["--view", "player0"], ["--view", "player1", "--format", "json"], ["--format", "svg"]):
        result = runner.invoke(app, ["position", gid, "--db", str(db), *extra])
        assert result.exit_code == 1
        assert result.stderr.startswith(f"error: the log of game {gid!r} is not at ")
        assert len(result.stderr.splitlines()) == 1 and not result.stdout
        assert str(logs) in result.stderr and "the database cannot rebuild it: " in result.stderr
        assert "in the database, but the re-run" in result.stderr
        assert result.stderr.rstrip().endswith("pass the log's path instead of the game id")
    assert not (tmp_path / "pos.json").exists()
    bad = runner.invoke(app, ["position", gid, "--db", str(db), "--view", "judge"])
    assert bad.exit_code == 2 and "unknown view 'judge'" in bad.stderr


def test_save_by_game_id_rebuilds_the_log_and_keeps_to_the_stops(
    moved: tuple[Path, list[Timeline], Path], tmp_path: Path
) -> None:
    """With the log gone, ``--save`` writes the very file the log would have given (the game re-run from its stored
    decisions), at a stop only: inside one action of the rules (a Miras 9 card played, its cost not paid [M9-039];
    MORANA's cards flipped, Dusk under way [MOR-16]) it is refused naming the stops, as from the log (issue 13)."""
    db, timelines, _ = moved
    for t in timelines:
        gid = t.header.game_id
        saved = tmp_path / f"{gid}.json"
        result = runner.invoke(app, ["position", gid, "--db", str(db), "--at", "turn:3", "--save", str(saved)])
        assert result.exit_code == 0, result.stderr
        assert "rebuilt from the database" in result.stderr
        assert saved.read_bytes() == position_file(t, t.resolve("turn:3"), "turn:3")
        inside = "CardPlayed:1" if t.header.ruleset == "miras9" else "flip:1"
        mid = tmp_path / "mid.json"
        refused = runner.invoke(app, ["position", gid, "--db", str(db), "--at", inside, "--save", str(mid)])
        assert refused.exit_code == 1 and not mid.exists()
        assert "inside one action of the rules" in refused.stderr and "(before it)" in refused.stderr


def test_a_stored_game_that_does_not_replay_is_refused_by_name(
    moved: tuple[Path, list[Timeline], Path], tmp_path: Path
) -> None:
    """A stored decision changed (the database no longer the game's): the re-run does not give the stored events
    back, and ``--save`` is refused naming the game and what to pass, never saving another game's position."""
    db, timelines, _ = moved
    gid = timelines[0].header.game_id
    unreplayable(db, gid)
    saved = tmp_path / "pos.json"
    result = runner.invoke(app, ["position", gid, "--db", str(db), "--at", "end", "--save", str(saved)])
    assert result.exit_code == 1 and not saved.exists()
    assert result.stderr.startswith(f"error: the log of game {gid!r} is not at ")
    assert (
        "cannot rebuild it: " in result.stderr
        and "but the re-run" in result.stderr
        and "pass the log's path" in result.stderr
    )


def test_stored_coordinates_resolve_as_the_log_does(real_db: Path, real_logs: Path) -> None:
    """Every kind of coordinate, from the stored turns, steps and kinds, names the same event as from the log."""
    con = duckdb.connect(str(real_db), read_only=True)
    for path in collect([real_logs]):
        t = Timeline.from_file(path)
        game = StoredGame(con, t.header.game_id)
        kinds = sorted({type(e).__name__ for e in t.events})
        turn = t.events[-1].turn // 2
        step = next(e.step for e in t.events if e.turn == turn)
        aliases = ("damage", "flip", "site")
        coordinates = ["start", "end", "event:0", f"event:{len(t.events) - 1}", f"turn:{turn}", f"turn:{turn}/{step}",
                       f"step:{step}", *(f"{k}:1" for k in kinds), *(f"{a}:1" for a in aliases)]  # fmt: skip
        for at in coordinates:
            try:
                expected = t.resolve(at)
            except CoordinateError as exc:  # an alias of the other game: refused alike
                with pytest.raises(CoordinateError) as stored:
                    game.resolve(at)
                assert str(stored.value) == str(exc) and f"unknown coordinate kind {at[:-2]!r}" in str(exc)
                continue
            assert game.resolve(at) == expected, (path, at)
            assert stored_board(game, expected, at).zones == board(t, expected, "omniscient", at).zones
