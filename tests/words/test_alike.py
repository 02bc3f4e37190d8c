"""Ruling R-CORE-10: options that read alike. Copies of one card in the same place with the same marks are one
choice (the later options ``same_as`` the first), copies the player can tell apart say what differs, cards the
player cannot identify are told apart by order; then the same in whole games, as the protocol sends them."""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from annals.engine import forced
from annals.engine.players import play_live
from annals.engine.words import Words
from annals.engine.words.alike import tell_apart
from annals.schemas import miras9 as sm
from annals.schemas import morana as sr
from annals.schemas import protocol as p
from annals.schemas.logfile import read_log

NAMES = {1000: "Kikimora", 1001: "Kikimora", 1002: "Upyr", 1004: "Raider", 1005: "Raider", 2003: "Recruit"}


def _words(ruleset: str) -> Words:
    return Words(ruleset, lambda c: NAMES.get(c, "a hidden card"), ["Ann", "Bo"])


def _look(seen: Mapping[int, tuple[str, ...]]) -> Callable[[int], tuple[str, ...]]:
    return lambda c: seen[c]


def test_two_copies_in_hand_are_one_choice_mapped_to_the_first() -> None:
    """[MOR-35] [MOR-15] Two Kikimoras in hand made ``Commit Kikimora at Site 1`` twice: one choice now, the later
    option ``same_as`` the first, at each Site; a different card stays a choice of its own."""
    hand = {c: (cid, NAMES[c], "in hand") for c, cid in ((1000, "kikimora"), (1001, "kikimora"), (1002, "upyr"))}
    options = [sr.Place(1000, 1), sr.Place(1000, 2), sr.Place(1001, 1), sr.Place(1001, 2), sr.Place(1002, 1),
               sr.Done()]  # fmt: skip
    told = tell_apart(_words("morana"), options, "commit", _look(hand))
    assert told.same_as == [-1, -1, 0, 1, -1, -1]
    assert told.texts[:2] == ["Commit Kikimora at Site 1", "Commit Kikimora at Site 2"]
    shown = [t for t, same in zip(told.texts, told.same_as, strict=True) if same < 0]
    assert len(shown) == len(set(shown)) == 4  # no two choices read alike
    # the order of the options decides which is kept, never the instance numbers: a log replays the same
    again = tell_apart(_words("morana"), [options[2], options[0]], "commit", _look(hand))
    assert again.same_as == [-1, 0]


def test_copies_the_player_can_tell_apart_say_the_difference() -> None:
    """[M9-015] [M9-073] Two Raiders, one wounded and tapped: two choices, each saying what marks it; two copies
    in different places say where each is."""
    marked = {1004: ("raider", "Raider", "in Ann's Exterior lane", "tapped", "1 wound"),
              1005: ("raider", "Raider", "in Ann's Exterior lane")}  # fmt: skip
    told = tell_apart(_words("miras9"), [sm.AddAttacker(1004, 0), sm.AddAttacker(1005, 0)], "attackers",
                      _look(marked))  # fmt: skip
    assert told.same_as == [-1, -1]
    assert told.texts == ["Attack with Raider at the Site (tapped, 1 wound)",
                          "Attack with Raider at the Site (no marks)"]  # fmt: skip
    apart = {1004: ("raider", "Raider", "in Ann's Exterior lane"), 1005: ("raider", "Raider", "in Ann's Space lane")}
    told = tell_apart(_words("miras9"), [sm.PayPoint("hand", 1004), sm.PayPoint("hand", 1005)], "battle_damage",
                      _look(apart))  # fmt: skip
    assert told.texts == ["Pay with Raider from your hand (in Ann's Exterior lane)",
                          "Pay with Raider from your hand (in Ann's Space lane)"]  # fmt: skip


def test_cards_the_player_cannot_identify_are_never_merged() -> None:
    """A hidden card may not be what another hidden card is: two such options stay two, told apart by order."""
    lane = ("", "a hidden card", "in Bo's Exterior lane")
    hidden = {2001: lane, 2002: lane}
    told = tell_apart(_words("miras9"), [sm.AddAttacker(1004, 2001), sm.AddAttacker(1004, 2002)], "attackers",
                      _look({**hidden, 1004: ("raider", "Raider", "in Ann's Exterior lane")}))  # fmt: skip
    assert told.same_as == [-1, -1]
    assert told.texts == ["Attack with Raider at a hidden card (the first of 2)",
                          "Attack with Raider at a hidden card (the second of 2)"]  # fmt: skip


class _Seat:
    """A person at the protocol who answers at random among the choices shown (never a ``same_as`` option)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.decides: list[p.Decide] = []
        self.cards: dict[int, str] = {}
        self.settings = forced.ANSWER_LONE

    def send(self, message: Any) -> None:
        if isinstance(message, p.Decide):
            self.decides.append(message)
        for card in getattr(message, "cards", []) or []:
            self.cards[card.instance] = card.id

    def receive(self) -> p.ClientMessage:
        d = self.decides[-1]
        shown = [o for o in d.options if o.same_as < 0]
        return p.Answer(self.rng.choice(shown).index, d.decision)


def test_whole_games_never_show_two_choices_that_read_alike(tmp_path: Path) -> None:
    """[MOR-15] [M9-015] Whole games through the protocol: no question shows two choices with one text, every
    ``same_as`` option is the same kind of move with copies of the same cards (in hand, or an opponent's two
    alike Units as targets), and the log records the option the
    person chose as it was shown."""
    merged = 0
    for ruleset, decks, seed in (("morana", ["clash", "glory"], 11), ("miras9", ["vanguard", "tempest"], 3)):
        seats: list[_Seat] = []

        def human(player: int, rs: Any, seats: list[_Seat] = seats) -> _Seat:
            seats.append(_Seat(player))
            return seats[-1]

        out = tmp_path / f"{ruleset}.log"
        play_live(ruleset, decks, ["human", "heuristic"], seed, out, human=human, max_turns=30)
        seat = seats[0]
        for d in seat.decides:
            shown = [o.text for o in d.options if o.same_as < 0]
            assert len(shown) == len(set(shown)), (d.question, shown)
            for o in d.options:
                if o.same_as >= 0:
                    first = d.options[o.same_as]
                    merged += 1
                    assert first.same_as < 0 and first.text == o.text and first.kind == o.kind
                    differ = [k for k in o.fields if o.fields[k] != first.fields[k]]
                    assert differ, o  # a copy: some instance differs, and each is of the same card
                    assert all(seat.cards[o.fields[k]] == seat.cards[first.fields[k]] for k in differ), (o, first)
        asked = {d.decision: d for d in seat.decides}
        chosen = [d for d in read_log(out).decisions if d.player == 0 and not d.automatic]
        assert chosen and all(asked[d.n].options[d.chosen].same_as < 0 for d in chosen)
    assert merged > 0  # the games met copies in hand


def test_the_terminal_lists_one_choice_for_copies_and_answers_the_first() -> None:
    """[MOR-15] The terminal listed ``Commit Kikimora at Site 1`` twice; it lists one choice per line, numbered
    from 1 over what it shows, and the number typed answers the option shown (the first of the copies)."""
    from rich.console import Console

    from annals.clients.terminal import TerminalUI

    options = [p.Option(0, "Place", {"card": 1000, "site": 1}, "Commit Kikimora at Site 1", card=1000, where="site:1"),
               p.Option(1, "Place", {"card": 1001, "site": 1}, "Commit Kikimora at Site 1", card=1001, where="site:1",
                        same_as=0),
               p.Option(2, "Done", {}, "Seal the Commit", confirm=True)]  # fmt: skip
    answers = iter(["3", "2"])
    shown = io.StringIO()
    ui = TerminalUI(lambda prompt: next(answers), Console(file=shown, width=200, highlight=False), confirm=False)
    ui.decide = p.Decide(4, 0, "commit", options, [0, 0], "Commit")
    answer = ui.prompt()
    lines = shown.getvalue().splitlines()
    assert [line for line in lines if "Kikimora" in line] == ["    1  Commit Kikimora at Site 1"]
    assert "    2  Seal the Commit *" in lines
    assert "  '3' is not an option: type a number from 1 to 2" in lines
    assert answer == p.Answer(2, 4)  # the second line shown is the seal, the option at index 2


def test_a_copy_carrying_equipment_is_told_apart_from_one_without() -> None:
    """[M9-041] [M9-015] Equipment is a separate card on its host, no counter on it: two Recruits in one lane, one
    carrying a Vibro Blade, were one choice (the Blade gives +1 ATK). The seat's own view tells them apart."""
    from annals.engine.registry import get_ruleset
    from annals.engine.seats import SeatStream
    from annals.engine.simulate import make_header

    ruleset = get_ruleset("miras9")
    stream = SeatStream(ruleset, make_header(ruleset, 1, ["vanguard", "tempest"], ["random", "random"]), 0)
    state: Any = stream.view.state
    cards = state.cards
    recruits = sorted(c for c, cs in cards.items() if cs.cid == "char-recruit" and c < 2000)[:2]
    blade = min(c for c, cs in cards.items() if cs.cid == "eq-blade" and c < 2000)
    for c in (*recruits, blade):
        cards[c].zone = "lane:0:exterior"
    options = [sm.AddAttacker(recruits[0], 0), sm.AddAttacker(recruits[1], 0)]
    assert tell_apart(stream.words, options, "attackers", stream.look()).same_as == [-1, 0]  # alike: one choice
    cards[blade].host = recruits[1]
    told = tell_apart(stream.words, options, "attackers", stream.look())
    assert told.same_as == [-1, -1]
    assert told.texts == ["Attack with Recruit at the Site (no marks)",
                          "Attack with Recruit at the Site (carrying Vibro Blade)"]  # fmt: skip


def _copies_ui(automatic: bool, answers: list[str]) -> tuple[Any, io.StringIO]:
    from rich.console import Console

    from annals.clients.terminal import TerminalUI

    replies = iter(answers)
    shown = io.StringIO()
    ui = TerminalUI(lambda prompt: next(replies), Console(file=shown, width=200, highlight=False), confirm=False,
                    cover_s=(0.0, 0.0))  # fmt: skip
    ui.settings = p.Settings(automatic=automatic, auto_pass=True)
    options = [p.Option(0, "Place", {"card": 1000, "site": 1}, "Commit Kikimora at Site 1", card=1000, where="site:1"),
               p.Option(1, "Place", {"card": 1001, "site": 1}, "Commit Kikimora at Site 1", card=1001, where="site:1",
                        same_as=0)]  # fmt: skip
    ui.decide = p.Decide(9, 0, "commit", options, [0, 0], "Commit")
    return ui, shown


def test_the_terminal_answers_a_question_of_copies_alone_for_the_person() -> None:
    """Ruling R-CORE-11, [MOR-35]: two copies of Kikimora and nothing else are one answer. With lone answers on the
    terminal sends the first copy unasked and prints that it did; with ``auto off`` it asks, numbered from 1."""
    ui, shown = _copies_ui(True, [])  # no reply to read: reading one would raise StopIteration
    assert ui.prompt() == p.Answer(0, 9)
    assert "  answered for you: Commit Kikimora at Site 1 (copies of one card: the only answer)" in shown.getvalue()
    assert "your decision" not in shown.getvalue()
    ui, shown = _copies_ui(False, ["1"])
    assert ui.prompt() == p.Answer(0, 9)
    assert "    1  Commit Kikimora at Site 1" in shown.getvalue().splitlines()
    assert "answered for you" not in shown.getvalue()


def test_keeping_the_opening_hand_is_not_confirmed_a_mulligan_is() -> None:
    """[M9-021] Keeping the hand discards nothing and is the commonest answer: no "Sure?". A mulligan shuffles the
    hand away for good: the protocol still flags it to confirm. [MOR-33] MORANA's flags are as they were."""
    from annals.engine.registry import get_ruleset
    from annals.engine.seats import SeatStream
    from annals.engine.simulate import make_header

    m9 = get_ruleset("miras9")
    stream = SeatStream(m9, make_header(m9, 1, ["vanguard", "tempest"], ["random", "random"]), 0)
    flags = {o.text: o.confirm for o in (stream.option(i, sm.Mulligan(take)) for i, take in enumerate((False, True)))}
    assert flags == {"Keep this hand": False, "Take a mulligan": True}
    assert stream.option(0, sm.Awaken(0)).confirm  # the Planet turns for good [M9-103]
    mor = get_ruleset("morana")
    stream = SeatStream(mor, make_header(mor, 1, ["clash", "glory"], ["random", "random"]), 0)
    assert stream.option(0, sr.Done()).confirm and stream.option(1, sr.Invoke()).confirm
    assert not stream.option(2, sr.Place(1000, 1)).confirm
