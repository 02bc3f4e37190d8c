"""A person against the search bot at a real terminal (a pseudo-terminal): while the bot thinks (up to a second a
decision, several a MORANA turn) the terminal says so once, then prints its plays as it makes them; it printed
nothing until the person's next question. Then ``quit`` leaves with the command that plays on, and that command
does."""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path

ANNALS = str(Path(sys.executable).parent / "annals")
ANSI = re.compile(r"\x1b\[[0-9;?]*[a-zA-Z]")


class Terminal:
    """``annals ARGS`` in a pseudo-terminal: what it prints, and lines typed at it."""

    def __init__(self, args: list[str], cwd: Path):
        self.leader, follower = os.openpty()
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        env |= {"NO_COLOR": "1", "ANNALS_HOME": str(cwd / "home")}
        self.proc = subprocess.Popen([ANNALS, *args], stdin=follower, stdout=follower, stderr=follower, cwd=cwd,
                                     env=env)  # fmt: skip
        os.close(follower)
        self.text = ""

    def read_until(self, pattern: str, timeout: float = 60) -> str:
        """Read until ``pattern`` (a regular expression) is in what was printed since ``mark``; the text so far."""
        deadline = time.monotonic() + timeout
        while not re.search(pattern, self.text):
            left = deadline - time.monotonic()
            assert left > 0, f"no {pattern!r} within {timeout} s; the terminal shows:\n{self.text[-2000:]}"
            ready, _, _ = select.select([self.leader], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.leader, 65536)
                except OSError:
                    chunk = b""
                assert chunk, f"the command ended before {pattern!r}:\n{self.text[-2000:]}"
                self.text += ANSI.sub("", chunk.decode(errors="replace")).replace("\r\n", "\n")
        return self.text

    def type(self, line: str) -> None:
        os.write(self.leader, (line + "\n").encode())

    def close(self) -> int:
        code = self.proc.wait(timeout=60)
        os.close(self.leader)
        return code


def test_the_terminal_says_the_search_bot_thinks_and_prints_its_plays_as_it_makes_them(tmp_path: Path) -> None:
    """[MOR-05] [MOR-07] A MORANA game against search: the person seals each Commit (the last option); the line
    saying the bot thinks comes once a stretch, before the bot's own plays and before the person's next question;
    quit then leaves, and the printed annals resume plays on from the same question."""
    term = Terminal(["play", "morana", "--players", "human,search", "--name", "Ann", "--seed", "5", "--out",
                     "game.log"], tmp_path)  # fmt: skip
    thinking = "search-1 is thinking (the search bot)..."
    for _ in range(3):  # three of the person's questions: each answered by sealing, or the last option
        text = term.read_until(r"\n> $")
        options = re.findall(r"\n\s+(\d+)  \S", text.rpartition("your decision")[2])
        term.type(options[-1])
        if "Seal" in text.rpartition("your decision")[2]:
            term.read_until(r"\[y/N\] $")
            term.type("y")
    text = term.read_until(r"\n> $", timeout=120)
    assert thinking in text
    stretch = text.rpartition(thinking)[2]  # what came after the last time it was said: the bot's plays
    assert text.count(thinking) >= 1 and stretch.count(thinking) == 0
    assert "search-1 places a card face-down" in stretch or "search-1 is done committing" in stretch
    assert stretch.index("search-1") < stretch.index("your decision")
    before = text.rpartition(thinking)[0].rpartition("\n> ")[2]
    assert "Ann" in before, "the person's own play is printed before the bot is said to think"
    term.type("quit")
    term.read_until(r"Leave\? \[y/N\] $")
    term.type("y")
    term.read_until(r"annals resume\s+game\.log\s+--players\s+human,search")
    assert term.close() == 0
    again = Terminal(["resume", "game.log", "--players", "human,search"], tmp_path)
    again.read_until(r"\n> $", timeout=120)
    again.type("concede")
    again.read_until(r"\[y/N\] $")
    again.type("y")
    again.read_until(r"appended to\s+game\.log")  # wrapped at the terminal's width, between words
    assert again.close() == 0
