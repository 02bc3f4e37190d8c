"""``annals review LOG``: the table, CSV and JSON of a game's review, notes beside the log, the log untouched."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from typer.testing import CliRunner

from annals.cli.main import app
from annals.queries.pictures.annotations import load_notes, notes_path
from annals.schemas.logfile import read_log
from tests.review.test_review import _played

runner = CliRunner()


def test_review_prints_csv_and_json_and_writes_notes_beside_the_log(tmp_path: Path) -> None:
    log = _played(tmp_path, 'decisions = ["p1 done", "p2 done"]')
    before = log.read_bytes()
    result = runner.invoke(app, ["review", str(log), "--seat", "0", "-f", "csv", "--iterations", "60", "--notes"])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert (
        rows[0]["verdict"] in ("mistake", "blunder")
        and rows[0]["made"] == "Seal the Commit"
        and "Bannik" in rows[0]["best"]
    )
    assert {row["seat"] for row in rows} == {"0"}
    notes = load_notes(log, read_log(log).header.game_id)
    assert notes and rows[0]["verdict"] in notes[0].text and notes[0].views == ["omniscient", "player0"]
    assert notes_path(log).exists() and log.read_bytes() == before  # the log itself is never changed

    result = runner.invoke(
        app, ["review", str(log), "--seat", "0", "-f", "json", "--iterations", "60", "--inaccuracy", "0.04"]
    )
    doc = json.loads(result.stdout)
    assert doc["iterations"] == 60 and doc["thresholds"] == {"inaccuracy": 0.04, "mistake": 0.1, "blunder": 0.2}
    assert doc["decisions"][0]["verdict"] == rows[0]["verdict"] and 0 <= doc["accuracy"]["0"] < 70


def test_review_table_and_a_bad_seat(tmp_path: Path) -> None:
    log = _played(tmp_path, 'decisions = ["p1 done", "p2 done"]')
    result = runner.invoke(app, ["review", str(log), "--iterations", "60", "--blunder", "0.5"])
    assert result.exit_code == 0 and "seat 0 (p0): accuracy" in result.stdout
    bad = runner.invoke(app, ["review", str(log), "--seat", "4"])
    assert bad.exit_code == 2 and "error: --seat 4 is no seat of this game" in bad.output, bad.output


def test_a_folder_is_reviewed_a_line_per_game_passing_over_a_ruleset_with_no_search_and_naming_a_damaged_log(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "games"
    for ruleset in ("miras9", "morana", "toy"):  # the toy ruleset (a test fixture) has no search bot
        made = runner.invoke(app, ["simulate", ruleset, "--games", "1", "--seed", "3", "--out", str(folder), "-q"])
        assert made.exit_code == 0, made.output
    (miras9,) = folder.glob("miras9-*.log")
    (morana,) = folder.glob("morana-*.log")
    (toy,) = folder.glob("toy-*.log")
    result = runner.invoke(app, ["review", str(folder), "--iterations", "5", "--save"])
    assert result.exit_code == 0, result.output
    assert f"{toy}: skipped: annals review needs a search bot" in result.stdout
    for log in (miras9, morana):
        assert f"{log}: " in result.stdout and f"-> {log}.review.json" in result.stdout
    assert not (folder / f"{toy.name}.review.json").exists()
    damaged = folder / "cut.log"
    damaged.write_bytes(morana.read_bytes()[:300])
    result = runner.invoke(app, ["review", str(folder), "--iterations", "5"])
    assert result.exit_code == 1 and f"{damaged}: not reviewed: " in result.stdout
    assert f"{morana}: " in result.stdout.replace(f"{damaged}: ", "")  # the others are reviewed all the same


def test_saving_one_seat_then_the_other_keeps_both_and_another_budget_replaces(tmp_path: Path) -> None:
    """A coach reviews --seat 1, then --seat 0, each with --save: the file beside the log ends with both seats (the
    viewer then draws both); a review made at another budget is not mixed with the saved one but replaces it."""
    from annals.schemas.review import read_review, review_path

    log = _played(tmp_path, 'decisions = ["p1 done", "p2 done"]')
    for seat in ("1", "0"):
        result = runner.invoke(app, ["review", str(log), "--seat", seat, "--iterations", "20", "--save"])
        assert result.exit_code == 0, result.output
    both = read_review(review_path(log))
    assert both.seats == [0, 1] and {r.seat for r in both.decisions} == {0, 1}
    assert [r.decision for r in both.decisions] == sorted(r.decision for r in both.decisions)
    result = runner.invoke(app, ["review", str(log), "--seat", "0", "--iterations", "30", "--save"])
    assert result.exit_code == 0, result.output
    again = read_review(review_path(log))
    assert again.seats == [0] and again.iterations == 30 and {r.seat for r in again.decisions} == {0}


def test_a_damaged_log_is_named_with_what_to_do_and_no_traceback(tmp_path: Path) -> None:
    log = _played(tmp_path, 'decisions = ["p1 done", "p2 done"]')
    cut = tmp_path / "cut.log"
    cut.write_bytes(log.read_bytes()[:-7])  # the last frame torn, as a copy cut short leaves it
    other = tmp_path / "notes.log"
    other.write_text("not a game\n")
    for damaged, what in ((cut, "log is truncated"), (other, "not an annals log")):
        result = runner.invoke(app, ["review", str(damaged), "--iterations", "5"])
        assert result.exit_code == 1, result.output
        assert f"error: {damaged}" in result.output and what in result.output, result.output
        assert "copy it again" in result.output and "annals verify LOG" in result.output
        assert "Traceback" not in result.output
