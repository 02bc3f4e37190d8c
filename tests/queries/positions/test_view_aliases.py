"""``p0``/``p1`` name the players' views on the command line, as they name the players everywhere else (``player0``
and ``player1`` still do); an unknown view is a usage error naming both spellings. (The board in words:
``tests/queries/pictures/test_board_words.py``.)"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from annals.cli.main import app
from annals.ingest.flatten import collect

runner = CliRunner()


def test_p0_and_p1_name_the_players_views(real_logs: Path) -> None:
    log = collect([real_logs / "morana"])[0]
    by_alias = runner.invoke(app, ["position", str(log), "--at", "turn:3", "--view", "p1"], env={"COLUMNS": "200"})
    by_name = runner.invoke(app, ["position", str(log), "--at", "turn:3", "--view", "player1"], env={"COLUMNS": "200"})
    assert by_alias.exit_code == 0 and by_alias.stdout == by_name.stdout
    assert "hidden card" in by_alias.stdout  # the view of p1, not every card
    wrong = runner.invoke(app, ["position", str(log), "--view", "p2"])
    assert wrong.exit_code == 2 and "unknown view 'p2'" in wrong.stderr
