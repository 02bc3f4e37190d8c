"""Words a person met playing at the table that did not say what happened or what an answer does."""

from __future__ import annotations

from annals.engine.words import Words
from annals.schemas import miras9, morana


def test_damage_all_prevented_by_ward_is_said_as_no_damage() -> None:
    """[MOR-24] Ward prevents damage: a hit wholly stopped read ``Bereginya gains 0 Power: damage from Chort (2 now,
    3 prevented)``; it says the Spirit takes no damage and why. A hit partly stopped still says the loss."""
    words = Words("morana", lambda card: {1003: "Bereginya", 2004: "Chort"}[card], ["Ann", "Bob"])
    stopped = words.event(morana.PowerChanged(5, 2, "dusk", 0, "power", 1003, 2, 0, "damage", 2004, 3))
    assert stopped == "Bereginya takes no damage from Chort: Ward prevents 3 (2 Power now)"
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
