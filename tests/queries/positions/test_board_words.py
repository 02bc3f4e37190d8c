"""``annals position``'s terminal board (and the demo's closing board) in words: the players by name, each card by
its printed name with its instance number (how a note or a judge tells two copies apart), places as the rules call
them ("Exterior lane" [M9-025], "Warden slot"), counters as words; no card id, raw zone name, ``p0``/``p1`` column or
``key=value`` reaches the reader. ``p0``/``p1`` name the players' views as everywhere else."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.registry import get_ruleset
from annals.ingest.flatten import collect
from annals.schemas.logfile import read_log

runner = CliRunner()
RAW = [re.compile(r"\b(lane|site):\d"), re.compile(r"\w=\d"), re.compile(r"[│┃] p[01] +[│┃]"), re.compile(r"\bp\d\b")]


@pytest.mark.parametrize("ruleset", ["miras9", "morana"])
def test_the_board_speaks_names_and_places(real_logs: Path, ruleset: str) -> None:
    log = collect([real_logs / ruleset])[0]
    header = read_log(log).header
    shown = runner.invoke(app, ["position", str(log), "--at", "turn:3"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    text = shown.stdout
    card_ids = set(get_ruleset(ruleset).cards())
    leaked = [w for w in re.findall(r"\b[a-z]+(?:-[a-z0-9]+)+\b", text) if w in card_ids]
    assert not leaked, leaked
    assert not [p.pattern for p in RAW if p.search(text)], text
    assert all(p.name in text for p in header.players)
    names = {c.name for c in get_ruleset(ruleset).cards().values()}
    assert re.search(r"(" + "|".join(map(re.escape, names)) + r") #\d{4}", text), text
    place = "Exterior" if ruleset == "miras9" else "Warden slot"
    assert place in text


def test_p0_and_p1_name_the_players_views(real_logs: Path) -> None:
    log = collect([real_logs / "morana"])[0]
    by_alias = runner.invoke(app, ["position", str(log), "--at", "turn:3", "--view", "p1"], env={"COLUMNS": "200"})
    by_name = runner.invoke(app, ["position", str(log), "--at", "turn:3", "--view", "player1"], env={"COLUMNS": "200"})
    assert by_alias.exit_code == 0 and by_alias.stdout == by_name.stdout
    assert "hidden from this view" in by_alias.stdout
    wrong = runner.invoke(app, ["position", str(log), "--view", "p2"])
    assert wrong.exit_code == 2 and "unknown view 'p2'" in wrong.stderr
