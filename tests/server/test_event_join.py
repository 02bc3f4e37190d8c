"""Two players of an event play their match from two terminals (tmux), each with nothing but the link the organiser
gave them (``annals join http://HOST:PORT/me?token=T``): every game of the match in turn, then the match's result,
which is in the event's record without anyone typing it [R-EVT-03] [R-EVT-12]."""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path
from typing import Any
from urllib.request import urlopen

import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from tests.eventkit import ORGANISER, desk
from tests.server.test_terminal import Tmux
from tests.serverkit import server

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux (.ci/run installs it)")
runner = CliRunner()
ANNALS = Path(sys.executable).parent / "annals"  # this checkout's, whatever else is on the PATH


def ok(*args: str) -> str:
    done = runner.invoke(app, list(args))
    assert done.exit_code == 0, done.output
    return done.stdout


def play_to_the_end(terminals: list[Tmux], timeout: float = 240) -> None:
    """Answer each open prompt as a person in a hurry does: the first option, yes to a final one."""
    sent = ["" for _ in terminals]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all("CLIENT-EXITED" in t.screen() for t in terminals):
            return
        for i, t in enumerate(terminals):
            screen, last = t.screen(), t.last_line().rstrip()
            if screen != sent[i] and (last == ">" or last.endswith("[y/N]")):
                t.keys("y" if last.endswith("[y/N]") else "1", "Enter")
                sent[i] = screen
        time.sleep(0.05)
    raise AssertionError("the match did not end:\n" + "\n----\n".join(t.screen()[-2000:] for t in terminals))


def test_two_players_play_their_match_from_their_links_and_the_result_lands_in_the_event(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "club"
    ok("event", "new", str(folder), "--ruleset", "morana", "--rounds", "1", "--seed", "3")
    for pid, name, deck in (("ana", "Ana Núñez", "clash"), ("bo", "Bo Chen", "glory")):
        ok("deck", "morana", deck, "--output", str(tmp_path / f"{deck}.txt"))
        ok("event", "register", str(folder), "--id", pid, "--name", name, "--deck", str(tmp_path / f"{deck}.txt"))
    ok("event", "pair", str(folder))
    monkeypatch.setenv("ANNALS_ORGANISER_TOKEN", ORGANISER)
    with server(tmp_path / "data", "--event", str(folder)) as running:
        links = {p["name"]: running.base + p["link"] for p in desk(running)["players"]}
        terminals = [Tmux(f"{ANNALS} join '{links[name]}'; echo CLIENT-EXITED; sleep 60") for name in links]
        try:
            play_to_the_end(terminals)
            screens = [t.screen() for t in terminals]
        finally:
            for t in terminals:
                t.close()
    row = json.loads(ok("event", "pairings", str(folder), "--round", "1", "--format", "json"))[0]
    score = str(row["result"])  # the record's: nobody typed it
    counts = [int(n) for n in score.split("-")]
    assert len(counts) in (2, 3) and sum(counts) >= 2, row
    wins_a, wins_b = counts[:2]
    said = (f"{row['player'] if wins_a > wins_b else row['opponent']} wins {score}" if wins_a != wins_b
            else f"drawn {score}")  # fmt: skip
    games = sum(counts)
    for name, screen in zip(links, screens, strict=True):
        for game in range(1, games + 1):
            assert f"round 1, table 1, game {game}: {name} against " in screen, screen[-3000:]
        assert f"round 1, table 1: your match is over: {said}" in screen, screen[-3000:]
    assert len(list((folder / "logs" / "round-01").glob("table-001-game-*.log"))) == games
    assert "ok:" in ok("event", "verify", str(folder))


def test_a_round_paired_and_a_late_entry_registered_at_the_terminal_reach_the_running_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The organiser's page has results typed and rounds paired at the terminal; with the server running, a round
    paired there stayed "waiting" on the desk with no table open, and a late entry had no link, until a restart."""
    folder = tmp_path / "club"
    ok("event", "new", str(folder), "--ruleset", "morana", "--rounds", "3", "--seed", "3")
    deck = tmp_path / "clash.txt"
    ok("deck", "morana", "clash", "--output", str(deck))
    for pid in ("ana", "bo"):
        ok("event", "register", str(folder), "--id", pid, "--name", pid.title(), "--deck", str(deck))
    ok("event", "pair", str(folder))
    monkeypatch.setenv("ANNALS_ORGANISER_TOKEN", ORGANISER)
    with server(tmp_path / "data", "--event", str(folder), "--paper", "1") as running:
        ok("event", "result", str(folder), "--round", "1", "--table", "1", "2-1")
        ok("event", "register", str(folder), "--id", "cy", "--name", "Cy Late", "--deck", str(deck))
        ok("event", "pair", str(folder))
        deadline = time.monotonic() + 30
        tables: dict[str, Any] = {}
        while time.monotonic() < deadline:
            links = {p["id"]: p["link"] for p in desk(running)["players"] if p["link"]}
            if "cy" in links:
                tables = {pid: json.loads(urlopen(running.base + "/api" + link).read()) for pid, link in links.items()}
                if sum(1 for me in tables.values() if me["table"]) == 2:
                    break
            time.sleep(0.2)
        else:
            raise AssertionError(f"round 2 did not open at the server: {desk(running)}")
    row = next(
        r for r in json.loads(ok("event", "pairings", str(folder), "--format", "json")) if r["opponent"] != "(bye)"
    )
    names = {"ana": "Ana", "bo": "Bo", "cy": "Cy Late"}
    seated = {names[pid] for pid, me in tables.items() if me["table"]}
    assert seated == {row["player"], row["opponent"]}
    assert all(me["round"] == 2 and me["match"] == "playing" for me in tables.values() if me["table"])
