"""The commentator's page follows a live game as it says (docs/commentator.md, "Following a live game"): the
``annals serve`` line it shows opens a table and prints its spectators' link; ``annals join`` on that link follows
the game in words, as a spectator, to its end; the log is then in the server's data folder. The page had no word
on a live game: a commentator found the spectators' link only on the player's page."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

from tests.serverkit import start, stop

PAGE = Path(__file__).resolve().parents[2] / "docs" / "commentator.md"
ANNALS = str(Path(sys.executable).parent / "annals")


def test_the_pages_serve_and_join_lines_follow_a_live_game_to_its_end(tmp_path: Path) -> None:
    section = PAGE.read_text().split("## Following a live game", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```text\n(.*?)```", section, re.S)
    assert block is not None
    lines = block.group(1).splitlines()
    serve = shlex.split(next(line for line in lines if line.startswith("$ annals serve ")))[2:]
    expected = [line for line in lines if not line.startswith("$") and line != "..."]
    running = start(tmp_path / "data", None, *serve[1:])
    try:
        assert running.proc.stdout is not None
        printed = running.proc.stdout.readline().decode()
        link = re.fullmatch(r"table (\w+) spectators: (\S+)\n", printed)
        assert link is not None, printed
        followed = subprocess.run([ANNALS, "join", link.group(2)], stdin=subprocess.DEVNULL, capture_output=True,
                                  text=True, timeout=120)  # fmt: skip
    finally:
        stop(running)
    assert followed.returncode == 0, followed.stderr
    said = followed.stdout.splitlines()
    assert said[0].split(": ", 1)[1] == expected[1].split(": ", 1)[1]  # who plays, and "you are a spectator"
    assert any(line.startswith("game over: ") for line in said), said[-5:]
    assert (tmp_path / "data" / "tables" / f"{link.group(1)}.log").is_file()
