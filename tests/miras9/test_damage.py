"""Wounds, prevention, replacement, defeat, and Battle Damage point by point."""

from __future__ import annotations

from typing import Any

from annals.engine.miras9.state import REPLACEMENT, Spent
from annals.schemas import miras9 as ev
from tests.miras9.table import Table


def _site_hit(attacker: str = "char-raider", **kw: Any) -> tuple[Table, int]:
    t = Table(phase="attack", **kw)
    a = t.unit(0, attacker, 0)
    t.attack(0, [(a, 0)])
    t.to_damage()
    return t, a


def test_battle_damage_one_point_at_a_time_with_source_M9_086() -> None:
    """[M9-086] each point is its own decision and event, naming its source and the attacker."""
    t, a = _site_hit()
    assert t.point().point == "battle_damage" and t.point().player == 1
    t.act(ev.PayPoint("deck"))
    t.act(ev.PayPoint("resource"))
    t.act(ev.PayPoint("used")) if ev.PayPoint("used") in t.options() else t.act(ev.PayPoint("deck"))
    paid = t.of(ev.BattleDamagePaid)
    assert [p.point for p in paid] == [1, 2, 3] and [p.remaining for p in paid] == [2, 1, 0]
    assert {p.attacker for p in paid} == {a}
    assert t.s.bd_player == -1


def test_battle_damage_sources_switch_and_take_the_top_M9_087() -> None:
    """[M9-087] the damaged player picks each point's source, may switch, piles give their top card."""
    t, _ = _site_hit(echo=(0, 1))
    p1 = t.s.players[1]
    top_deck, top_res = p1.deck[-1], p1.resource[-1]
    hand_card = t.hand(1, "ev-strike")  # ruling R-M9-23: the player picks which Hand card, not the newest
    kept = t.hand(1, "ev-rally")
    t.act(ev.PayPoint("echo"))
    t.act(ev.PayPoint("deck"))
    t.act(ev.PayPoint("hand", hand_card))
    paid = t.of(ev.BattleDamagePaid)
    assert [p.source for p in paid] == ["echo", "deck", "hand"]
    assert paid[1].card == top_deck and top_res in p1.resource
    assert t.s.players[1].echo == 0 and t.c(hand_card).zone == "discard" and t.c(top_deck).zone == "discard"
    assert t.c(kept).zone == "hand"
    assert ev.PayPoint("echo") not in t.options()


def test_unpayable_battle_damage_loses_M9_024() -> None:
    """[M9-024] Battle Damage left with no Echo and no card anywhere: the damaged player loses."""
    t, _ = _site_hit(deck=1, resource=0)
    t.act(ev.PayPoint("deck"))
    assert t.s.over and t.s.winner == 0 and t.s.end_reason == "battle_damage"


def test_hand_pays_battle_damage_with_empty_clock_piles_M9_051() -> None:
    """[M9-051] Hand is a source for Battle Damage even when the clock piles are empty."""
    t = Table(phase="attack", deck=0, resource=0)
    cards = [t.hand(1, "char-recruit") for _ in range(3)]
    a = t.unit(0, "char-raider", 0)
    t.attack(0, [(a, 0)])
    t.to_damage()
    for c in cards:
        t.act(ev.PayPoint("hand", c))
    assert not t.s.over and t.s.bd_player == -1


def test_prevention_before_wounds_and_defeat_at_grit_M9_084_M9_109() -> None:
    """[M9-084] [M9-109] Ward and Shield reduce the damage before wounds are placed; wounds == GRIT defeats."""
    t = Table(phase="attack")
    a = t.unit(0, "char-raider", 0)  # ATK 3
    b = t.unit(1, "char-veteran", 0)  # GRIT 3
    t.equip(1, "eq-ward", b)  # ward 1
    t.attack(0, [(a, 0)])
    t.to_damage([(b, a)])
    prevented = [e for e in t.of(ev.DamagePrevented) if e.card == b]
    assert prevented and prevented[0].amount == 1 and t.c(b).wounds == 2 and t.c(b).zone.startswith("lane")
    t2 = Table(phase="attack")
    a2 = t2.unit(0, "char-raider", 0)
    b2 = t2.unit(1, "char-veteran", 0)
    t2.attack(0, [(a2, 0)])
    t2.to_damage([(b2, a2)])
    assert t2.c(b2).zone == "discard"  # 3 wounds == GRIT 3


def test_no_spill_over_M9_085() -> None:
    """[M9-085] excess damage to a blocker does not reach the player."""
    t = Table(phase="attack")
    a = t.unit(0, "char-champion", 0)  # ATK 5
    b = t.unit(1, "char-recruit", 0)  # GRIT 2
    t.attack(0, [(a, 0)])
    t.to_damage([(b, a)])
    assert t.c(b).zone == "discard" and not t.of(ev.BattleDamageAssigned) and t.s.bd_player == -1


def test_combat_damage_cannot_be_responded_to_M9_116_M9_078() -> None:
    """[M9-116] [M9-078] between the damage step and its consequences no window opens; lethal damage defeats first."""
    t = Table(phase="attack")
    a = t.unit(0, "char-champion", 0)
    b = t.unit(1, "char-recruit", 0)
    t.hand(1, "rx-medkit")
    t.attack(0, [(a, 0)])
    t.to_damage([(b, a)])
    kinds = [type(e) for e in t.events]
    step5 = next(i for i, e in enumerate(t.events) if type(e) is ev.WaveStep and e.step_no == 5)
    step7 = next(i for i, e in enumerate(t.events) if type(e) is ev.WaveStep and e.step_no == 7)
    assert ev.WindowOpened not in kinds[step5:step7]
    assert t.c(b).zone == "discard"  # defeated before the after-wave window


def test_replacement_instead_of_defeat_once_per_turn_M9_109_M9_044() -> None:
    """[M9-109] [M9-044] Survivor returns to Hand instead of being defeated, once per turn."""
    t = Table(phase="attack")
    a = t.unit(0, "char-champion", 0)
    b = t.unit(1, "char-survivor", 0)
    t.attack(0, [(a, 0)])
    t.to_damage([(b, a)])
    (rep,) = t.of(ev.ReplacementApplied)
    assert rep.card == b and rep.instead == "bounce" and t.c(b).zone == "hand"
    t2 = Table(phase="action")
    s = t2.unit(1, "char-stalwart", 0)
    t2.s.once.append(Spent(s, REPLACEMENT))  # its replacement was used this turn already
    from annals.engine.miras9.effects import defeat

    defeat(t2.s, t2.emit, t2.c(s))
    assert t2.c(s).zone == "discard"


def test_defeat_to_owner_discard_equipment_drops_M9_090_M9_010() -> None:
    """[M9-090] [M9-010] a defeated Unit goes to its owner's Discard; its Equipment drops at that Site."""
    t = Table(phase="attack")
    a = t.unit(0, "char-champion", 0)
    b = t.unit(1, "char-recruit", 0)
    blade = t.equip(1, "eq-blade", b)
    t.attack(0, [(a, 0)])
    t.to_damage([(b, a)])
    assert b in t.s.players[1].discard
    assert t.c(blade).zone == "lane:1:exterior" and t.c(blade).host == 0
    assert any(e.card == blade and e.reason == "drop" for e in t.of(ev.CardMoved))


def test_wounds_against_units_are_not_battle_damage_M9_122() -> None:
    """[M9-122] combat wounds to Units never become player Battle Damage."""
    t = Table(phase="attack")
    a = t.unit(0, "char-champion", 0)
    d = t.unit(1, "char-recruit", 0, tapped=1)
    t.attack(0, [(a, d)])
    t.to_damage()
    assert t.c(d).zone == "discard" and not t.of(ev.BattleDamageAssigned)


def test_effective_grit_zero_defeats_without_wounds_M9_084_M9_007() -> None:
    """[M9-084] a Unit is defeated when its wounds (0) reach its effective GRIT, here lowered to 0 by a modifier
    ([M9-007]: GRIT -1 reads as 0); a Unit with GRIT left and no wounds stays."""
    from annals.engine.miras9.effects import check_defeats, resolve

    t = Table(phase="action")
    weak = t.unit(1, "char-recruit", 0)  # GRIT 2
    tough = t.unit(1, "char-veteran", 1)  # GRIT 3
    resolve(t.s, t.emit, [ev.Boost(grit=-3)], 0, 0, weak)
    resolve(t.s, t.emit, [ev.Boost(grit=-2)], 0, 0, tough)
    check_defeats(t.s, t.emit)
    assert t.c(weak).zone == "discard" and t.c(tough).zone == "lane:1:interior"
