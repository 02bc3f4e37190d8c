"""Escape Route [M9-117], [M9-116]: its printed eligible Unit, Battleground Site and adjacent friendly destination
(ruling R-M9-43), before damage and in the after-wave window alike."""

from __future__ import annotations

from annals.engine.miras9.escape import destinations
from annals.engine.miras9.state import loc_of
from annals.schemas import miras9 as ev
from tests.miras9.table import Table


def _escapes(t: Table, card: int) -> set[tuple[int, int]]:
    return {(o.target, o.loc) for o in t.options() if type(o) is ev.PlayCard and o.card == card}


def test_only_eligible_units_with_an_adjacent_friendly_destination_M9_117() -> None:
    """[M9-117] a friendly Character or Spirit combatant only (not a Vehicle), to its controller's own Site in a
    lane next to the Battleground's that its trait may use: Exterior -> Interior for a Character, Interior or Space
    for a Spirit; the enemy's positions are never a destination."""
    t = Table(phase="attack")
    char, spirit, buggy = t.unit(0, "char-raider", 0), t.unit(0, "spirit-wisp", 0), t.unit(0, "veh-buggy", 0)
    escape = t.hand(0, "rx-escape")
    t.attack(0, [(char, 0), (spirit, 0), (buggy, 0)])
    t.act(ev.Pass())  # the defender passes: the attacker may answer
    assert _escapes(t, escape) == {(char, loc_of(0, 1)), (spirit, loc_of(0, 1)), (spirit, loc_of(0, 2))}


def test_escape_from_the_interior_goes_to_the_exterior_M9_117() -> None:
    """[M9-117] the destination is adjacent to the Battleground Site: from an Interior wave, only the Exterior."""
    t = Table(phase="attack", active=1)
    foe = t.unit(1, "char-raider", 1)
    d = t.unit(0, "char-veteran", 1)
    escape = t.hand(0, "rx-escape")
    t.attack(1, [(foe, 0)])
    t.pass_window()
    t.block([(d, foe)])
    t.act(ev.Pass())  # the attacker passes first [M9-077]
    assert _escapes(t, escape) == {(d, loc_of(0, 0))}
    t.act(ev.PlayCard(escape, loc_of(0, 0), d))
    assert t.of(ev.DestinationChosen)[-1].to == "lane:0:exterior"
    t.pass_window()
    assert t.c(d).zone == "lane:0:exterior" and d in [e.card for e in t.of(ev.LeftWave)]


def test_after_the_wave_only_a_survivor_escapes_with_its_equipment_M9_116_M9_117() -> None:
    """[M9-116] after damage only a survivor may escape, [M9-117] with the same requirements in the after-wave
    window: the defeated blocker is offered nothing, the surviving attacker moves with its Equipment."""
    t = Table(phase="attack")
    a = t.unit(0, "char-veteran", 0)  # 3/3
    blade = t.equip(0, "eq-blade", a)
    b = t.unit(1, "char-recruit", 0)  # 1/2: defeated by the veteran
    escape = t.hand(0, "rx-escape")
    foe_escape = t.hand(1, "rx-escape")
    t.attack(0, [(a, 0)])
    t.to_damage([(b, a)])
    assert t.s.window == "after_wave" and t.c(b).zone == "discard"
    assert _escapes(t, escape) == {(a, loc_of(0, 1))}
    t.act(ev.PlayCard(escape, loc_of(0, 1), a))
    assert not _escapes(t, foe_escape)  # the defender has no survivor to move
    t.pass_window()
    assert t.c(a).zone == "lane:0:interior" and t.c(blade).zone == "lane:0:interior" and t.c(blade).host == a
    assert t.c(a).wounds == 1  # damage already dealt remains [M9-080]


def test_no_destination_outside_a_wave_or_for_a_unit_not_in_it_M9_117() -> None:
    """[M9-117] no wave, no Battleground Site: nothing is eligible; a Unit outside the wave is not either."""
    t = Table(phase="attack")
    a = t.unit(0, "char-raider", 0)
    idle = t.unit(0, "char-raider", 0)
    assert destinations(t.s, t.c(a), ["character"], 0) == []
    t.attack(0, [(a, 0)])
    assert destinations(t.s, t.c(idle), ["character"], 0) == []
    assert destinations(t.s, t.c(a), ["character"], 0) == [loc_of(0, 1)]
    assert destinations(t.s, t.c(a), ["spirit"], 0) == []  # not of a printed trait
    assert destinations(t.s, t.c(a), ["character"], 1) == []  # not friendly to the card's controller
