"""A served table's clocks start when its people have sat down; a no-show past the grace period loses the game;
a judge adds time to a table being played. Real servers on 127.0.0.1, real WebSocket clients."""

from __future__ import annotations

import time
from pathlib import Path

from annals.engine.replay import rerun
from annals.schemas.logfile import read_log
from annals.schemas.records import NO_SHOW_REASON, ClockCharged, Forfeited
from tests.serverkit import play_seat, recv, server

BANK_S = 120


def test_no_clock_runs_before_the_person_sits_down(tmp_path: Path) -> None:
    """[R-CORE-9] The person joins 2 s after the table is made: until then the table says it has not begun and
    nothing is charged; the person's first charge is only the time taken over the question once seated."""
    with server(tmp_path) as s:
        table = s.table("morana", ["clash", "glory"], ["human", "heuristic"], clock=BANK_S, seed=3)
        time.sleep(2)
        status, info = s.api(f"/api/tables/{table['table']}")
        assert status == 200 and not info["started"] and info["seated"] == [] and info["decisions"] == 0
        with s.socket(table["table"], table["tokens"][0]) as ws:
            got = play_seat(ws, 1)
        assert got[0]["clock_ms"] == [BANK_S * 1000, BANK_S * 1000]
        first_decide = next(m for m in got if m["type"] == "decide" and m["player"] == 0)
        assert first_decide["clock_ms"][0] > BANK_S * 1000 - 1000
        info = s.wait_over(table["table"])
    game = read_log(info["log"])
    charged = next(e for e in game.events if type(e) is ClockCharged and e.player == 0)
    assert charged.spent_ms < 1000 and rerun(game).ok


def test_a_seat_still_empty_when_the_grace_period_runs_out_loses_the_game(tmp_path: Path) -> None:
    """[R-CORE-9] Two people's table with a 1 s grace period (``annals serve --grace 1``): seat 1 sits down, seat 0
    never does; seat 1 wins with the end reason no-show, recorded as a Forfeited event; the log verifies."""
    with server(tmp_path, "--grace", "1") as s:
        table = s.table("morana", ["clash", "glory"], ["human", "human"], clock=BANK_S, seed=4)
        with s.socket(table["table"], table["tokens"][1]) as ws:
            got = play_seat(ws, 2)
        info = s.wait_over(table["table"])
    assert info["result"] == {"winner": 1, "reason": NO_SHOW_REASON}
    assert [m["type"] for m in got if m["type"] == "decide"] == [] and got[-2]["type"] == "game_over"
    game = read_log(info["log"])
    assert [type(e) for e in game.events] == [Forfeited] and game.events[0].player == 0
    assert game.close.winner == 1 and rerun(game).ok


def test_nobody_sitting_down_ends_the_game_without_a_winner(tmp_path: Path) -> None:
    """[R-CORE-9] Neither seat taken within the table's own grace period (the table API's ``grace``): the game ends
    without a winner, reason no-show."""
    with server(tmp_path) as s:
        table = s.table("morana", ["clash", "glory"], ["human", "human"], clock=BANK_S, seed=5, grace=1)
        info = s.wait_over(table["table"], timeout=20)
    assert info["result"] == {"winner": -1, "reason": NO_SHOW_REASON}
    game = read_log(info["log"])
    assert game.events[0].player == -1 and rerun(game).ok


def test_a_judge_adds_time_to_a_table_being_played(tmp_path: Path) -> None:
    """[R-CORE-7] While the person is asked, a judge gives seat 0 two minutes (``POST /api/tables/ID/extra-time``):
    the question comes again with the bank two minutes fuller, the log holds the judge's record, and the person's
    next charge counts down from the bank with the extra time."""
    with server(tmp_path) as s:
        table = s.table("morana", ["clash", "glory"], ["human", "heuristic"], clock=BANK_S, seed=6)
        with s.socket(table["table"], table["tokens"][0]) as ws:
            asked = play_seat(ws, 1, stop_after=2)[-1]
            for judge in ("", "J" * 65):  # a judge is named, within the bound every name has (schemas.names)
                status, why = s.api(f"/api/tables/{table['table']}/extra-time", {"judge": judge, "minutes": 2})
                assert status == 400 and "judge" in why["error"], why
            status, given = s.api(f"/api/tables/{table['table']}/extra-time",
                                  {"judge": "R. Vance", "minutes": 2, "player": 0, "reason": "deck check"})  # fmt: skip
            assert status == 200, given
            again = recv(ws)
            assert again["type"] == "decide" and again["decision"] == asked["decision"]
            assert again["clock_ms"][0] >= asked["clock_ms"][0] + 119_000
            assert again["clock_ms"][1] == asked["clock_ms"][1]
        with s.socket(table["table"], table["tokens"][0]) as ws:  # sat down again: the hello, then on to the end
            play_seat(ws, 1)
        refused, why = s.api(f"/api/tables/{table['table']}/extra-time", {"judge": "R. Vance", "minutes": 1})
        info = s.wait_over(table["table"])
    assert refused == 400 and "game in progress" in why["error"]
    game = read_log(info["log"])
    [judged] = game.judged
    assert (judged.record.kind, judged.record.minutes, judged.record.player) == ("extra_time", 2, 0)
    ours = [e for e in game.events if type(e) is ClockCharged and e.player == 0]
    before = [e for e in ours if e.n < judged.record.at_event][-1]
    after = next(e for e in ours if e.n >= judged.record.at_event)
    assert after.spent_ms + after.left_ms == before.left_ms + 120_000
    assert rerun(game).ok
