"""The analysis commands through typer's CliRunner, and one real subprocess."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import duckdb
import polars as pl
import pyarrow.parquet as pq
from typer.testing import CliRunner

from annals.cli.main import app
from annals.ingest.flatten import collect
from annals.queries.reports.run import run_report

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
    rep = runner.invoke(
        app, ["report", "first_player", "--db", str(db), "--format", "parquet", "-o", str(out), "--min-games", "0"]
    )
    assert rep.exit_code == 0 and pl.read_parquet(out)["games"].sum() == 50
    meta = pq.read_schema(out).metadata  # the report's metadata travels with the rows
    assert json.loads(meta[b"report"]) == "first_player" and json.loads(meta[b"filters"]) == {}
    assert json.loads(meta[b"sample"]).startswith("sample: 50 games") and b"description" in meta

    table = runner.invoke(app, ["report", "deck_matrix", "--db", str(db), "--min-games", "0"])
    assert "sample: 50 games" in table.output and "rows: deck; columns: opponent" in table.output  # a matrix
    assert "ci_low" not in table.output and re.search(r"\b\d+% \d+\b", table.output)

    bad = runner.invoke(app, ["report", "deck_matirx", "--db", str(db)])
    assert bad.exit_code == 2 and "unknown report 'deck_matirx'; did you mean 'deck_matrix'?" in bad.stderr
    as_json = runner.invoke(app, ["report", "deck_matrix", "--db", str(db), "-f", "json", "--deck", "pile"])
    doc = json.loads(as_json.output)
    assert set(doc) >= {"report", "description", "sample", "filters", "rows"} and doc["filters"] == {"deck": "pile"}
    assert doc["rows"] == [] and "2 rows with fewer than 30 games hidden" in doc["sample"]  # the mirror's two seats

    as_csv = runner.invoke(app, ["report", "game_length", "--db", str(db), "-f", "csv", "--min-games", "0"])
    assert as_csv.stdout.startswith("ruleset,turn_cap,end_reason,games") and "sample: 50 games" in as_csv.stderr

    for args, message in [
        (["--ruleset", "nosuch"], "no ruleset 'nosuch'"),
        (["--agent", "randm"], "did you mean 'random'"),
        (["--by", "seat"], "cannot be split by 'seat'"),
        (["--since", "yesterday"], "is not a date"),
    ]:
        refused = runner.invoke(app, ["report", "deck_matrix", "--db", str(db), *args])
        assert refused.exit_code == 2 and message in refused.output and len(refused.output.splitlines()) == 1

    log = collect([logs_copy / "cardtoy"])[0]
    game_id = Path(log).stem.split("-")[-1]
    pos = runner.invoke(app, ["position", game_id, "--db", str(db), "--at", "turn:2", "--format", "json"])
    assert pos.exit_code == 0, pos.output
    data = json.loads(pos.output)
    assert data["game_id"] == game_id and data["turn"] == 2 and "hand" in data["zones"]
    board = runner.invoke(app, ["position", log, "--at", "event:5", "--view", "spectator"])
    assert board.exit_code == 0 and "hidden from this view" in board.output
    wrong = runner.invoke(app, ["position", log, "--at", "turn:999"])
    assert wrong.exit_code == 1 and wrong.stderr.startswith("error: turn 999 does not occur; this game has turns 0..")


def con_frame(database: Path) -> pl.DataFrame:
    con = duckdb.connect(str(database), read_only=True)
    try:
        return run_report(con, "deck_matrix", min_games=5).frame
    finally:
        con.close()


def test_demo_in_a_real_subprocess(tmp_path: Path) -> None:
    """By default the demo writes under ANNALS_HOME, nothing where it runs; it prints the whole deck matrix and
    says which reports it shortened."""
    annals = Path(sys.executable).with_name("annals")
    home, cwd = tmp_path / "home", tmp_path / "cwd"
    cwd.mkdir()
    done = subprocess.run(
        [str(annals), "demo", "--games", "8"],
        cwd=cwd,
        env={**os.environ, "ANNALS_HOME": str(home), "COLUMNS": "200"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    database = home / "demo" / "annals.duckdb"
    assert f"database: {database}" in done.stdout and database.exists()
    assert list(cwd.iterdir()) == []
    assert "First-player advantage" in done.stdout and "sample:" in done.stdout
    pairings = con_frame(database).height
    assert pairings > 12
    matrix = done.stdout.split("(deck_matrix)")[1].split("\n== ")[0]
    cells = re.findall(r"\b\d+% \d+\b", matrix)  # a cell: the win rate and the games; a last column per deck
    decks = con_frame(database).select("ruleset", "deck").unique().height
    assert len(cells) == pairings + decks and "rows: deck; columns: opponent" in matrix
    assert len(done.stdout.splitlines()) < 250  # a few screens, not the long rows of every report
    assert "(the first 12 of " in done.stdout and "rows; all of them: annals report card_winrate --db " in done.stdout
    # in words (issue 28): the reports' cards by name, the closing board with the players' names and card names
    ids = re.findall(r"\b(?:char|ss|ev|rx|eq|veh|site|planet|spirit)-[a-z-]+\b|#\d{4}\b|\bp[01]\b", done.stdout)
    assert ids == [], ids[:5]
    board = done.stdout.split("\ncharts and replay pages")[0].rsplit("\n\n", 1)[1]
    assert "heuristic-0" in board and "heuristic-1" in board and "every card shown" in board


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
    # the end in words, as the game's end line says it (it read "winner 1 (score)")
    assert re.search(r"; (\S+ wins|no winner)\b", cont.output) and "winner 0 (" not in cont.output, cont.output
    assert "winner 1 (" not in cont.output
    shown = runner.invoke(app, ["verify", str(new_log)])
    assert shown.exit_code == 0 and "ok" in shown.output


def test_position_refuses_an_unknown_format(logs_dir: Path) -> None:
    log = collect([logs_dir / "cardtoy"])[0]
    result = runner.invoke(app, ["position", log, "--format", "xml"])
    assert result.exit_code == 2
    assert result.stderr == (
        "error: Invalid value for '--format' / '-f': 'xml' is not one of 'board', 'json', 'svg'; "
        "see 'annals position --help'\n"
    )
