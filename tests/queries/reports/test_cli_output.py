"""What the commands print and where they write: show (many files, globs, card names, JSON lines, the result
last), CSV that ends with one newline, tables that fit the terminal, reports without -0.0, the database listing,
default decks, default output folders outside the current one, and the help."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import duckdb
import polars as pl
import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.registry import get_ruleset, ruleset_names
from annals.engine.words import Words
from annals.ingest.flatten import collect
from annals.queries.reports.output import render
from annals.queries.reports.run import without_negative_zero
from annals.schemas.logfile import read_log
from annals.schemas.text import card_names

runner = CliRunner()


def test_show_takes_many_files_and_globs_and_ends_each_with_the_result(real_logs: Path) -> None:
    logs = collect([real_logs / "miras9"])
    pattern = str(real_logs / "miras9" / "*.log")  # as a shell passes a quoted pattern: unexpanded
    result = runner.invoke(app, ["show", "--format", "records", pattern])
    assert result.exit_code == 0, result.output
    blocks = result.stdout.split("\n\n")
    assert len(blocks) == len(logs) >= 2
    for block, path in zip(blocks, logs, strict=True):
        game = read_log(path)
        lines = block.splitlines()
        assert lines[0] == f"== {path}"
        winner = game.header.players[game.close.winner].name
        assert lines[-1].startswith(f"result: p{game.close.winner} {winner} with ")
        ending = Words("miras9", str, [p.name for p in game.header.players]).ending(*game.result)  # in words
        assert f": {ending}, after {game.close.turns} turns" in lines[-1] and game.close.end_reason not in lines[-1]
    assert not result.stdout.endswith("\n\n")
    listed = runner.invoke(app, ["show", "--format", "records", *map(str, logs)])
    assert listed.stdout == result.stdout


def test_show_names_the_cards(real_logs: Path) -> None:
    path = collect([real_logs / "miras9"])[0]
    game = read_log(path)
    names = card_names(game.header)
    text = runner.invoke(app, ["show", "--format", "records", str(path)]).stdout.splitlines()
    event_lines = [line for line in text if line.startswith("#")]
    moved = [e for e in game.events if type(e).__name__ == "CardMoved"]
    assert moved
    for event in moved[:50]:
        line = event_lines[event.n]
        assert f"card={names.get(event.card, '?')}#{event.card} " in line, line


def test_show_json_is_one_record_per_line(real_logs: Path) -> None:
    path = collect([real_logs / "morana"])[0]
    game = read_log(path)
    result = runner.invoke(app, ["show", str(path), "--format", "json"])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert records[0]["record"] == "header" and records[0]["game_id"] == game.header.game_id
    events = [r for r in records if r["record"] == "event"]
    assert [e["n"] for e in events] == list(range(game.close.events))
    assert [e["kind"] for e in events] == [type(e).__name__ for e in game.events]
    assert sum(r["record"] == "decision" for r in records) == game.close.decisions
    assert records[-1] == {"record": "result", "winner": game.close.winner, "end_reason": game.close.end_reason,
                           "events": game.close.events, "decisions": game.close.decisions,
                           "turns": game.close.turns, "digest": game.digest}  # fmt: skip
    names = card_names(game.header)
    drew = next(e for e in events if isinstance(e.get("card"), int) and e["card"] in names)
    assert drew["names"]["card"] == names[drew["card"]]
    hidden = runner.invoke(app, ["show", str(path), "--format", "json", "--view", "player1"])
    theirs = [json.loads(line) for line in hidden.stdout.splitlines()]
    assert all(d["option"] is None for d in theirs if d["record"] == "decision" and d["player"] == 0)


def test_csv_ends_with_exactly_one_newline(real_db: Path) -> None:
    for command in (["sql", "SELECT game_id, ruleset FROM games ORDER BY game_id"], ["report", "first_player"]):
        result = runner.invoke(app, [*command, "--db", str(real_db), "--format", "csv"])
        assert result.exit_code == 0, result.output
        assert result.stdout.endswith("\n") and not result.stdout.endswith("\n\n")
    last = con_rows(real_db, "SELECT game_id, ruleset FROM games ORDER BY game_id")[-1]
    sql = runner.invoke(app, ["sql", "SELECT game_id, ruleset FROM games ORDER BY game_id", "--db", str(real_db),
                              "--format", "csv"])  # fmt: skip
    assert sql.stdout.splitlines()[-1] == f"{last[0]},{last[1]}"  # what `tail -1` gives


def con_rows(db: Path, query: str) -> list[tuple[object, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(query).fetchall()
    finally:
        con.close()


def test_sql_fits_the_terminal(real_db: Path) -> None:
    """24 columns of `games` do not fit 80 columns: one record per row, every line within the width; two
    narrow columns stay a table."""
    wide = runner.invoke(app, ["sql", "SELECT * FROM games ORDER BY game LIMIT 2", "--db", str(real_db)],
                         env={"COLUMNS": "80"})  # fmt: skip
    assert wide.exit_code == 0, wide.output
    lines = wide.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert lines[0].startswith("-[ row 1 ]") and sum(line.startswith("-[ row ") for line in lines) == 2
    columns = [row[0] for row in con_rows(real_db, "SELECT column_name FROM information_schema.columns "
                                          "WHERE table_name = 'games' ORDER BY ordinal_position")]  # fmt: skip
    assert len(columns) >= 20
    assert [line.split(" | ")[0].rstrip() for line in lines[1 : 1 + len(columns)]] == columns
    narrow = runner.invoke(app, ["sql", "SELECT ruleset, count(*) AS n FROM games GROUP BY 1 ORDER BY 1",
                                 "--db", str(real_db)], env={"COLUMNS": "80"})  # fmt: skip
    assert "┆" in narrow.stdout and "miras9" in narrow.stdout and "-[ row" not in narrow.stdout


def test_reports_print_zero_not_negative_zero() -> None:
    frame = without_negative_zero(pl.DataFrame({"delta": [round(-0.00001, 3), 0.25], "n": [1, 2]}))
    assert math.copysign(1.0, frame["delta"][0]) == 1.0
    for fmt in ("table", "csv", "json"):
        text = render(frame, fmt, None)
        assert text is not None and "-0.0" not in text and "0.0" in text


def test_tables_lists_tables_and_views_with_row_counts(real_db: Path) -> None:
    result = runner.invoke(app, ["tables", "--db", str(real_db), "--format", "csv"])
    assert result.exit_code == 0, result.output
    rows = {line.split(",")[0]: line.split(",") for line in result.stdout.splitlines()[1:]}
    for name in ("games", "events", "decisions", "quarantine"):
        assert rows[name][1] == "table"
        assert int(rows[name][2]) == con_rows(real_db, f"SELECT count(*) FROM {name}")[0][0]
    for name in ("zone_moves", "game_results"):
        assert rows[name][1] == "view"
        assert int(rows[name][2]) == con_rows(real_db, f"SELECT count(*) FROM {name}")[0][0]
    assert rows["position"][1] == "macro"


@pytest.mark.parametrize("name", ruleset_names())
def test_each_ruleset_has_a_default_pair_of_its_own_decks(name: str) -> None:
    ruleset = get_ruleset(name)
    pair = ruleset.default_decks()
    assert len(pair) == 2 and set(pair) <= set(ruleset.decks())


def test_simulate_and_play_without_decks_or_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's pairs are the defaults (miras9 vanguard,bastion; morana clash,glory), and the logs go to
    ANNALS_HOME/games, not to the folder the command runs in."""
    home = Path(os.environ["ANNALS_HOME"])
    monkeypatch.chdir(tmp_path)
    sim = runner.invoke(app, ["simulate", "miras9", "-n", "2", "-q"])
    assert sim.exit_code == 0, sim.output
    assert sim.stdout.startswith(f"2 games written to {home / 'games'} (random/vanguard won ")
    assert ", random/bastion won " in sim.stdout
    played = runner.invoke(app, ["play", "morana", "--players", "random,heuristic"])
    assert played.exit_code == 0, played.output
    logs = sorted((home / "games").glob("*.log"))
    assert [read_log(p).header.decks[0].name for p in logs] == ["vanguard", "bastion", "clash"]
    assert [read_log(p).header.decks[1].name for p in logs] == ["bastion", "vanguard", "glory"]
    assert played.stdout.strip().endswith(f"log written to {logs[2]}")
    again = runner.invoke(app, ["play", "morana", "--players", "random,heuristic"])
    assert again.exit_code == 0 and len(list((home / "games").glob("*.log"))) == 4, "a default never overwrites"
    ingested = runner.invoke(app, ["ingest", "-q"])
    assert ingested.exit_code == 0 and "4 files: 4 games added, 0 already stored" in ingested.stdout  # fresh seeds
    assert (home / "annals.duckdb").exists()
    saved = tmp_path / "pos.json"
    assert runner.invoke(app, ["position", str(logs[0]), "--at", "turn:3", "--save", str(saved)]).exit_code == 0
    cont = runner.invoke(app, ["continue", str(saved)])
    assert cont.exit_code == 0, cont.output
    assert cont.stdout.startswith(f"{home / 'games' / 'continued-pos.log'}: game ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pos.json"], "nothing else in the current folder"


def test_help_lists_commands_in_order_with_completion_and_no_bool_types() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    listed = [line.split()[0] for line in result.stdout.split("Commands:\n")[1].splitlines() if line.strip()]
    journey = ["demo", "simulate", "play", "show", "verify", "ingest", "tables", "report", "sql", "position",
               "continue"]  # fmt: skip
    assert [c for c in listed if c in journey] == journey
    assert "--install-completion" in result.stdout and "--show-completion" in result.stdout
    for command in listed:
        shown = runner.invoke(app, [command, "--help"])
        assert shown.exit_code == 0 and "<bool>" not in shown.stdout, command
    assert "<bool>" not in result.stdout


@pytest.mark.parametrize("name", ["card_winrate", "card_turns", "card_metrics"])
def test_a_card_report_names_the_cards_in_the_terminal_and_keeps_the_ids_in_files(
    real_db: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A person reading ``annals report`` sees each card's printed name (``card``, where ``card_id`` was); CSV and
    JSON keep ``card_id``, the key a program joins on (``cards.card_id``), with the same rows."""
    args = ["report", name, "--db", str(real_db), "--min-games", "0"]
    csv = runner.invoke(app, [*args, "--format", "csv"])
    assert csv.exit_code == 0, csv.output
    rows = pl.read_csv(csv.stdout.encode())
    assert "card_id" in rows.columns and "card" not in rows.columns and rows.height
    names = {c.id: c.name for r in rows["ruleset"].unique() for c in get_ruleset(r).cards().values()}
    shown = json.loads(runner.invoke(app, [*args, "--format", "json"]).stdout)
    assert [r["card_id"] for r in shown["rows"]] == rows["card_id"].to_list()
    monkeypatch.setenv("COLUMNS", "400")  # a table (card_metrics, wider, as a record per row)
    table = runner.invoke(app, args)
    assert table.exit_code == 0, table.output
    assert "card_id" not in table.stdout and ("┆ card " in table.stdout or "\ncard " in table.stdout)
    for card_id in set(rows["card_id"].to_list()):
        assert card_id not in table.stdout, card_id  # no id in the terminal ...
        assert names[card_id] in table.stdout  # ... its name instead
