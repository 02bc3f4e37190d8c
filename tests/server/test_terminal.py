"""The terminal client under tmux (keys sent, the screen read): ``annals join`` plays a whole game on a served
table; Ctrl-C asks first, and leaving is a recorded concession."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from annals.engine.replay import rerun
from annals.engine.table import read_live
from annals.schemas.logfile import read_log
from tests.serverkit import Running, server

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux (.ci/run installs it)")


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    with server(tmp_path_factory.mktemp("tmux")) as s:
        yield s


class Tmux:
    def __init__(self, command: str):
        self.socket = f"annals-test-{uuid.uuid4().hex[:8]}"
        self._run("new-session", "-d", "-x", "160", "-y", "50", "-s", "t", command)

    def _run(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=True).stdout

    def keys(self, *keys: str) -> None:
        self._run("send-keys", "-t", "t", *keys)

    def screen(self) -> str:
        return self._run("capture-pane", "-p", "-t", "t", "-S", "-2000")

    def last_line(self) -> str:
        lines = [line for line in self.screen().splitlines() if line.strip()]
        return lines[-1] if lines else ""

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, check=False)


def _join(running: Running, table: dict[str, str]) -> Tmux:
    annals = Path(sys.executable).parent / "annals"  # this checkout's, whatever else is on the PATH
    url = f"{running.base}/play/{table['table']}"
    return Tmux(f"{annals} join {url} --token {table['tokens'][0]}; echo CLIENT-EXITED; sleep 30")


def _wait(t: Tmux, what: str, timeout: float = 20, after: str = "") -> str:
    """Wait until ``what`` is on the screen (after the last ``after``, when given), its words matched across a line
    the client wrapped (a detached pane starts at 80 columns and takes its size a moment after the client starts)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        screen = t.screen()
        words = " ".join((screen.rpartition(after)[2] if after else screen).split())
        if " ".join(what.split()) in words:
            return screen
        time.sleep(0.05)
    raise AssertionError(f"{what!r} not on the screen:\n{t.screen()[-3000:]}")


def test_the_terminal_client_plays_a_whole_game_under_tmux(running: Running) -> None:
    """[MOR-15] A person's keys: help, board (names, counters), hand, card NAME, log, a wrong number, Ctrl-C
    answered no, then numbers (confirming the final ones) to the end of the game; the log verifies."""
    table = running.table("morana", ["clash", "glory"], ["human", "heuristic"])
    t = _join(running, table)
    try:
        _wait(t, "Commit: place cards face-down")
        for command, expect in (("help", "face-down"), ("board", "Deck 1"), ("hand", "spirit, cost"),
                                ("log 5", "at Dawn"), ("99", "is not an option"),
                                ("stop my attack", "stops: my attack"), ("stop my_attack", "stops: none")):  # fmt: skip
            t.keys(command, "Enter")
            _wait(t, expect, after=f"> {command}")
        found = re.search(r"^ +(\S[^:\n]*?): (spirit|charm), cost", t.screen(), re.MULTILINE)
        assert found, t.screen()
        name = found.group(1)
        t.keys(f"card {name.lower()}", "Enter")
        _wait(t, f"> card {name.lower()}")
        _wait(t, f"  {name}: {found.group(2)}, cost")
        t.keys("C-c")
        t.keys("n", "Enter")  # typed at once, before the question is printed: kept for it, not swallowed
        _wait(t, "leave the game? It counts as a concession.")
        sent_at = ""
        stalled_at = time.monotonic() + 30  # no new prompt for 30 s: stuck (a loaded machine is slow, not stuck)
        while time.monotonic() < stalled_at:
            screen = t.screen()
            if "result: " in screen:
                break
            last = t.last_line().rstrip()
            # an open prompt, not yet answered; "> " can follow the leave question on its line ("[y/N] >") when the
            # "n" typed ahead was read there without an echo of its own
            if screen != sent_at and (last.endswith(">") or last.endswith("[y/N]")):
                t.keys("y" if last.endswith("[y/N]") else "1", "Enter")
                sent_at, stalled_at = screen, time.monotonic() + 30
            time.sleep(0.03)
        screen = _wait(t, "CLIENT-EXITED")
        assert "game over: " in screen and re.search(r"result: \S+ (\(you\) )?(reaches 13 Slava and )?wins?", screen)
    finally:
        t.close()
    info = running.wait_over(table["table"])
    game = read_log(info["log"])
    assert rerun(game).ok and game.close.end_reason not in ("concession", "time")


def test_leaving_with_ctrl_c_is_a_recorded_concession(running: Running) -> None:
    table = running.table("morana", ["clash", "glory"], ["human", "heuristic"])
    t = _join(running, table)
    try:
        _wait(t, "Commit: place cards face-down")
        t.keys("C-c")
        _wait(t, "leave the game?")
        t.keys("y", "Enter")
        _wait(t, "CLIENT-EXITED")
    finally:
        t.close()
    game = read_log(running.wait_over(table["table"])["log"])
    assert game.close.end_reason == "concession" and game.close.winner == 1
    assert type(game.events[-1]).__name__ == "Forfeited" and rerun(game).ok


def test_quit_leaves_the_table_and_the_printed_command_takes_the_seat_again(running: Running) -> None:
    """R-CORE-5: ``quit`` at the prompt (it was "not an option or a command") closes the connection, not the game:
    the table waits, and the command printed for the person, run as it is, takes the seat again at the same
    question."""
    table = running.table("morana", ["clash", "glory"], ["human", "heuristic"])
    t = _join(running, table)
    try:
        _wait(t, "Commit: place cards face-down")
        t.keys("quit", "Enter")
        _wait(t, "leaving closes your connection, not the game")
        t.keys("y", "Enter")
        screen = _wait(t, "CLIENT-EXITED")
    finally:
        t.close()
    printed = re.findall(r"annals join \S+ --token \S+", screen.partition("you left the table")[2])[0]
    assert table["tokens"][0] in printed and "not an option" not in screen
    status, info = running.api(f"/api/tables/{table['table']}")
    assert status == 200 and not info["over"] and read_live(info["log"])[3] is None  # no result: the game waits
    annals = Path(sys.executable).parent / "annals"
    t = Tmux(f"{annals} {printed.removeprefix('annals ')}; echo CLIENT-EXITED; sleep 30")
    try:
        _wait(t, "Commit: place cards face-down")
        t.keys("concede", "Enter")
        _wait(t, "concede the game?")
        t.keys("y", "Enter")
        _wait(t, "CLIENT-EXITED")
    finally:
        t.close()
    game = read_log(running.wait_over(table["table"])["log"])
    assert game.close.end_reason == "concession" and game.close.winner == 1 and rerun(game).ok


def test_a_spectator_in_the_terminal_sees_the_board_as_it_stood_delay_decisions_ago(running: Running) -> None:
    """[MOR-07] ``annals join`` with the spectators' token: the board is drawn for the spectator (titled so) as
    the events reach it, with card names on the Sites; the game is played by a client over the socket."""
    import threading

    from annals.engine.registry import get_ruleset
    from annals.schemas.text import card_names
    from tests.serverkit import play_seat

    table = running.table("morana", ["clash", "glory"], ["human", "heuristic"], delay=2)
    annals = Path(sys.executable).parent / "annals"
    url = f"{running.base}/play/{table['table']}"
    t = Tmux(f"{annals} join {url} --token {table['spectator_token']}; echo CLIENT-EXITED; sleep 30")
    try:
        _wait(t, "you are a spectator")
        with running.socket(table["table"], table["tokens"][0]) as ws:
            seat = threading.Thread(target=play_seat, args=(ws, 5), daemon=True)
            seat.start()
            seat.join(60)
        screen = _wait(t, "CLIENT-EXITED", timeout=60)
    finally:
        t.close()
    game = read_log(running.wait_over(table["table"])["log"])
    assert screen.count("- watching") >= 3 and "game over: " in screen
    pool, instances = get_ruleset("morana").cards(), card_names(game.header)
    flipped = {pool[instances[c]].name for e in game.events if type(e).__name__ == "Flipped" for c in e.cards}
    assert flipped and any(name in screen for name in flipped)  # cards flipped at Dusk, by name on its board
    assert rerun(game).ok


def test_the_seats_browser_address_joins_at_the_terminal_as_printed(running: Running) -> None:
    """``annals serve`` prints each seat's address for a browser with the token in it; pasted into ``annals join``
    it was refused (``Missing option '--token'``). It joins; an address with no token says how to give one."""
    table = running.table("morana", ["clash", "glory"], ["human", "heuristic"])
    annals = Path(sys.executable).parent / "annals"
    url = f"{running.base}/play/{table['table']}?token={table['tokens'][0]}"
    t = Tmux(f"{annals} join '{url}'; echo CLIENT-EXITED; sleep 30")
    try:
        _wait(t, "Commit: place cards face-down")
        t.keys("C-c")
        _wait(t, "leave the game? It counts as a concession.")
        t.keys("y", "Enter")
        _wait(t, "CLIENT-EXITED")
    finally:
        t.close()
    bare = subprocess.run([str(annals), "join", f"{running.base}/play/{table['table']}"], capture_output=True,
                          text=True, timeout=60)  # fmt: skip
    assert bare.returncode != 0 and "Traceback" not in bare.stderr + bare.stdout
    assert "give the seat's token with --token TOKEN" in bare.stderr + bare.stdout
