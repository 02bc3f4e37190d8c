"""Every view of a game whose log is gone, from the log rebuilt from the database (``queries.positions.gamelog`` over
``queries.positions.storedlog``): ``annals position GAME_ID --db``, ``annals view GAME_ID --db`` and ``annals show
GAME_ID --db`` print what they print from the original log, a player's view holding nothing that player may not see, and
``annals export --view spectator`` exports the same public events; a game the database cannot give back (here: one
continued from a position) is refused by name for anything but the omniscient board."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import duckdb
import polars as pl
import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.ingest.flatten import collect
from annals.ingest.loader import ingest
from annals.queries.positions.timeline import Timeline

runner = CliRunner()

VIEWS = ("player0", "player1", "spectator", "omniscient")


class Gone:
    """A database of one Miras 9 game, one MORANA game and one game continued from the Miras 9 game, and one of the
    first two only (``played_db``), their logs moved away after ingest (``now``: where each log is now, by id)."""

    def __init__(self, db: Path, played_db: Path, now: dict[str, Path], continued: str):
        self.db, self.played_db, self.now, self.continued = db, played_db, now, continued

    def by_id(self, gid: str, *args: str) -> list[str]:
        return [gid, "--db", str(self.db), *args]


@pytest.fixture(scope="module")
def gone(real_logs: Path, tmp_path_factory: pytest.TempPathFactory) -> Gone:
    root = tmp_path_factory.mktemp("gone")
    logs = root / "logs"
    logs.mkdir()
    for ruleset in ("miras9", "morana"):
        shutil.copy(collect([real_logs / ruleset])[0], logs)
    miras9 = next(path for path in collect([logs]) if Path(path).name.startswith("miras9"))
    saved, branch = root / "turn3.json", logs / "continued.log"
    assert runner.invoke(app, ["position", miras9, "--at", "turn:3", "--save", str(saved)]).exit_code == 0
    result = runner.invoke(app, ["continue", str(saved), "--out", str(branch), "--max-turns", "6"])
    assert result.exit_code == 0, result.output
    played_db = root / "played.duckdb"
    fresh = [path for path in collect([logs]) if Path(path).name != branch.name]
    assert ingest(fresh, played_db, workers=1).games_added == 2
    db = root / "annals.duckdb"
    assert ingest([logs], db, workers=1).games_added == 3
    ids = {Path(path).name: Timeline.from_file(path).header.game_id for path in collect([logs])}
    shutil.move(logs, root / "elsewhere")
    now = {gid: root / "elsewhere" / name for name, gid in ids.items()}
    return Gone(db, played_db, now, ids[branch.name])


def played(gone: Gone) -> list[Timeline]:
    """The two games the database can rebuild, read from where their logs are now."""
    return [Timeline.from_file(path) for gid, path in gone.now.items() if gid != gone.continued]


def show(args: list[str], *, rebuilt: bool) -> str:
    """``annals position ARGS``'s stdout, checked to say (only) when the game was rebuilt from the database."""
    result = runner.invoke(app, ["position", *args])
    assert result.exit_code == 0, result.output
    assert ("rebuilt from the database" in result.stderr) == rebuilt, result.stderr
    return result.stdout


def test_every_view_by_game_id_is_the_logs(gone: Gone) -> None:
    """Each view's JSON, the terminal board and the SVG by game id, with the log gone, are byte for byte what the
    original log gives; the note names the missing log and the database."""
    for t in played(gone):
        gid, log = t.header.game_id, str(gone.now[t.header.game_id])
        for view in VIEWS:
            for at in ("turn:3", "end"):
                args = ["--at", at, "--view", view, "--format", "json"]
                assert show(gone.by_id(gid, *args), rebuilt=True) == show([log, *args], rebuilt=False), (gid, view, at)
        args = ["--at", "turn:4", "--view", "player1"]
        assert show(gone.by_id(gid, *args), rebuilt=True) == show([log, *args], rebuilt=False)
        args = ["--at", "turn:2", "--view", "player0", "--format", "svg"]
        svg = show(gone.by_id(gid, *args), rebuilt=True)
        assert svg.startswith("<svg") and svg == show([log, *args], rebuilt=False)
        result = runner.invoke(app, ["position", *gone.by_id(gid, "--view", "spectator")])
        assert f"the log at {gone.db.parent / 'logs'}" in result.stderr and str(gone.db) in result.stderr


def test_a_miras9_hand_stays_hidden_in_the_rebuilt_view(gone: Gone) -> None:
    """[M9-011] A player may not inspect the opponent's hidden cards: in player0's view by game id (from the
    rebuilt log) no card of player 1's Hand is named, though player 1's own view names every one."""
    t = next(t for t in played(gone) if t.header.ruleset == "miras9")
    gid = t.header.game_id
    for at in ("turn:2", "turn:5"):
        omniscient = json.loads(show(gone.by_id(gid, "--at", at, "--format", "json"), rebuilt=True))
        hand = omniscient["zones"]["hand"]["p1"]
        assert hand, at
        mine = show(gone.by_id(gid, "--at", at, "--view", "player1", "--format", "json"), rebuilt=True)
        theirs = show(gone.by_id(gid, "--at", at, "--view", "player0", "--format", "json"), rebuilt=True)
        for card in hand:
            assert f'"{card}"' in mine and f'"{card}"' not in theirs, (at, card)
        shown = json.loads(theirs)
        assert "p1" not in shown["zones"].get("hand", {}) and shown["hidden"] >= len(hand)


def test_a_morana_commit_is_secret_until_dusk_in_the_rebuilt_view(gone: Gone) -> None:
    """[MOR-15] Spirits and Charms are committed secretly, face-down; [MOR-16] at Dusk both players flip everything
    at once. In player0's view by game id each card player 1 committed from hand is unnamed from its Commit to the
    event before the turn's flip, and named once it is flipped; player 1's own view names it all along."""
    t = next(t for t in played(gone) if t.header.ruleset == "morana")
    gid = t.header.game_id
    commits = [e for e in t.events if type(e).__name__ == "Committed" and e.player == 1 and e.src == "hand"][:2]
    assert commits
    for e in commits:
        flip = next(f for f in t.events[e.n :] if type(f).__name__ == "Flipped")
        assert e.card in flip.cards
        name = f'#{e.card}"'
        for at in (f"event:{e.n}", f"event:{flip.n - 1}"):
            mine = show(gone.by_id(gid, "--at", at, "--view", "player1", "--format", "json"), rebuilt=True)
            theirs = show(gone.by_id(gid, "--at", at, "--view", "player0", "--format", "json"), rebuilt=True)
            assert name in mine and name not in theirs, (at, e)
        revealed = show(gone.by_id(gid, "--at", f"event:{flip.n}", "--view", "player0", "-f", "json"), rebuilt=True)
        assert name in revealed, e


def test_the_viewer_page_by_game_id_is_the_logs(gone: Gone, tmp_path: Path) -> None:
    """``annals view GAME_ID`` with the log gone writes the very page the log gives, for a player's view."""
    for t in played(gone):
        gid = t.header.game_id
        rebuilt, original = tmp_path / f"{gid}-db.html", tmp_path / f"{gid}-log.html"
        by_id = runner.invoke(app, ["view", *gone.by_id(gid, "--view", "player1", "--output", str(rebuilt))])
        assert by_id.exit_code == 0 and "rebuilt from the database" in by_id.stderr, by_id.output
        from_log = runner.invoke(app, ["view", str(gone.now[gid]), "--view", "player1", "--output", str(original)])
        assert from_log.exit_code == 0 and not from_log.stderr
        assert rebuilt.read_bytes() == original.read_bytes()


def test_a_game_the_database_cannot_rebuild_is_refused_by_name(gone: Gone, tmp_path: Path) -> None:
    """A continued game (its start position is not stored): a player's or spectator's view, the SVG and the viewer
    page are refused in one line naming the log, stored_log's reason and the fix; the omniscient board still comes
    from the position() macro."""
    gid = gone.continued
    page = tmp_path / "page.html"
    for command in (
        ["position", *gone.by_id(gid, "--view", "player0", "--format", "json")],
        ["position", *gone.by_id(gid, "--view", "spectator")],
        ["position", *gone.by_id(gid, "--format", "svg")],
        ["view", *gone.by_id(gid, "--view", "player1", "--output", str(page))],
    ):
        result = runner.invoke(app, command)
        assert result.exit_code == 1 and not result.stdout, command
        assert result.stderr.startswith(f"error: the log of game {gid!r} is not at "), result.stderr
        assert "Traceback" not in result.stderr
        assert len(result.stderr.splitlines()) == 1, result.stderr
        assert "cannot rebuild it: it was continued from a position of game " in result.stderr
        assert result.stderr.rstrip().endswith("pass the log's path instead of the game id")
    assert not page.exists()
    result = runner.invoke(app, ["position", *gone.by_id(gid, "--format", "json")])
    assert result.exit_code == 0 and json.loads(result.stdout)["view"] == "omniscient"
    assert "the position() macro" in result.stderr and "continued from a position" in result.stderr


def test_wrong_arguments_by_game_id_are_usage_errors(gone: Gone, tmp_path: Path) -> None:
    """An unknown view, format or coordinate is exit 2 with one line, before or after the rebuild alike."""
    gid = next(iter(t.header.game_id for t in played(gone)))
    for command in (
        ["position", *gone.by_id(gid, "--view", "judge")],
        ["position", *gone.by_id(gone.continued, "--view", "judge")],
        ["position", *gone.by_id(gid, "--format", "png")],
        ["position", *gone.by_id(gid, "--at", "turn:x")],
        ["view", *gone.by_id(gid, "--view", "judge", "--output", str(tmp_path / "p.html"))],
    ):
        result = runner.invoke(app, command)
        assert result.exit_code == 2, (command, result.output)
        assert result.stderr.startswith("error: ") and len(result.stderr.splitlines()) == 1, result.stderr


def test_show_by_game_id_is_the_logs(gone: Gone) -> None:
    """``annals show GAME_ID`` with the log gone prints, in every view and both formats, every event and decision
    line the log gives. What differs is said here: the digest (the rebuilt log was never a file) and, for a
    Miras 9 game, the header's tournament ``first_player`` (the database keeps the seat that played first, not
    whether the header chose it or left it to the draw: the re-run is the same game either way [M9-022])."""
    for t in played(gone):
        gid, log = t.header.game_id, str(gone.now[t.header.game_id])
        for view in VIEWS:
            for fmt in ("records", "json"):
                args = ["--view", view, "--format", fmt, "--numbered"]
                by_id = runner.invoke(app, ["show", *gone.by_id(gid, *args)])
                assert by_id.exit_code == 0 and "rebuilt from the database" in by_id.stderr, by_id.output
                from_log = runner.invoke(app, ["show", log, *args])
                assert from_log.exit_code == 0 and not from_log.stderr
                rebuilt, original = by_id.stdout.splitlines(), from_log.stdout.splitlines()
                assert len(rebuilt) == len(original) > len(t.events)
                differ = [(a, b) for a, b in zip(rebuilt, original, strict=True) if a != b]
                if fmt == "records":
                    said = ["digest:", *(["tournament:"] if t.header.ruleset == "miras9" else [])]
                    assert sorted(a.split()[0] for a, _ in differ) == sorted(said), (gid, view, differ)
                else:
                    for a, b in differ:
                        mine, theirs = json.loads(a), json.loads(b)
                        assert mine["record"] == theirs["record"] in ("header", "result"), (a, b)
                        if mine["record"] == "header":
                            assert t.header.ruleset == "miras9" and mine["tournament"]["first_player"] >= 0
                            mine["tournament"]["first_player"] = -1
                        mine.pop("digest", None), theirs.pop("digest", None)
                        assert mine == theirs


def test_show_takes_a_game_id_only_with_a_database(gone: Gone, tmp_path: Path) -> None:
    """A name that is no file is a game id when there is a database to look it up in; without one it is still the
    missing file it was (a usage error, exit 2); an unknown id is a usage error too, saying how to list the ids
    (exit 2); a refused game is named (exit 1, one line)."""
    gid = played(gone)[0].header.game_id
    nothing = runner.invoke(app, ["show", gid])  # ANNALS_HOME holds no database in the tests
    assert nothing.exit_code == 2 and nothing.stderr == f"error: no such file or folder: {gid}; check the path\n"
    unknown = runner.invoke(app, ["show", "nosuchgame", "--db", str(gone.db)])  # typed, naming nothing: usage
    assert unknown.exit_code == 2 and "'nosuchgame' is neither a log file nor a game id" in unknown.stderr
    assert f'list the ids: annals sql "SELECT game_id, ruleset, file FROM games" --db {gone.db}' in unknown.stderr
    refused = runner.invoke(app, ["show", *gone.by_id(gone.continued)])
    assert refused.exit_code == 1 and len(refused.stderr.splitlines()) == 1 and not refused.stdout
    assert "continued from a position" in refused.stderr
    bad = runner.invoke(app, ["show", *gone.by_id(gid, "--view", "judge")])
    assert bad.exit_code == 2 and "unknown view 'judge'" in bad.stderr


def test_the_spectator_export_rebuilds_gone_logs(gone: Gone, tmp_path: Path) -> None:
    """[MOR-15] [M9-011] ``export --view spectator`` with the logs gone exports the very public (redacted) events it
    exports with the logs at hand, listing the rebuilt games in its manifest; a game the database cannot rebuild
    stops it by name."""
    present = tmp_path / "present.duckdb"
    shutil.copy(gone.played_db, present)
    con = duckdb.connect(str(present))
    for gid, path in gone.now.items():
        con.execute("UPDATE games SET file = ? WHERE game_id = ?", [str(path), gid])
    con.close()
    manifests, events = [], []
    for db in (gone.played_db, present):
        folder = tmp_path / db.stem
        done = runner.invoke(app, ["export", str(folder), "--view", "spectator", "--db", str(db)])
        assert done.exit_code == 0, done.output
        assert ("rebuilt from the database" in done.stderr) == (db == gone.played_db), done.stderr
        manifests.append(json.loads((folder / "manifest.json").read_text()))
        frame = pl.scan_parquet(str(folder / "public_events" / "**" / "*.parquet"), hive_partitioning=True)
        events.append(frame.collect().sort("game", "n"))
    rebuilt, at_hand = manifests
    assert sorted(rebuilt.pop("rebuilt_from_database")) == sorted(t.header.game_id for t in played(gone))
    assert "rebuilt_from_database" not in at_hand
    assert rebuilt["tables"]["public_events"] == at_hand["tables"]["public_events"]
    assert events[0].equals(events[1]) and events[0].height == sum(len(t.events) for t in played(gone))
    assert "Committed" not in set(events[0]["kind"])  # sealed commits are Sealed to a spectator [MOR-15]
    refused = runner.invoke(app, ["export", str(tmp_path / "all"), "--view", "spectator", "--db", str(gone.db)])
    assert refused.exit_code == 1 and len(refused.stderr.splitlines()) == 1
    assert f"the log of game {gone.continued!r} is not at " in refused.stderr
    assert refused.stderr.rstrip().endswith(
        "put the log back where it was ingested from (the database keeps that path)"
    )
