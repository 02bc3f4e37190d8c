"""A club organiser's evening at the terminal (``annals event`` through the real command line, real files): what a
correction after the next round is paired says, renaming a typo, players who share a name, the event's name."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from annals.cli.main import app

runner = CliRunner()


def ok(*args: str) -> str:
    done = runner.invoke(app, list(args))
    assert done.exit_code == 0, done.output
    return done.stdout


def club(tmp_path: Path, players: dict[str, str], rounds: int = 3) -> Path:
    folder, deck = tmp_path / "club", tmp_path / "v.txt"
    ok("event", "new", str(folder), "--ruleset", "miras9", "--rounds", str(rounds), "--seed", "5")
    ok("deck", "miras9", "vanguard", "--output", str(deck))
    for pid, name in players.items():
        ok("event", "register", str(folder), "--id", pid, "--name", name, "--deck", str(deck))
    return folder


def standings(folder: Path) -> dict[str, tuple[int, int]]:
    rows = json.loads(ok("event", "standings", str(folder), "--format", "json"))
    return {str(r["name"]): (int(r["points"]), int(r["rank"])) for r in rows}


def pairings(folder: Path, number: int) -> list[dict[str, object]]:
    return list(json.loads(ok("event", "pairings", str(folder), "--round", str(number), "--format", "json")))


FIVE = {"ada": "Ada Núñez", "bo": "Bo Chen", "cy": "Cy Young", "di": "Di Prima", "ed": "Ed Norton"}


def test_a_correction_after_the_next_round_is_paired_says_who_moved_and_which_rounds_stand(tmp_path: Path) -> None:
    """R-EVT-11: correcting round 1 once round 2 is paired changes the standings at once; the command names every
    player whose points or rank moved (as the standings then show them), says round 2 may be paired again while it
    has not started, and, once it has a result, that it stands and is not re-paired."""
    folder = club(tmp_path, FIVE)
    ok("event", "pair", str(folder))
    played = [r for r in pairings(folder, 1) if r["opponent"] != "(bye)"]
    for r in played:
        ok("event", "result", str(folder), "--round", "1", "--table", str(r["table"]), "2-0")
    ok("event", "pair", str(folder))
    before = standings(folder)
    table = str(played[0]["table"])
    said = ok("event", "correct", str(folder), "--round", "1", "--table", table, "0-2", "--judge", "Org",
              "--reason", "slip reversed")  # fmt: skip
    after = standings(folder)
    moved = {name for name in after if after[name] != before[name]}
    assert len(moved) >= 2  # the two players of the corrected match swap 3 and 0 points
    for name in moved:
        (p0, r0), (p1, r1) = before[name], after[name]
        points = f"{p0} -> {p1} points" if p0 != p1 else f"{p1} point{'s' * (p1 != 1)}"
        assert f"standings: {name}: {points}" in said, said
        assert (f"rank {r0} -> {r1}" if r0 != r1 else f"still rank {r1}") in said
    for name in set(after) - moved:
        assert f"standings: {name}:" not in said
    assert "round 2 was paired on the standings before this correction and has not started" in said
    assert f"annals event pair {folder} --again" in said

    second = pairings(folder, 2)
    ok("event", "result", str(folder), "--round", "2", "--table", str(second[0]["table"]), "2-1")
    said = ok("event", "correct", str(folder), "--round", "1", "--table", table, "2-0", "--judge", "Org",
              "--reason", "it was right the first time")  # fmt: skip
    assert "round 2 was paired on the standings before this correction and stands (it has results): annals does " \
           "not re-pair it" in said  # fmt: skip
    assert "round 3 will be paired on the corrected standings" in said
    assert "--again" not in said
    assert [(r["player"], r["opponent"]) for r in pairings(folder, 2)] == [(r["player"], r["opponent"]) for r in second]

    said = ok("event", "correct", str(folder), "--round", "1", "--table", table, "2-0", "--judge", "Org",
              "--reason", "the same again")  # fmt: skip
    assert "standings: no one's points, rank or tiebreakers changed" in said
