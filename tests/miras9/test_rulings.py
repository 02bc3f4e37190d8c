"""Tests pinning the rulings in RULINGS.md (section "The Miras 9 TCG") that no other test covers."""

from __future__ import annotations

from annals.engine.miras9.effects import defeat
from annals.engine.miras9.turn import end_turn, start_turn
from annals.schemas import miras9 as ev
from tests.miras9.table import Table


def test_participation_is_chosen_not_forced_M9_074_M9_076() -> None:
    """R-M9-02 (A-02): the attacker may confirm with one of two eligible Units; the defender may decline to block."""
    t = Table(phase="attack")
    a = t.unit(0, "char-raider", 0)
    other = t.unit(0, "char-raider", 0)
    t.unit(1, "char-recruit", 0)
    t.act(ev.DeclareAt(0))
    t.act(ev.AddAttacker(a, 0))
    assert ev.Confirm() in t.options()
    t.act(ev.Confirm())
    assert t.c(other).tapped == 0 and t.of(ev.WaveDeclared)[0].attackers == [a]
    t.pass_window()
    assert ev.Confirm() in t.options()
    t.act(ev.Confirm())
    assert t.of(ev.BlockersDeclared)[0].blockers == []


def test_cards_land_on_top_of_piles_M9_046_M9_086() -> None:
    """R-M9-04 (A-04): a card moved onto Used, Resource or Discard goes on top, so it is the next one taken."""
    t = Table(phase="attack")
    a = t.unit(0, "char-raider", 0)
    t.attack(0, [(a, 0)])
    t.to_damage()
    top = t.s.players[1].deck[-1]
    t.act(ev.PayPoint("deck"))
    assert t.s.players[1].discard[-1] == top
    nxt = t.s.players[1].discard[-1]
    t.act(ev.PayPoint("deck"))
    assert t.s.players[1].discard[-2] == nxt


def test_empty_deck_skips_card_flow_M9_033_M9_023() -> None:
    """R-M9-13 (A-13): with an empty Main Deck but cards in Used the turn starts and card flow is skipped."""
    t = Table(phase="attune", active=1, deck=0, resource=0)
    t.add(0, "char-recruit", "used")
    start_turn(t.s, t.emit, 0)
    t.settle()
    assert not t.s.over and "awaken.flow" not in [e.phase for e in t.of(ev.PhaseBegan)]
    assert t.s.phase == "action"


def test_restore_needs_a_discard_card_M9_101_M9_005() -> None:
    """R-M9-14 (A-14): Restore is not offered with an empty Discard, whatever the Echo."""
    t = Table(phase="attune", echo=(4, 0))
    assert ev.DoRestore() not in t.options()


def test_after_wave_window_allows_any_reaction_M9_080() -> None:
    """R-M9-21 (A-21): the after-wave window offers Reactions that do not involve a survivor."""
    t = Table(phase="attack")
    a = t.unit(0, "char-raider", 0)
    t.hand(0, "rx-insight")
    t.attack(0, [(a, 0)])
    t.to_damage()
    while t.s.bd_player >= 0:
        t.act(t.options()[0])
    assert t.s.window == "after_wave"
    assert any(type(o) is ev.PlayCard for o in t.options())


def test_wounds_persist_across_turns() -> None:
    """R-M9-28 (A-28): no rule removes wounds from an ordinary Unit at turn end."""
    t = Table(phase="attune")
    u = t.unit(0, "char-veteran", 0, wounds=2)
    end_turn(t.s, t.emit)
    assert t.c(u).wounds == 2


def test_site_attack_deals_no_combat_damage_to_attacker_M9_071() -> None:
    """R-M9-31 (A-31): an unblocked attack on a standard Site deals Battle Damage only; the attacker takes none."""
    t = Table(phase="attack")
    a = t.unit(0, "char-raider", 0)
    t.attack(0, [(a, 0)])
    t.to_damage()
    assert t.c(a).wounds == 0 and not t.of(ev.CombatDamage)


def test_equipment_drops_from_any_defeated_host_M9_090() -> None:
    """R-M9-12 (A-12): Equipment on a defeated Vehicle also drops at the Site, still its owner's card."""
    t = Table(phase="action")
    buggy = t.unit(0, "veh-buggy", 0)
    blade = t.equip(0, "eq-blade", buggy)
    defeat(t.s, t.emit, t.c(buggy))
    assert t.c(blade).zone == "lane:0:exterior" and t.c(blade).host == 0 and t.c(blade).owner == 0


def test_mulligan_order_seat_zero_first_M9_021() -> None:
    """R-M9-25 (A-25): seat 0 decides its mulligan first, then seat 1 (after seeing that public decision)."""
    from tests.miras9.test_setup_decks import _setup

    _, events = _setup(9)
    assert [e.player for e in events if type(e) is ev.MulliganTaken] == [0, 1]


def test_attacked_unit_is_a_combatant_M9_081() -> None:
    """R-M9-32: the Unit an attack targets is in combat, so 'combatant' Reactions may target it."""
    t = Table(phase="attack")
    a = t.unit(0, "char-raider", 0)
    d = t.unit(1, "char-veteran", 0, tapped=1)
    t.hand(1, "rx-shield")
    t.attack(0, [(a, d)])
    assert ev.PlayCard(t.s.players[1].hand[0], -1, d) in t.options()
