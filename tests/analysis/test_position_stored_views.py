"""Every view of a game whose log is gone, from the log rebuilt from the database (``queries.gamelog.game_log`` over
``queries.storedlog``): ``annals position GAME_ID --db`` and ``annals view GAME_ID --db`` print exactly what they
print from the original log, a player's view holding nothing that player may not see; a game the database cannot
give back (here: one continued from a position) is refused by name for anything but the omniscient board."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.ingest.flatten import collect
from annals.ingest.loader import ingest
from annals.queries.positions import Timeline

runner = CliRunner()

VIEWS = ("player0", "player1", "spectator", "omniscient")


class Gone:
    """A database of one Miras 9 game, one MORANA game and one game continued from the Miras 9 game, their logs
    moved away after ingest (``now``: where each log is now, by game id)."""

    def __init__(self, db: Path, now: dict[str, Path], continued: str):
        self.db, self.now, self.continued = db, now, continued

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
    db = root / "annals.duckdb"
    assert ingest([logs], db, workers=1).games_added == 3
    ids = {Path(path).name: Timeline.from_file(path).header.game_id for path in collect([logs])}
    shutil.move(logs, root / "elsewhere")
    now = {gid: root / "elsewhere" / name for name, gid in ids.items()}
    return Gone(db, now, ids[branch.name])


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
