"""Judge interventions as records in the log: warnings, game losses, notes, extra time, overrides, backups."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.judge import JudgeError, backup, intervene, resume
from annals.engine.registry import get_ruleset
from annals.engine.replay import rerun, rerun_branches
from annals.engine.simulate import bots_for
from annals.ingest.loader import ingest
from annals.ingest.schema import open_database
from annals.schemas.errors import TruncatedLogError, UnsupportedFormatError
from annals.schemas.judge import Intervention
from annals.schemas.keys import SigningKey
from annals.schemas.logfile import read_log
from annals.schemas.signing import verify_signature
from tests.helpers import toy_log

runner = CliRunner()
TOY = get_ruleset("toy")
FIXTURE = Path(__file__).parent.parent / "fixtures" / "toy-format1.log"


def verify(path: Path, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["verify", str(path), *args])
    return result.exit_code, result.output


def test_judge_backup_round_trip_keeps_both_branches(tmp_path: Path) -> None:
    """Play, back up to decision K, play on, verify: both branches re-run, the abandoned one is untouched."""
    path, played = toy_log(tmp_path, seed=4)
    original = path.read_bytes()
    first = read_log(path)
    k = 3
    at = first.decisions[k].at
    result = runner.invoke(app, ["judge", "backup", str(path), "--judge", "R. Vance", "--to", str(k),
                                 "--reason", "took from the wrong pile"])  # fmt: skip
    assert result.exit_code == 0, result.output
    with pytest.raises(TruncatedLogError, match="no closing record"):  # backed up: the game is open again
        read_log(path)
    resumed = resume(path, bots_for(TOY, first.header))
    assert path.read_bytes().startswith(original)  # append-only: the abandoned branch is byte for byte there
    game = read_log(path)
    assert game.header.game_id == played.game_id and resumed.game_id == played.game_id
    assert game.events[:at] == first.events[:at] and game.decisions[:k] == first.decisions[:k]
    assert [d.n for d in game.decisions] == list(range(len(game.decisions)))
    assert (game.close.events, game.close.decisions) == (len(game.events), len(game.decisions))
    [branch] = game.branches
    assert (branch.events, branch.decisions, branch.close) == (first.events, first.decisions, first.close)
    assert branch.backup.judge == "R. Vance" and branch.backup.events == at
    assert rerun(game).ok and [b.report.ok for b in rerun_branches(game)] == [True]
    code, output = verify(path)
    assert code == 0, output
    assert f"ok ({len(game.events)} events re-run identically" in output
    assert (f"abandoned branch: {len(first.events)} events, {len(first.decisions)} decisions re-run identically to "
            f"its end; backup to decision {k}") in output  # fmt: skip
    shown = runner.invoke(app, ["show", "--format", "records", str(path), "--numbered"]).output
    assert "abandoned branch:" in shown and "backup to decision 3" in shown
    numbered = [line.split("?")[1].split()[0] for line in shown.splitlines() if "  ?" in line]
    assert numbered == [str(n) for n in range(len(game.decisions))]  # the numbers backup --to takes


def test_a_backup_on_a_signed_log_is_re_signed_with_the_events_key(tmp_path: Path) -> None:
    path, _ = toy_log(tmp_path, seed=2)
    key = SigningKey.generate("Spring Open")
    from annals.schemas.signing import sign_log

    sign_log(path, key)
    header = read_log(path).header
    amended = backup(path, 2, "R. Vance", reason="misdeal", key=key)
    assert amended.was_signed and amended.signed
    resume(path, bots_for(TOY, header), key=key)
    status = verify_signature(path, key.public)
    assert status.ok and status.signatures == 3, status.message  # after the game, the backup, the game on


def test_a_backup_abandoning_part_of_a_batch_frame_keeps_its_first_part(tmp_path: Path) -> None:
    """Bot games write whole turns per frame: backing up into the middle of one splits it."""
    from annals.engine.runner import play
    from annals.engine.simulate import make_header

    header = make_header(TOY, 9, ["pile", "pile"], ["random", "random"])
    path = tmp_path / "bots.log"
    play(TOY, header, bots_for(TOY, header), path)  # one batch frame for the whole game
    first = read_log(path)
    k = len(first.decisions) // 2
    backup(path, k, "R. Vance", reason="misplay")
    resume(path, bots_for(TOY, header), live=False)
    game = read_log(path)
    at = first.decisions[k].at
    assert game.events[:at] == first.events[:at] and game.branches[0].backup.from_frame == 1
    assert rerun(game).ok and rerun_branches(game)[0].report.ok


def test_a_game_loss_changes_the_result_and_verify_reports_it_as_the_judges(tmp_path: Path) -> None:
    path, played = toy_log(tmp_path)
    loser = played.winner
    result = runner.invoke(app, ["judge", "game-loss", str(path), "--judge", "R. Vance", "--player", str(loser),
                                 "--reason", "marked cards"])  # fmt: skip
    assert result.exit_code == 0, result.output
    game = read_log(path)
    assert game.result == (1 - loser, "judge_game_loss")
    assert game.close.winner == loser  # the engine's closing record stays as the engine wrote it
    code, output = verify(path)
    assert code == 0, output
    names = [p.name for p in game.header.players]  # the players by name, as 'annals show' says them (it said p0)
    assert f"judge: game loss to {names[loser]} by judge R. Vance: marked cards" in output  # in words, not game_loss
    said = f"result by judge's decision: {names[1 - loser]} wins: a judge gave the opponent a game loss; "
    assert said + f"the engine's closing record says: {names[loser]} wins" in output  # it said (judge_game_loss)
    assert "judge_game_loss" not in output


def test_an_override_a_note_a_warning_and_extra_time_are_recorded_with_the_judge(tmp_path: Path) -> None:
    path, _ = toy_log(tmp_path)
    records = [
        ("warn", "--player", "1", "--reason", "slow play"),
        ("note", "--note", "moved to table 12"),
        ("extra-time", "--minutes", "5", "--reason", "deck check"),
        ("override", "--winner", "-1", "--reason", "time called, agreed draw"),
    ]
    for command, *args in records:
        result = runner.invoke(app, ["judge", command, str(path), "--judge", "R. Vance", *args])
        assert result.exit_code == 0, result.output
    game = read_log(path)
    assert [(j.record.kind, j.record.judge) for j in game.judged] == [
        ("warning", "R. Vance"), ("note", "R. Vance"), ("extra_time", "R. Vance"), ("override", "R. Vance")
    ]  # fmt: skip
    assert game.judged[2].record.minutes == 5 and game.judged[0].record.player == 1
    assert all(j.record.time.endswith("Z") for j in game.judged)
    assert game.result == (-1, "judge_override")
    code, output = verify(path)
    assert code == 0 and "result by judge's decision: a draw: a judge set the result;" in output
    assert "judge_override" not in output


def test_extra_time_beyond_a_day_is_refused_and_the_log_left_as_it_was(tmp_path: Path) -> None:
    """10**23 minutes crashed writing the record (an OverflowError traceback)."""
    path, _ = toy_log(tmp_path)
    before = path.read_bytes()
    for minutes in ("0", "1441", str(10**23)):
        result = runner.invoke(app, ["judge", "extra-time", str(path), "--judge", "R. Vance", "--minutes", minutes])
        assert result.exit_code == 1, result.output
        assert f"a positive number of minutes up to 1440 (a day), not {minutes}" in result.stderr
    assert path.read_bytes() == before


def test_a_game_loss_on_an_unfinished_game_ends_it(tmp_path: Path) -> None:
    path, _ = toy_log(tmp_path, seed=5)
    backup(path, 1, "R. Vance", reason="misdeal")  # now open: no closing record
    amended = intervene(path, Intervention("game_loss", "R. Vance", player=0, reason="left the table"))
    assert amended.closed
    game = read_log(path)
    assert game.close.end_reason == "judge_game_loss" and game.result == (1, "judge_game_loss")
    assert (game.close.events, game.close.decisions) == (len(game.events), len(game.decisions))


def test_an_ingested_log_takes_the_judged_result_and_the_kept_branch(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    judged, played = toy_log(logs, seed=1, name="judged.log")
    intervene(judged, Intervention("game_loss", "R. Vance", player=played.winner, reason="marked cards"))
    backed, _ = toy_log(logs, seed=2, name="backed.log")
    header = read_log(backed).header
    backup(backed, 2, "R. Vance", reason="misdeal")
    resume(backed, bots_for(TOY, header))
    db = tmp_path / "annals.duckdb"
    report = ingest([logs], db)
    assert (report.files_quarantined, report.games_added) == (0, 2)
    con = open_database(db, read_only=True)
    try:
        rows = dict(con.execute("SELECT file, winner FROM games").fetchall())
        reasons = dict(con.execute("SELECT file, end_reason FROM games").fetchall())
        stored = con.execute("SELECT count(*) FROM events e JOIN games g USING (game) WHERE g.file LIKE '%backed.log'")
        stored_events = stored.fetchone()
        judge_rows = con.execute(
            "SELECT g.file, i.kind, i.judge, i.player_id, i.reason, i.event_id, i.frame IS NOT NULL "
            "FROM interventions i JOIN games g USING (game_id) ORDER BY i.kind"
        ).fetchall()
    finally:
        con.close()
    loser = read_log(judged).header.players[played.winner].name
    assert judge_rows == [  # every J frame of any log, here outside an event
        (str(backed.resolve()), "backup", "R. Vance", None, "misdeal", None, True),
        (str(judged.resolve()), "game_loss", "R. Vance", loser, "marked cards", None, True),
    ]
    assert rows[str(judged.resolve())] == 1 - played.winner
    assert reasons[str(judged.resolve())] == "judge_game_loss"
    assert stored_events == (len(read_log(backed).events),)


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (Intervention("warning", "R. Vance", player=2, reason="x"), "--player 0 to 1"),
        (Intervention("warning", "", player=0, reason="x"), "names the judge"),
        (Intervention("game_loss", "R. Vance", player=0), "states its reason"),
        (Intervention("note", "R. Vance"), "a note has text"),
        (Intervention("extra_time", "R. Vance", minutes=0), "positive number of minutes"),
        (Intervention("override", "R. Vance", winner=3, reason="x"), "or -1 for a draw"),
        (Intervention("yellow_card", "R. Vance"), "unknown intervention 'yellow_card'"),
    ],
)
def test_a_bad_record_is_refused_and_the_log_untouched(tmp_path: Path, record: Intervention, message: str) -> None:
    path, _ = toy_log(tmp_path)
    before = path.read_bytes()
    with pytest.raises(JudgeError, match=message):
        intervene(path, record)
    assert path.read_bytes() == before


def test_a_backup_names_a_decision_of_the_game(tmp_path: Path) -> None:
    path, played = toy_log(tmp_path)
    result = runner.invoke(app, ["judge", "backup", str(path), "--judge", "R. Vance", "--to", "999"])
    assert result.exit_code == 1
    assert f"decision 999 is not in this game, which has decisions 0 to {played.decisions - 1}" in result.output
    result = runner.invoke(app, ["resume", str(path), "--players", "random,random"])
    assert result.exit_code == 1 and "holds a finished game; back it up first" in result.output


def test_a_format_1_log_is_not_amended(tmp_path: Path) -> None:
    path = tmp_path / "old.log"
    path.write_bytes(FIXTURE.read_bytes())
    with pytest.raises(UnsupportedFormatError, match="log format 1 cannot hold judge or signature frames"):
        intervene(path, Intervention("note", "R. Vance", note="x"))
    assert path.read_bytes() == FIXTURE.read_bytes()


def test_r_core_3_a_backup_replayed_with_the_same_decisions_is_the_same_game(tmp_path: Path) -> None:
    """R-CORE-3, [M9-022]: the generator resumes as it was, so the same choices give the same events (no
    reshuffle); a Miras 9 game, whose hidden deck order and draws come from the generator."""
    from annals.engine.agents import ScriptedAgent
    from annals.engine.runner import play
    from annals.engine.simulate import make_header

    m9 = get_ruleset("miras9")
    header = make_header(m9, 11, ["vanguard", "tempest"], ["random", "random"], max_turns=6)
    path = tmp_path / "m9.log"
    play(m9, header, bots_for(m9, header), path, live=True)
    first = read_log(path)
    k = len(first.decisions) // 3
    backup(path, k, "R. Vance", reason="rewind to check the replay")
    replay = [ScriptedAgent([d for d in first.decisions[k:] if d.player == p]) for p in (0, 1)]
    resume(path, replay)
    game = read_log(path)
    assert game.events == first.events and game.decisions == first.decisions
    assert game.close == first.close


def test_a_players_view_of_a_backed_up_game_has_the_judges_records_but_no_abandoned_branch(tmp_path: Path) -> None:
    """Hidden information is a view: the abandoned branch holds the opponent's hidden cards as the game does."""
    from annals.engine.views import view_log

    path, _ = toy_log(tmp_path, seed=3)
    header = read_log(path).header
    backup(path, 2, "R. Vance", reason="misdeal")
    resume(path, bots_for(TOY, header))
    intervene(path, Intervention("warning", "R. Vance", player=1, reason="slow play"))
    view = view_log(read_log(path), 0)
    assert view.branches == [] and [j.record.kind for j in view.judged] == ["backup", "warning"]
    shown = runner.invoke(app, ["show", "--format", "records", str(path), "--view", "player0"]).output
    assert "warning to p1 by judge R. Vance" in shown and "abandoned branch:" not in shown


def test_a_second_closing_record_without_a_backup_is_corruption(tmp_path: Path) -> None:
    """Only a backup reopens a game: a close appended after the close (another result, re-chained) is refused."""
    from annals.schemas.errors import CorruptLogError
    from annals.schemas.logfile import LogWriter

    path, played = toy_log(tmp_path)
    game = read_log(path)
    writer = LogWriter.reopen(path)
    writer.close(msgspec.structs.replace(game.close, winner=1 - played.winner))
    with pytest.raises(CorruptLogError, match="a second closing record"):
        read_log(path)


def test_a_backed_up_miras9_log_ingests_its_kept_branch_through_the_fast_path(tmp_path: Path) -> None:
    """The C fast path takes the frames the reader gives: the kept branch, not the abandoned one."""
    from annals.engine.runner import play
    from annals.engine.simulate import make_header
    from annals.ingest import columnar

    if not columnar.enabled():  # ANNALS_PURE_PYTHON, or no compiler: test_columnar.py holds that CI builds it
        pytest.skip("the C fast path is switched off or not built here")
    m9 = get_ruleset("miras9")
    header = make_header(m9, 5, ["vanguard", "bastion"], ["random", "random"], max_turns=8)
    logs = tmp_path / "logs"
    logs.mkdir()
    path = logs / "m9.log"
    play(m9, header, bots_for(m9, header), path)
    first = read_log(path)
    backup(path, len(first.decisions) // 2, "R. Vance", reason="misplay", key=SigningKey.generate())
    resume(path, bots_for(m9, header), live=False)
    game = read_log(path)
    db = tmp_path / "annals.duckdb"
    report = ingest([logs], db)
    assert (report.games_added, report.files_quarantined, report.events_stored) == (1, 0, len(game.events))
    con = open_database(db, read_only=True)
    try:
        ns = [n for (n,) in con.execute("SELECT n FROM events ORDER BY n").fetchall()]
        decisions = con.execute("SELECT count(*) FROM decisions").fetchone()
    finally:
        con.close()
    assert ns == list(range(len(game.events))) and decisions == (len(game.decisions),)


def test_the_story_names_the_judges_records_in_words_and_by_the_players_names(tmp_path: Path) -> None:
    """``annals show`` read ``extra_time +5 min`` and ``warning to p1`` for a game whose players have names."""
    from annals.engine.players import play_live

    path = tmp_path / "named.log"
    play_live("toy", ["pile", "pile"], ["random", "random"], 4, path, names=["Ann", "Bob"])
    intervene(path, Intervention("warning", "R. Vance", player=1, reason="slow play"))
    intervene(path, Intervention("extra_time", "R. Vance", minutes=5, reason="deck check"))
    shown = runner.invoke(app, ["show", str(path)]).output.splitlines()
    judged = [line.partition(": ")[2] for line in shown if line.startswith("judge, after event ")]
    assert judged == ["warning to Bob by judge R. Vance: slow play", "extra time +5 min by judge R. Vance: deck check"]
