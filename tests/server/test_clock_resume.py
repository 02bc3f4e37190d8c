"""The clocks of a game resumed after the server dies: a judge's extra time awarded while it was down goes into
the time banks (R-CORE-7), and the time the question had been open before the crash is charged, the time the
server was down is not (R-CORE-6). Real servers on 127.0.0.1, killed with SIGKILL."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed

from annals.engine.judge import intervene, resume_table
from annals.engine.replay import rerun
from annals.engine.table import open_path, read_live, read_open, recorded_clocks
from annals.schemas.judge import Intervention
from annals.schemas.logfile import read_log
from annals.schemas.records import ClockCharged
from tests.serverkit import Running, play_seat, recv, start, stop

BANK_S = 120


def _asked_then_killed(tmp_path: Path, answers: int, think_s: float, *extra: str) -> tuple[Running, dict[str, Any],
                                                                                           Path, float]:  # fmt: skip
    """A person (seat 0) against a bot: ``answers`` answers, then the person thinks over the next question for
    ``think_s`` seconds and the server is killed. Returns the server, the table, its log and how long the
    question had been open on the client's side when the kill was sent."""
    first = start(tmp_path, None, *extra)
    table = first.table("morana", ["clash", "glory"], ["human", "random"], clock=BANK_S, seed=7)
    with contextlib.suppress(ConnectionClosed, OSError), first.socket(table["table"], table["tokens"][0]) as ws:
        got = play_seat(ws, 1, stop_after=answers, think=0.01)  # each answer charges the clock at least 10 ms
        asked = time.monotonic()
        assert got[-1]["type"] == "decide" and got[-1]["player"] == 0
        time.sleep(think_s)
        open_s = time.monotonic() - asked
        stop(first, kill=True)
    return first, table, tmp_path / "tables" / f"{table['table']}.log", open_s


def _finish(s: Running, table: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
    with s.socket(table["table"], table["tokens"][0]) as ws:
        got = play_seat(ws, 2)
    return s.wait_over(table["table"]), got


def test_a_judges_extra_time_given_while_the_server_is_down_is_in_the_clocks_on_resume(tmp_path: Path) -> None:
    """[R-CORE-7] The server is killed mid-game; a judge awards 2 minutes (``annals judge extra-time``) to the live
    log; on restart both seats' banks are what the log last recorded plus 2 minutes (the hello says so), the
    person's next charge counts down from there, and the finished game verifies."""
    first, table, log, _ = _asked_then_killed(tmp_path, 5, 0, "--clock-mark", "60")
    _, events, _, close, trail = read_live(log)
    assert close is None
    before = recorded_clocks(trail, 2, BANK_S * 1000)[1]
    assert before[0] < BANK_S * 1000  # the person's time was charged
    judge = [str(Path(sys.executable).parent / "annals"), "judge", "extra-time", str(log), "--judge", "R. Vance",
             "--minutes", "2", "--reason", "server crash"]  # fmt: skip
    done = subprocess.run(judge, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    second = start(tmp_path, first.port, "--clock-mark", "60")
    try:
        with second.socket(table["table"], table["tokens"][0]) as ws:
            hello = recv(ws)
        assert hello["type"] == "hello"
        assert hello["clock_ms"][1] == before[1] + 120_000  # the bot's seat, not being asked
        assert before[0] + 120_000 - 5_000 <= hello["clock_ms"][0] <= before[0] + 120_000  # asked since the restart
        info, _ = _finish(second, table)
    finally:
        stop(second)
    game = read_log(info["log"])
    assert rerun(game).ok and [j.record.minutes for j in game.judged] == [2]
    first_after = next(e for e in game.events[len(events) :] if type(e) is ClockCharged and e.player == 0)
    assert first_after.spent_ms + first_after.left_ms == before[0] + 120_000


def test_the_time_a_question_was_open_before_a_crash_is_charged_and_the_downtime_is_not(tmp_path: Path) -> None:
    """[R-CORE-6] The person thinks 1.5 s over a question, the server is killed and stays down 2 s: the restarted
    table charges the person the time the question had been open as last written beside the log (every 0.1 s),
    as a ClockCharged before the question is asked again, and not the 2 s the server was down; the mark is then
    gone (a second crash does not charge it twice), and the game finishes and verifies."""
    first, table, log, open_s = _asked_then_killed(tmp_path, 4, 1.5, "--clock-mark", "0.1")
    mark = read_open(log)
    _, events, decisions, close, trail = read_live(log)
    assert mark is not None and close is None
    assert (mark.decision, mark.player) == (len(decisions), 0)
    assert (open_s - 0.5) * 1000 <= mark.open_ms <= open_s * 1000  # renewed every 0.1 s while asked
    before = recorded_clocks(trail, 2, BANK_S * 1000)[1]
    time.sleep(2)  # the server is down
    second = start(tmp_path, first.port, "--clock-mark", "0.1")
    try:
        deadline = time.monotonic() + 10
        while open_path(log).exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not open_path(log).exists()
        _, resumed, _, _, _ = read_live(log)
        charge = resumed[len(events)]
        assert type(charge) is ClockCharged and charge.player == 0
        assert charge.spent_ms == mark.open_ms and charge.left_ms == before[0] - mark.open_ms
        assert charge.spent_ms < open_s * 1000  # never the time the server was down
        info, got = _finish(second, table)
    finally:
        stop(second)
    assert got[0]["clock_ms"][0] <= before[0] - mark.open_ms
    game = read_log(info["log"])
    assert rerun(game).ok and game.events[len(events)] == charge
    assert sum(1 for e in game.events if type(e) is ClockCharged and e.n == charge.n) == 1


def test_annals_resume_also_adds_the_judges_extra_time(tmp_path: Path) -> None:
    """[R-CORE-7] ``annals resume`` of a log cut short (``judge.resume_table``, the bank read from the log): an
    extra-time award with no player goes to both seats; one naming a player to that seat only."""
    from annals.engine.registry import get_ruleset
    from annals.engine.simulate import make_header
    from annals.engine.table import LiveTable

    ruleset = get_ruleset("morana")
    header = make_header(ruleset, 3, ["clash", "glory"], ["external", "external"], known_agents=["external"])
    ticks = iter(range(10_000))
    path = tmp_path / "live.log"
    table = LiveTable(ruleset, header, path, bank_ms=60_000, now=lambda: next(ticks) * 0.25)
    for _ in range(7):
        assert table.question() is not None
        table.answer(0)
    table.question()
    table.abandon()
    left = list(table.clock_ms)
    intervene(path, Intervention("extra_time", "R. Vance", minutes=1))
    intervene(path, Intervention("extra_time", "R. Vance", minutes=3, player=1))
    resumed = resume_table(path)
    assert resumed.bank_ms == 60_000 and resumed.clock_ms == [left[0] + 60_000, left[1] + 240_000]


def _cut_while_thinking(path: Path, answers: int, think_ticks: int) -> tuple[list[int], int]:
    """A clocked live table (a fake clock of 0.25 s ticks): ``answers`` answers, then a question open for
    ``think_ticks`` ticks with ``LOG.open`` written as a server writes it, then cut short (the process dies).
    Returns the banks as recorded and the events written."""
    from annals.engine.registry import get_ruleset
    from annals.engine.simulate import make_header
    from annals.engine.table import LiveTable

    ruleset = get_ruleset("morana")
    header = make_header(ruleset, 3, ["clash", "glory"], ["external", "external"], known_agents=["external"])
    now = [0.0]
    table = LiveTable(ruleset, header, path, bank_ms=60_000, now=lambda: now[0])
    for _ in range(answers):
        assert table.question() is not None
        now[0] += 0.25
        table.answer(0)
    assert table.question() is not None
    now[0] += 0.25 * think_ticks
    table.note_open()
    table.abandon()
    return list(table.clock_ms), table.events_total


def test_annals_resume_charges_the_time_a_question_was_open_before_a_crash(tmp_path: Path) -> None:
    """[R-CORE-6] ``annals resume`` of a live log a server left with ``LOG.open`` (a question open 7.5 s when
    last written) charges that seat the 7.5 s, as the server's own crash resume does (the same
    ``charge_open``): a ClockCharged written to the log before the question is asked again, the file removed,
    and the game played on to the end verifies with the charge once in it."""
    from annals.engine.players import resume_live

    path = tmp_path / "live.log"
    banks, written = _cut_while_thinking(path, 6, 30)
    mark = read_open(path)
    assert mark is not None and mark.open_ms == 7_500
    table = resume_table(path)
    assert not open_path(path).exists()
    _, events, decisions, _, _ = read_live(path)  # the charge is on disk before anything is asked
    charge = events[written]
    assert type(charge) is ClockCharged and (charge.player, charge.spent_ms) == (mark.player, 7_500)
    assert charge.left_ms == banks[mark.player] - 7_500 == table.clock_ms[mark.player]
    assert table.replayed[-1] == charge and len(decisions) == mark.decision
    table.abandon()  # cut again before the question is answered: a second resume charges nothing more
    result = resume_live(path, ["random", "random"])
    game = read_log(path)
    assert game.close is not None and result.decisions == game.close.decisions
    assert rerun(game).ok and game.events[written] == charge
    assert sum(1 for e in game.events if type(e) is ClockCharged and e.spent_ms == 7_500 and e.n == charge.n) == 1


def test_annals_resume_does_not_charge_a_mark_of_another_question(tmp_path: Path) -> None:
    """[R-CORE-6] A ``LOG.open`` that names a decision other than the one pending (left from before a judge's
    backup, say) is not charged by ``annals resume``; it is removed so that it can never be."""
    path = tmp_path / "live.log"
    banks, written = _cut_while_thinking(path, 6, 30)
    mark = read_open(path)
    assert mark is not None
    stale = open_path(path)
    stale.write_bytes(stale.read_bytes().replace(b'"decision":%d' % mark.decision, b'"decision":%d' % (mark.decision
                                                                                                     + 3)))  # fmt: skip
    assert read_open(path) is not None and read_open(path).decision == mark.decision + 3  # type: ignore[union-attr]
    table = resume_table(path)
    assert table.clock_ms == banks and not stale.exists()
    _, events, _, _, _ = read_live(path)
    assert len(events) == written
