"""``annals join`` back at the table after the server was stopped and started again (a real server on 127.0.0.1,
the client under tmux): the person is told the table is back and what happened while they were away, then asked
the question again; the game's hello and the whole history are not printed again (they were, every line of it),
and ``log`` still holds each event once."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from rich.console import Console

from annals.clients.terminal import TerminalUI
from annals.schemas import protocol as p
from tests.server.test_join_gives_up import QUESTION
from tests.server.test_terminal import Tmux, _wait
from tests.serverkit import start, stop

ANNALS = Path(sys.executable).parent / "annals"  # this checkout's, whatever else is on the PATH
SHUFFLES = "shuffles the deck"  # each seat's first event of the setup [MOR-33]


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux (.ci/run installs it)")
def test_back_at_the_table_the_person_is_asked_again_without_the_history_printed_again_MOR_12(tmp_path: Path) -> None:
    running = start(tmp_path)
    table = running.table("morana", ["clash", "glory"], ["human", "heuristic"])
    url, token = f"{running.base}/play/{table['table']}", table["tokens"][0]
    t = Tmux(f"{ANNALS} join {url} --token {token} --reconnect-for 30; echo EXIT=$?; sleep 60")
    try:
        before = _wait(t, QUESTION)
        assert before.count(SHUFFLES) == 2, before  # the setup's history, once: both seats shuffle
        stop(running)  # the organiser restarts the server while the person thinks at the prompt
        _wait(t, f"lost the connection to the table at {url}", timeout=10)
        running = start(tmp_path, running.port)
        _wait(t, f"reached the table at {url} again", timeout=40)
        _wait(t, "back at the table: nothing new while you were away; type board for the board, log for the "
                 "history", after=f"{url} again")  # fmt: skip
        screen = _wait(t, QUESTION, after="back at the table")
        again = screen.rpartition(f"{url} again")[2]
        assert SHUFFLES not in again and "you are" not in again, again  # no history, no hello a second time
        assert screen.count(SHUFFLES) == 2 and screen.count("type help for the commands") == 1, screen
        t.keys("log 500", "Enter")  # the history is a command away, each event once
        logged = _wait(t, "> ", after="log 500").rpartition("log 500")[2]
        assert logged.count(SHUFFLES) == 2, logged
    finally:
        t.close()
        stop(running)


def _event(n: int) -> p.EventMessage:
    return p.EventMessage({"kind": "Drew", "n": n}, f"event number {n}")


def test_only_what_happened_while_away_is_printed_after_a_reconnection() -> None:
    """The table sends the seat's view again from the start (``resumed_at`` events); of those, the ones the person
    had are kept out of the screen and the log, the ones that happened while they were away are printed."""
    console = Console(record=True, width=200)
    ui = TerminalUI(lambda _: "", console)
    ui.handle(p.Hello(1, "g1", "morana", "1", 0, [], [], [], [0, 0], 8))
    for n in range(3):
        ui.handle(_event(n))
    ui.handle(p.Hello(1, "g1", "morana", "1", 0, [], [], [], [0, 0], 8, resumed_at=5))  # two played meanwhile
    for n in range(5):
        ui.handle(_event(n))
    ui._flush_events()
    said = console.export_text()
    assert "back at the table: 2 events while you were away, below" in said, said
    assert [said.count(f"event number {n}") for n in range(5)] == [1, 1, 1, 1, 1], said
    assert list(ui.log) == [f"event number {n}" for n in range(5)]
