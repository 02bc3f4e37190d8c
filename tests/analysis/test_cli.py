"""The analysis commands through typer's CliRunner, and one real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import polars as pl
from typer.testing import CliRunner

from annals.cli.main import app
from annals.ingest.flatten import collect

runner = CliRunner()


def test_ingest_then_sql_report_position(logs_copy: Path, tmp_path: Path) -> None:
    db = tmp_path / "cli.duckdb"
    result = runner.invoke(app, ["ingest", str(logs_copy), "--db", str(db), "-q", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "50 games added" in result.output and "events read" in result.output
    again = runner.invoke(app, ["ingest", str(logs_copy), "--db", str(db), "-q"])
    assert "0 games added, 50 already stored" in again.output

    csv = runner.invoke(app, ["sql", "SELECT ruleset, count(*) AS n FROM games GROUP BY 1 ORDER BY 1", "--db",
                              str(db), "--format", "csv"])  # fmt: skip
    assert csv.exit_code == 0 and csv.output.splitlines()[:3] == ["ruleset,n", "cardtoy,40", "toy,10"]

    write = runner.invoke(app, ["sql", "DELETE FROM events", "--db", str(db)])
    assert write.exit_code == 1 and "read-only" in write.output

    out = tmp_path / "fp.parquet"
    rep = runner.invoke(app, ["report", "first_player", "--db", str(db), "--format", "parquet", "-o", str(out)])
    assert rep.exit_code == 0 and pl.read_parquet(out)["games"].sum() == 50

    table = runner.invoke(app, ["report", "deck_matrix", "--db", str(db)])
    assert "sample: 50 games" in table.output and "ci_low" in table.output

    bad = runner.invoke(app, ["report", "nope", "--db", str(db)])
    assert bad.exit_code == 1 and "card_winrate" in bad.output

    log = collect([logs_copy / "cardtoy"])[0]
    game_id = Path(log).stem.split("-")[-1]
    pos = runner.invoke(app, ["position", game_id, "--db", str(db), "--at", "turn:2", "--format", "json"])
    assert pos.exit_code == 0, pos.output
    data = json.loads(pos.output)
    assert data["game_id"] == game_id and data["turn"] == 2 and "hand" in data["zones"]
    board = runner.invoke(app, ["position", log, "--at", "event:5", "--view", "spectator"])
    assert board.exit_code == 0 and "hidden from this view" in board.output
    wrong = runner.invoke(app, ["position", log, "--at", "turn:999"])
    assert wrong.exit_code == 1 and "CoordinateError" in wrong.output


def test_demo_in_a_real_subprocess(tmp_path: Path) -> None:
    annals = Path(sys.executable).with_name("annals")
    done = subprocess.run(
        [str(annals), "demo", "--dir", str(tmp_path / "demo"), "--games", "8"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "database:" in done.stdout and (tmp_path / "demo" / "annals.duckdb").exists()
    assert "First-player advantage" in done.stdout and "sample:" in done.stdout


def test_position_save_and_continue(logs_dir: Path, tmp_path: Path) -> None:
    log = collect([logs_dir / "cardtoy"])[1]
    saved = tmp_path / "pos.json"
    result = runner.invoke(app, ["position", log, "--at", "turn:2/main", "--save", str(saved)])
    assert result.exit_code == 0 and saved.exists()
    moves = tmp_path / "moves.json"
    moves.write_text("[0]")
    new_log = tmp_path / "cont.log"
    cont = runner.invoke(app, ["continue", str(saved), "--out", str(new_log), "--decisions", str(moves)])
    assert cont.exit_code == 0, cont.output
    assert "branched from" in cont.output
    shown = runner.invoke(app, ["verify", str(new_log)])
    assert shown.exit_code == 0 and "ok" in shown.output


def test_position_refuses_an_unknown_format(logs_dir: Path) -> None:
    log = collect([logs_dir / "cardtoy"])[0]
    result = runner.invoke(app, ["position", log, "--format", "xml"])
    assert result.exit_code == 2  # a usage error
    assert result.stderr.startswith("error: unknown format 'xml'; choose board, json or svg")
