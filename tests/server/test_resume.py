"""Resuming a live log keeps each seat's time bank as the log recorded it: the server's own crash resume
(``LiveTable.resume``) and ``annals resume`` (``judge.resume_table``), with a clock that is not the wall's."""

from __future__ import annotations

from pathlib import Path

from annals.engine.judge import resume_table
from annals.engine.players import run_table
from annals.engine.registry import get_ruleset
from annals.engine.replay import rerun
from annals.engine.simulate import make_header
from annals.engine.table import LiveTable, recorded_clocks
from annals.schemas.logfile import read_log
from annals.schemas.records import ClockCharged
from tests.live import RandomClient

BANK_MS = 60_000


class Ticking:
    """A clock that moves 0.7 s each time it is read: every decision costs its seat time."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        self.t += 0.7
        return self.t


def _cut_short(path: Path, decisions: int) -> list[int]:
    ruleset = get_ruleset("morana")
    header = make_header(ruleset, 11, ["clash", "glory"], ["external", "external"], known_agents=["external"])
    table = LiveTable(ruleset, header, path, bank_ms=BANK_MS, now=Ticking())
    for _ in range(decisions):
        assert table.question() is not None
        table.answer(0)
    assert table.question() is not None
    table.abandon()  # the server dies here
    return list(table.clock_ms)


def test_the_server_resume_restores_each_seats_time_bank(tmp_path: Path) -> None:
    """[R-CORE-5] After 9 decisions each seat has spent time; the resumed table's banks are the recorded ones."""
    path = tmp_path / "live.log"
    left = _cut_short(path, 9)
    assert all(ms < BANK_MS for ms in left)
    resumed = LiveTable.resume(path, bank_ms=BANK_MS)
    assert resumed.clock_ms == left
    result = run_table(resumed, [RandomClient(resumed, 1), RandomClient(resumed, 2)])
    assert rerun(read_log(path)).ok and result.end_reason


def test_annals_resume_restores_time_banks_read_from_the_log(tmp_path: Path) -> None:
    """[R-CORE-5] ``annals resume`` is not told the bank: it reads it from the first charge of each seat (spent
    + left) and each seat goes on from its last recorded bank; the next charge counts down from there."""
    path = tmp_path / "live.log"
    left = _cut_short(path, 9)
    table = resume_table(path)
    assert table.bank_ms == BANK_MS and table.clock_ms == left
    seat = table.question()
    assert seat is not None
    table.answer(0)
    charge = next(e for e in table.game.events if type(e) is ClockCharged)
    assert charge.left_ms + charge.spent_ms == left[seat.player]


def test_recorded_clocks_of_a_log_without_a_clock_is_no_clock() -> None:
    assert recorded_clocks([], 2) == (0, [0, 0])
