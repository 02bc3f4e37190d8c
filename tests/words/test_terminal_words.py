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

from annals.clients.terminal import TerminalUI, human_seat
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


def _ui_knowing(names: list[str]) -> tuple[TerminalUI, io.StringIO]:
    from rich.console import Console

    from annals.schemas import protocol as p

    shown = io.StringIO()
    ui = TerminalUI(lambda prompt: "", Console(file=shown, width=200, highlight=False))
    ui._learn([p.Card(1000 + i, f"c{i}", name, f"text of {name}") for i, name in enumerate(names)])
    return ui, shown


def test_card_without_a_name_asks_for_one_and_many_matches_say_how_many_more() -> None:
    """``card`` alone said ``no card you can see is called ''``; a name held by more than five cards printed five
    and kept quiet about the rest. The card named exactly comes first."""
    ui, shown = _ui_knowing(["Bannik", "Vodyanoy", "Kikimora", "Leshy", "Baba Yaga", "Rusalka", "Alkonost", "Gamayun"])
    ui.show_card("  ")
    assert shown.getvalue() == "  which card? Type card and a name, or part of one (card alkonost)\n"
    shown.seek(0), shown.truncate()
    ui.show_card("A")  # seven names hold an a
    lines = shown.getvalue().splitlines()
    assert [line.split(":")[0].strip() for line in lines[:5]] == ["Alkonost", "Baba Yaga", "Bannik", "Gamayun",
                                                                  "Kikimora"]  # fmt: skip
    assert lines[5:] == ["  and 2 more cards hold 'A': type more of the name"]
    shown.seek(0), shown.truncate()
    ui.show_card("ik")
    assert shown.getvalue() == "  Bannik: text of Bannik\n  Kikimora: text of Kikimora\n"
    shown.seek(0), shown.truncate()
    ui.show_card("bannik")
    assert shown.getvalue() == "  Bannik: text of Bannik\n"


def test_the_card_named_exactly_comes_before_longer_names_holding_it() -> None:
    ui, shown = _ui_knowing(["Ash Bannik", "Bannik", "Bannik Elder"])
    ui.show_card("Bannik")
    assert [line.split(":")[0].strip() for line in shown.getvalue().splitlines()] == ["Bannik", "Ash Bannik",
                                                                                      "Bannik Elder"]  # fmt: skip


def test_log_with_a_word_that_is_no_number_says_what_it_takes() -> None:
    """``log x`` printed the last 20 events as if nothing were wrong."""
    from rich.console import Console

    from annals.schemas import protocol as p

    answers = iter(["log x", "1"])
    shown = io.StringIO()
    ui = TerminalUI(lambda prompt: next(answers), Console(file=shown, width=200, highlight=False), confirm=False)
    ui.decide = p.Decide(1, 0, "commit", [p.Option(0, "Done", {}, "Seal the Commit")], [0, 0])
    assert isinstance(ui.prompt(), p.Answer)
    assert "  log takes a number of events: log 40 (it was given 'x')" in shown.getvalue().splitlines()


def test_the_winner_at_the_table_is_told_in_the_third_person_as_the_name_is() -> None:
    """It read "Bob (you) win: the survival clock"."""
    from annals.engine.registry import get_ruleset
    from annals.engine.seats import SeatStream
    from annals.engine.simulate import make_header

    ruleset = get_ruleset("toy")
    stream = SeatStream(ruleset, make_header(ruleset, 1, ["pile", "pile"], ["random", "random"]), 0)
    assert stream.game_over(0, "concession", 9, 3).text.endswith(" (you) wins: the opponent conceded")
    assert " (you)" not in stream.game_over(1, "concession", 9, 3).text


def test_the_morana_winner_at_the_table_reads_as_the_end_line() -> None:
    """[MOR-05] The table's game over says the end as the event does ("Bob reaches 13 Slava and wins"; it read
    "Bob wins: 13 Slava"), and the winner's own seat is told with "(you)" after the name, not inside the verb."""
    from annals.engine.registry import get_ruleset
    from annals.engine.seats import SeatStream
    from annals.engine.simulate import make_header

    ruleset = get_ruleset("morana")
    header = make_header(ruleset, 1, ["starter-sun", "starter-winter"], ["random", "random"])
    names = [pl.name for pl in header.players]
    mine, theirs = SeatStream(ruleset, header, 1), SeatStream(ruleset, header, 0)
    assert mine.game_over(1, "slava_13", 9, 3).text == f"{names[1]} (you) reaches 13 Slava and wins"
    assert theirs.game_over(1, "slava_13", 9, 3).text == f"{names[1]} reaches 13 Slava and wins"
