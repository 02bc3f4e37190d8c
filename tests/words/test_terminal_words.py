"""[DESIGN 14] The terminal client says things in words too: whole games of both rulesets played at the terminal
(``annals play``'s client, answers typed in), every line it prints (the events, the questions and options, the
board, the hand, the log, the help and the end) scanned as the protocol's texts are (``test_tokens``): no field
name, Python value, sentinel, instance number, raw zone name, card id, lane in the board's capitals or seat label
where the players have names."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest

from annals.clients.terminal import human_seat
from annals.engine.players import play_live
from annals.engine.registry import get_ruleset
from tests.words.test_tokens import CAPITALS, offences

SEAT = re.compile(r"\b(p[01]|seat \d|player [12])\b")
COMMANDS = "help\nboard\nhand\nlog 40\n"  # typed at the first question, then again every few answers
# the help's own words: the commands a person types (card NAME, log [N]) are not internal tokens
HELP_LINES = re.compile(r"^\s+(card NAME|log \[N\]|stop NAME|stop: NAME)\s")


@pytest.mark.parametrize(("ruleset", "decks"), [("miras9", ["vanguard", "bastion"]), ("morana", ["clash", "glory"])])
def test_every_line_the_terminal_prints_is_words(tmp_path: Path, ruleset: str, decks: list[str]) -> None:
    rng = random.Random(7)
    answers = COMMANDS + "".join(
        (COMMANDS if i % 25 == 0 else "") + f"{rng.choice([0, 0, 1, 1, 2, 3])}\n" for i in range(4000)
    )
    shown = io.StringIO()
    result = play_live(ruleset, decks, ["human", "heuristic"], 7, tmp_path / "game.log", names=["Ann", "Bo"],
                       human=human_seat(io.StringIO(answers), shown))  # fmt: skip
    assert result.end_reason not in ("concession", "turn_cap"), result  # a whole game, to its end by the rules
    lines = [line for line in shown.getvalue().splitlines() if line.strip() and not HELP_LINES.match(line)]
    ids = frozenset(get_ruleset(ruleset).cards())
    bad = [f"{why} in {line!r}" for line in lines for why in offences(line, ids)]
    bad += [f"the board's capitals in {line!r}" for line in lines if CAPITALS.search(line)]
    bad += [f"a seat label in {line!r}" for line in lines if SEAT.search(line)]
    assert not bad, "\n".join(bad[:20])
    printed = "\n".join(lines)
    assert "Bo wins" in printed or "Ann wins" in printed  # the end, in names
    assert len(lines) > 300 and "Deck" in printed  # the board was printed, not only the events
