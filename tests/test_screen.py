"""The terminal's own width: what annals prints in words is wrapped between words to the width of the terminal it
runs in (it was cut mid-word by the terminal, or held at 120 columns by the game at the terminal), and kept whole,
one line a record, in a pipe (``schemas.screen``)."""

from __future__ import annotations

import fcntl
import io
import json
import os
import re
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from annals.clients.terminal import TerminalSeat
from annals.engine.simulate import simulate

ANNALS = str(Path(sys.executable).parent / "annals")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("screen")
    list(simulate("miras9", 1, 3, ["vanguard", "bastion"], ["random", "random"], folder))
    return next(folder.glob("*.log"))


def _in_a_terminal(args: list[str], cols: int) -> str:
    """What ``annals ARGS`` prints to a terminal ``cols`` wide (a pseudo-terminal, its size set as a window's)."""
    leader, follower = os.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, cols, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")} | {"NO_COLOR": "1"}
    proc = subprocess.Popen([ANNALS, *args], stdin=follower, stdout=follower,
                            stderr=follower, env=env)  # fmt: skip
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closed: the command is done
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    assert proc.wait(timeout=60) == 0
    return ANSI.sub("", b"".join(chunks).decode()).replace("\r\n", "\n")


def _words(text: str) -> list[str]:
    return text.split()


def test_show_wraps_between_words_at_the_terminals_width(log: Path) -> None:
    piped = subprocess.run([ANNALS, "show", str(log)], capture_output=True, text=True,
                           env={**os.environ, "COLUMNS": "80"}, check=True).stdout  # fmt: skip
    head = piped.splitlines()[0]
    assert len(head) > 80, "a pipe keeps each line whole, whatever COLUMNS says"
    narrow = _in_a_terminal(["show", str(log)], 80)
    assert max(len(line) for line in narrow.splitlines()) <= 80
    assert narrow.splitlines()[1] != piped.splitlines()[1], "the header wrapped onto a second line"
    assert _words(narrow) == _words(piped), "wrapped between words: no word cut in two"
    wide = _in_a_terminal(["show", str(log)], 200)
    assert wide.splitlines()[0].rstrip() == head, "a wide terminal keeps the header on one line"


def test_the_game_at_the_terminal_uses_the_terminals_width(monkeypatch: pytest.MonkeyPatch) -> None:
    """It was fixed at 120 columns: cut mid-word by a narrower terminal, wasting a wider one."""

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    sentence = " ".join(f"word{k}" for k in range(60))
    for cols in (60, 200):
        monkeypatch.setenv("COLUMNS", str(cols))
        screen = Terminal()
        TerminalSeat(io.StringIO(), screen).ui.out.print(sentence, markup=False)
        lines = ANSI.sub("", screen.getvalue()).splitlines()
        assert max(len(line) for line in lines) <= cols and _words("\n".join(lines)) == sentence.split()
        assert len(lines) == -(-len(sentence) // cols) or len(lines) == -(-len(sentence) // cols) + 1
    piped = io.StringIO()
    TerminalSeat(io.StringIO(), piped).ui.out.print(sentence, markup=False)
    assert piped.getvalue() == sentence + "\n", "a pipe gets the line whole"


def test_json_lines_stay_whole_on_a_narrow_terminal(log: Path) -> None:
    """Wrapping is for words: a JSON record printed to a terminal is one line, whatever its width."""
    shown = _in_a_terminal(["show", str(log), "--format", "json"], 60)
    lines = [line for line in shown.splitlines() if line]
    assert any(len(line) > 60 for line in lines)
    for line in lines:
        json.loads(line)


def test_csv_and_json_of_an_event_and_the_pool_stay_whole_on_a_narrow_terminal(tmp_path: Path) -> None:
    event, deck = str(tmp_path / "ev"), str(tmp_path / "v.txt")
    for args in (
        ["event", "new", event, "--ruleset", "miras9"],
        ["deck", "miras9", "vanguard", "--output", deck],
        ["event", "register", event, "--name", "Ada Lovelace, Countess of Lovelace", "--deck", deck],
    ):
        subprocess.run([ANNALS, *args], check=True, capture_output=True)  # fmt: skip
    for args in (["event", "players", event, "--format", "json"], ["cards", "miras9", "-f", "csv"]):
        shown = [line for line in _in_a_terminal(args, 40).splitlines() if line]
        assert any(len(line) > 40 for line in shown), args
        if "json" in args:
            assert len(shown) == 1 and json.loads(shown[0])[0]["name"] == "Ada Lovelace, Countess of Lovelace"
        else:  # the same lines as through a pipe: none cut in two
            piped = subprocess.run([ANNALS, *args], capture_output=True, text=True, check=True).stdout
            assert shown == [line for line in piped.splitlines() if line]
