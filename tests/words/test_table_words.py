"""Words a person met playing at the table that did not say what happened or what an answer does."""

from __future__ import annotations

import re
from pathlib import Path

from annals.engine import forced
from annals.engine.players import play_live
from annals.engine.words import Words
from annals.schemas import miras9, morana
from annals.schemas import protocol as p


def test_damage_all_prevented_by_ward_is_said_as_no_damage() -> None:
    """[MOR-24] Ward prevents damage: a hit wholly stopped read ``Bereginya gains 0 Power: damage from Chort (2 now,
    3 prevented)``; it says what Ward stopped and the Power left (a Spirit already at 0 has none to lose, so
    no loss is not always Ward's doing). A hit partly stopped still says the loss."""
    words = Words("morana", lambda card: {1003: "Bereginya", 2004: "Chort"}[card], ["Ann", "Bob"])
    stopped = words.event(morana.PowerChanged(5, 2, "dusk", 0, "power", 1003, 2, 0, "damage", 2004, 3))
    assert stopped == "Ward prevents 3 damage from Chort to Bereginya (2 Power now)"
    partly = words.event(morana.PowerChanged(5, 2, "dusk", 0, "power", 1003, 1, -1, "damage", 2004, 2))
    assert partly == "Bereginya loses 1 Power: damage from Chort (1 now, 2 prevented)"


def test_confirm_says_what_it_confirms_and_restore_what_it_costs() -> None:
    """[M9-076] A bare ``Confirm`` in the attackers' and the blockers' questions said nothing of what it ends;
    [M9-101] a bare ``Restore`` said neither its price nor what moves."""
    words = Words("miras9", lambda card: "Recruit", ["Ann", "Bob"])
    assert words.option(miras9.Confirm(), "attackers") == "Confirm the attackers: the wave goes in"
    assert words.option(miras9.Confirm(), "blockers") == "Confirm the blockers as chosen"
    assert words.option(miras9.DoRestore(), "attune") == (
        "Restore: pay 2 Echo to put the top card of your discard pile on your used pile"
    )


def test_a_battle_damage_question_says_how_many_points_are_still_to_pay(tmp_path: Path) -> None:
    """[M9-079] Each point of Battle Damage is its own question; it read only ``Pay a point of Battle Damage``, and
    at the terminal nothing said how many more were owed. It says ``(2 of 3 still to pay)``, agreeing with the
    Battle Damage the events assigned to the person in the wave and the points paid since."""
    seat = _Recorder()
    play_live("miras9", ["vanguard", "tempest"], ["human", "heuristic"], 3, tmp_path / "g.log",
              human=lambda player, rs: seat, max_turns=40)  # fmt: skip
    asked, owed, paid = 0, 0, 0
    for message in seat.heard:
        if isinstance(message, p.EventMessage):
            kind, e = message.event["kind"], message.event
            if kind == "WaveDeclared":
                owed, paid = 0, 0
            elif kind == "BattleDamageAssigned" and e["holder"] == 0:
                owed += e["amount"]
            elif kind == "BattleDamagePaid" and e["player"] == 0:
                paid += 1
        elif isinstance(message, p.Decide) and message.point == "battle_damage":
            found = re.search(r"\((\d+) of (\d+) still to pay\)$", message.question)
            assert found, message.question
            assert (int(found[1]), int(found[2])) == (owed - paid, owed), (message.question, owed, paid)
            asked += 1
    assert asked > 3  # the game made the person pay, more than once


class _Recorder:
    """A person at the protocol who hears everything and answers the first choice shown."""

    def __init__(self) -> None:
        self.heard: list[object] = []
        self.settings = forced.ANSWER_LONE

    def send(self, message: object) -> None:
        self.heard.append(message)

    def receive(self) -> p.ClientMessage:
        d = next(m for m in reversed(self.heard) if isinstance(m, p.Decide))
        return p.Answer(next(o.index for o in d.options if o.same_as < 0), d.decision)


def test_the_commit_question_says_the_embers_there_are_to_spend(tmp_path: Path) -> None:
    """[MOR-15] Committing pays Embers; after a first card nothing on the question said how many were left (the
    options offer only what can be paid for). It says ``(3 Embers to spend)``, as the events' Embers last said."""
    seat = _Recorder()
    play_live("morana", ["clash", "glory"], ["human", "heuristic"], 11, tmp_path / "g.log",
              human=lambda player, rs: seat)  # fmt: skip
    embers, asked = 0, 0
    for message in seat.heard:
        if isinstance(message, p.EventMessage) and message.event["kind"] == "EmbersChanged":
            if message.event["holder"] == 0:
                embers = message.event["value"]
        elif isinstance(message, p.Decide) and message.point == "commit":
            found = re.search(r"\((\d+) Embers? to spend\)$", message.question)
            assert found and int(found[1]) == embers, (message.question, embers)
            asked += 1
    assert asked > 3


def test_a_hidden_card_moving_says_whose_it_is() -> None:
    """[M9-034] The opponent's turn read ``a hidden card generates: deck to resources`` with no owner, beside the
    person's own cards moving between piles of the same names; the owner is said."""
    words = Words("miras9", lambda card: "Recruit" if card == 1004 else "a hidden card", ["Ann", "Bob"])
    hidden = words.event(miras9.CardMoved(40, 3, "awaken.generate", 1, -1, "deck", "resource", "generate"))
    assert hidden == "Bob's hidden card generates: deck to resources"
    shown = words.event(miras9.CardMoved(41, 3, "awaken.generate", 0, 1004, "deck", "resource", "generate"))
    assert shown == "Recruit generates: deck to resources"
