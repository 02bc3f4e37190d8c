"""Between a judge's backup and ``annals resume`` the log has no closing record; ``show``, ``verify`` and
``position`` still read it, as the game at the cut, marked "backup pending" (the judge shows the players the
restored position). A log cut short any other way is still refused."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.judge import backup, resume
from annals.engine.registry import get_ruleset
from annals.engine.replay import fold
from annals.engine.runner import play
from annals.engine.simulate import bots_for, make_header
from annals.schemas.errors import TruncatedLogError
from annals.schemas.logfile import BACKUP_PENDING, read_log

runner = CliRunner()
MORANA = get_ruleset("morana")
CUT = 14


@pytest.fixture
def backed_up(tmp_path: Path) -> Path:
    """A MORANA game recorded live, backed up by a judge to decision 14."""
    header = make_header(MORANA, 3, ["clash", "glory"], ["random", "random"])
    path = tmp_path / "game.log"
    play(MORANA, header, bots_for(MORANA, header), path, live=True)
    backup(path, CUT, "R. Vance", reason="drew an extra card")
    return path


def test_read_log_gives_the_game_at_the_cut_only_when_asked(backed_up: Path) -> None:
    with pytest.raises(TruncatedLogError, match="no closing record"):
        read_log(backed_up)
    game = read_log(backed_up, backup_pending=True)
    assert game.backup_pending is not None and game.backup_pending.to_decision == CUT
    assert len(game.decisions) == CUT and len(game.events) == game.backup_pending.events
    assert game.result == (-1, BACKUP_PENDING)


def test_show_verify_and_position_work_on_a_log_with_a_backup_pending(backed_up: Path) -> None:
    marked = f"backup pending: position at decision {CUT}"
    shown = runner.invoke(app, ["show", str(backed_up), "--numbered"])
    assert shown.exit_code == 0, shown.output
    assert shown.output.splitlines()[-1].startswith(marked)
    assert f"?{CUT - 1} " in shown.output and f"?{CUT} " not in shown.output
    verified = runner.invoke(app, ["verify", str(backed_up)])
    assert verified.exit_code == 0, verified.output
    assert f"{marked} " in verified.output and f"annals resume {backed_up}" in verified.output
    assert "result by judge's decision" not in verified.output
    position = runner.invoke(app, ["position", str(backed_up), "--format", "json"])
    assert position.exit_code == 0, position.output
    game = read_log(backed_up, backup_pending=True)
    state = fold(game)
    assert f'"events_applied": {len(game.events)}' in position.output and f'"turn": {state.turn}' in position.output
    assert marked in position.stderr
    board = runner.invoke(app, ["position", str(backed_up)])
    assert board.exit_code == 0 and marked in board.output


def test_once_resumed_the_log_is_no_longer_marked(backed_up: Path) -> None:
    resume(backed_up, bots_for(MORANA, read_log(backed_up, backup_pending=True).header))
    game = read_log(backed_up, backup_pending=True)
    assert game.backup_pending is None and game.close.end_reason != BACKUP_PENDING
    assert "backup pending" not in runner.invoke(app, ["show", str(backed_up)]).output


def test_a_log_cut_short_without_a_backup_is_still_refused(tmp_path: Path) -> None:
    header = make_header(MORANA, 4, ["clash", "glory"], ["random", "random"])
    path = tmp_path / "game.log"
    play(MORANA, header, bots_for(MORANA, header), path, live=True)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) * 2 // 3])
    with pytest.raises(TruncatedLogError):
        read_log(path, backup_pending=True)
    shown = runner.invoke(app, ["show", str(path)])
    assert shown.exit_code == 1 and "log is truncated" in shown.output


def test_a_torn_log_says_where_to_cut_it_and_plays_on_once_cut(tmp_path: Path) -> None:
    """A crash mid-write tears the last frame: 'annals resume' refused it without saying how to go on."""
    header = make_header(MORANA, 4, ["clash", "glory"], ["random", "random"])
    path = tmp_path / "game.log"
    play(MORANA, header, bots_for(MORANA, header), path, live=True)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) * 2 // 3])
    refused = runner.invoke(app, ["resume", str(path), "--players", "random,random"])
    assert refused.exit_code == 1 and "Traceback" not in refused.output
    hint = re.search(r"cut the torn tail first: truncate -s (\d+) (\S+)$", refused.stderr.strip())
    assert hint is not None and hint.group(2) == str(path), refused.stderr
    with path.open("r+b") as f:
        f.truncate(int(hint.group(1)))
    resumed = runner.invoke(app, ["resume", str(path), "--players", "random,random"])
    assert resumed.exit_code == 0, resumed.output
    assert read_log(path).close is not None
