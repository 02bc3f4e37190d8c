"""A judged or turn-capped game rebuilt from the database (``queries.positions.storedlog``) with its log gone: its
judge's records, closing record and result as the log had them (the judged result is what counts, R-CORE-2; a backup's
abandoned branch is not stored, the kept one is, R-CORE-3)."""

from __future__ import annotations

from pathlib import Path

import duckdb

from annals.engine.judge import backup, intervene
from annals.engine.registry import get_ruleset
from annals.engine.runner import play
from annals.engine.simulate import bots_for, make_header
from annals.ingest.loader import ingest
from annals.ingest.schema import open_database
from annals.queries.positions.storedlog import stored_log
from annals.schemas.judge import Intervention
from annals.schemas.logfile import GameLog, read_log
from tests.helpers import toy_log

TOY = get_ruleset("toy")


def _rebuilt(path: Path, db: Path) -> tuple[GameLog, GameLog]:
    """The log at ``path`` as read, and as rebuilt from a database it was ingested into, the file moved away."""
    original = read_log(path)
    ingest([path], db)
    path.rename(path.with_name(path.name + ".moved"))
    con: duckdb.DuckDBPyConnection = open_database(db, read_only=True)
    try:
        return original, stored_log(con, original.header.game_id)
    finally:
        con.close()


def _same(original: GameLog, rebuilt: GameLog) -> None:
    assert rebuilt.events == original.events and rebuilt.decisions == original.decisions
    assert rebuilt.close == original.close
    assert rebuilt.result == original.result
    assert [(j.record, j.frame) for j in rebuilt.judged] == [(j.record, j.frame) for j in original.judged]


def test_a_game_a_judge_ended_after_a_backup_comes_back_with_its_records_and_result(tmp_path: Path) -> None:
    path, _ = toy_log(tmp_path, seed=5)
    backup(path, 1, "R. Vance", reason="misdeal")  # the game open again at decision 1
    intervene(path, Intervention("game_loss", "R. Vance", player=0, reason="left the table"))
    original, rebuilt = _rebuilt(path, tmp_path / "db.duckdb")
    assert original.close.end_reason == "judge_game_loss" and original.result == (1, "judge_game_loss")
    _same(original, rebuilt)


def test_an_override_after_the_end_keeps_the_engines_closing_record(tmp_path: Path) -> None:
    path, played = toy_log(tmp_path, seed=7)
    intervene(path, Intervention("warning", "R. Vance", player=1, reason="slow play"))
    intervene(path, Intervention("override", "R. Vance", winner=1 - played.winner, reason="scoring error"))
    original, rebuilt = _rebuilt(path, tmp_path / "db.duckdb")
    assert original.close.end_reason != "judge_override" and original.result == (1 - played.winner, "judge_override")
    _same(original, rebuilt)


def test_a_turn_capped_game_comes_back_capped(tmp_path: Path) -> None:
    header = make_header(TOY, 3, ["pile", "pile"], ["random", "random"], max_turns=2)
    path = tmp_path / "capped.log"
    play(TOY, header, bots_for(TOY, header), path)
    original, rebuilt = _rebuilt(path, tmp_path / "db.duckdb")
    assert original.close.end_reason == "turn_cap"
    _same(original, rebuilt)
