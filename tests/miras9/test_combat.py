"""Attack waves: attackers, blockers, the seven steps, blocked and unblocked combat, leaving a wave."""

from __future__ import annotations

from annals.schemas import miras9 as ev
from tests.miras9.table import Table


def test_legal_attackers_are_ready_attuned_and_in_the_lane_M9_066_M9_053() -> None:
    """[M9-066] [M9-053] only ready, Attuned Units in the wave's lane column may attack; ``cannot`` bars one."""
    t = Table(phase="attack")
    ok = t.unit(0, "char-raider", 0)
    t.unit(0, "char-raider", 0, attuned=0)  # Unattuned
    t.unit(0, "char-raider", 0, tapped=1)
    t.unit(0, "char-warden", 0)  # cannot attack [M9-004]
    t.unit(0, "char-raider", 1)  # another lane
    t.act(ev.DeclareAt(0))
    adders = {o.card for o in t.options() if type(o) is ev.AddAttacker}
    assert adders == {ok}


def test_declaring_taps_attackers_and_confirms_together_M9_067_M9_074() -> None:
    """[M9-067] [M9-074] the wave is confirmed in one event with every attacker and target; attackers tap."""
    t = Table(phase="attack")
    a, b = t.unit(0, "char-raider", 0), t.unit(0, "char-recruit", 0)
    t.attack(0, [(a, 0), (b, 0)])
    (decl,) = t.of(ev.WaveDeclared)
    assert decl.attackers == [a, b] and decl.targets == [0, 0]
    assert t.c(a).tapped == 1 and t.c(b).tapped == 1
    assert t.s.window == "before_blocks" and t.s.priority == 1  # defender first [M9-075]


def test_seven_steps_in_order_with_windows_M9_073_M9_074_M9_075_M9_076_M9_077_M9_078_M9_079_M9_080() -> None:
    """[M9-073]-[M9-080] each wave runs the seven steps in order; windows at 2, 4 and 7 with the right first player."""
    t = Table(phase="attack")
    a = t.unit(0, "char-raider", 0)
    t.unit(1, "char-recruit", 0)
    t.attack(0, [(a, 0)])
    t.pass_window()
    t.block([])
    t.pass_window()
    while t.s.bd_player >= 0:
        t.act(t.options()[0])
    t.pass_window()
    steps = [e.step_no for e in t.of(ev.WaveStep)]
    assert steps == [1, 2, 3, 4, 5, 6, 7]
    windows = [(e.window, e.priority) for e in t.of(ev.WindowOpened)]
    assert windows == [("before_blocks", 1), ("before_damage", 0), ("after_wave", 0)]
    assert t.of(ev.WaveEnded) and t.s.wave is None and t.s.phase == "attack"


def test_one_wave_per_site_per_turn_M9_073() -> None:
    """[M9-073] a lane that had a wave this turn cannot be declared again."""
    t = Table(phase="attack")
    a = t.unit(0, "char-raider", 0)
    t.unit(0, "char-raider", 0)
    t.attack(0, [(a, 0)])
    t.to_damage()
    while t.s.bd_player >= 0:
        t.act(t.options()[0])
    t.pass_window()
    assert ev.DeclareAt(0) not in t.options()


def test_blockers_tap_and_blocked_attacker_fights_each_blocker_M9_068_M9_069_M9_076() -> None:
    """[M9-068] [M9-069] [M9-076] a blocked attacker deals full ATK to each blocker and takes their combined ATK."""
    t = Table(phase="attack")
    a = t.unit(0, "char-champion", 0)  # 5/5
    b1, b2 = t.unit(1, "char-raider", 0), t.unit(1, "char-raider", 0)  # 3/2 each
    t.attack(0, [(a, 0)])
    t.pass_window()
    t.block([(b1, a), (b2, a)])
    assert t.c(b1).tapped == 1 and t.c(b2).tapped == 1
    t.pass_window()
    hits = {(e.source, e.target): e.amount for e in t.of(ev.CombatDamage)}
    assert hits[(a, b1)] == 5 and hits[(a, b2)] == 5
    assert hits[(b1, a)] == 6 and (b2, a) not in hits  # one combined retaliation (R-M9-34)
    assert t.c(a).zone == "discard" and t.c(b1).zone == "discard"
    assert not t.of(ev.BattleDamageAssigned)  # blocked: no Battle Damage


def test_unblocked_attack_on_unit_is_simultaneous_M9_070() -> None:
    """[M9-070] an unblocked attack on a Unit: each deals its ATK to the other at once."""
    t = Table(phase="attack")
    a = t.unit(0, "char-raider", 0)  # 3/2
    d = t.unit(1, "char-veteran", 0, tapped=1)  # 3/3, cannot block (tapped)
    t.attack(0, [(a, d)])
    t.to_damage()
    assert t.c(a).zone == "discard" and t.c(d).zone == "discard"


def test_unblocked_attack_on_site_is_battle_damage_M9_071_M9_122() -> None:
    """[M9-071] [M9-122] an unblocked attack on the Site position assigns Battle Damage equal to effective ATK."""
    t = Table(phase="attack")
    a = t.unit(0, "char-raider", 0)
    t.attack(0, [(a, 0)])
    t.to_damage()
    (bd,) = t.of(ev.BattleDamageAssigned)
    assert (bd.source, bd.holder, bd.amount) == (a, 1, 3)
    assert t.s.bd_player == 1 and len(t.s.bd_sources) == 3


def test_leaving_the_wave_prevents_its_damage_M9_081_M9_116() -> None:
    """[M9-081] [M9-116] a Unit that left the wave before damage neither deals nor receives combat damage."""
    t = Table(phase="attack")
    a = t.unit(0, "char-raider", 0)
    b = t.unit(1, "char-champion", 0)
    t.hand(0, "rx-escape")
    t.attack(0, [(a, 0)])
    t.pass_window()
    t.block([(b, a)])
    escape = next(o for o in t.options() if type(o) is ev.PlayCard)
    t.act(escape)
    t.pass_window()
    assert t.of(ev.LeftWave) and not t.of(ev.CombatDamage)
    assert t.c(a).zone.startswith("lane") and t.c(a).wounds == 0


def test_attack_stays_blocked_when_blockers_leave_M9_082() -> None:
    """[M9-082] once blockers are committed the attack stays blocked: no damage to the original target."""
    t = Table(phase="attack", active=0)
    a = t.unit(0, "char-raider", 0)
    b = t.unit(1, "char-recruit", 0)
    t.hand(1, "rx-escape")
    t.attack(0, [(a, 0)])
    t.pass_window()
    t.block([(b, a)])
    t.act(ev.Pass())  # attacker passes; defender escapes its blocker
    t.act(next(o for o in t.options() if type(o) is ev.PlayCard))
    t.pass_window()
    assert not t.of(ev.BattleDamageAssigned) and not t.of(ev.CombatDamage)


def test_illegal_unit_target_deals_no_damage_and_no_substitute_M9_082_M9_111() -> None:
    """[M9-082] a target Unit defeated before damage takes none, deals none, and no Site is substituted."""
    t = Table(phase="attack")
    a = t.unit(0, "char-raider", 0)
    d = t.unit(1, "char-recruit", 0, tapped=1)  # 1/2, cannot block
    t.hand(0, "rx-counter")
    t.attack(0, [(a, d)])
    t.pass_window()
    t.act(ev.PlayCard(t.s.players[0].hand[0], -1, d))  # attacker's window: 2 wounds to the target
    t.pass_window()
    assert t.c(d).zone == "discard"
    assert not t.of(ev.CombatDamage) and not t.of(ev.BattleDamageAssigned)
    assert t.c(a).wounds == 0


def test_no_phase_actions_during_a_wave_M9_114() -> None:
    """[M9-114] ruling R-M9-09: at every decision inside a wave only wave choices are offered (selection, blockers,
    Battle Damage points, Reactions, reaction-speed abilities, passing): no Unit from Hand, no Action ability, no
    new wave, no awakening, although all of those are available just before and just after the wave."""
    t = Table(phase="attack", echo=(6, 0))
    a = t.unit(0, "char-raider", 0)
    t.unit(0, "char-raider", 1)
    t.unit(0, "char-medic", 1)  # an Action ability
    t.unit(0, "char-recruit", 1, wounds=1)  # ... with a target
    t.hand(0, "char-recruit")
    phase_kinds = {ev.DeclareAt, ev.Awaken}
    assert phase_kinds <= {type(o) for o in t.options()}
    t.act(ev.DeclareAt(0))
    wave_kinds = {ev.AddAttacker, ev.AssignBlocker, ev.Confirm, ev.Pass, ev.PlayCard, ev.Activate, ev.PayPoint,
                  ev.TakeBack}  # fmt: skip
    seen = 0
    while t.s.wave is not None:
        opts = t.options()
        assert {type(o) for o in opts} <= wave_kinds, opts
        assert not any(type(o) is ev.PlayCard and t.c(o.card).cid == "char-recruit" for o in opts)
        assert not any(type(o) is ev.Activate and t.c(o.card).cid == "char-medic" for o in opts)
        t.act(ev.AddAttacker(a, 0) if ev.AddAttacker(a, 0) in opts else opts[0])
        seen += 1
    assert seen >= 6 and phase_kinds <= {type(o) for o in t.options()}


def test_attacked_unit_that_escapes_leaves_the_wave_M9_081_M9_082_M9_116() -> None:
    """[M9-081] [M9-116] the attacked Unit is a combatant (R-M9-32): when Escape Route removes it before damage it
    neither deals nor receives the attack's damage, and [M9-082] no Site is substituted for the lost target."""
    t = Table(phase="attack")
    a = t.unit(0, "char-raider", 0)  # 3/2
    d = t.unit(1, "char-veteran", 0, tapped=1)  # 3/3: would trade with the raider
    escape = t.hand(1, "rx-escape")
    t.attack(0, [(a, d)])
    t.act(ev.PlayCard(escape, 4, d))  # the defender has the first opportunity [M9-075]; to its Interior
    t.pass_window()
    assert [e.card for e in t.of(ev.LeftWave)] == [d]
    t.to_damage()
    assert not t.of(ev.CombatDamage) and not t.of(ev.BattleDamageAssigned)
    assert t.c(a).wounds == 0 and t.c(d).wounds == 0 and t.c(d).zone == "lane:1:interior"


def test_attacked_unit_defeated_before_damage_leaves_the_wave_M9_081() -> None:
    """[M9-081] a Unit becoming defeated is removed from the wave, whatever its role: the attacked Unit too."""
    t = Table(phase="attack")
    a = t.unit(0, "char-raider", 0)
    d = t.unit(1, "char-recruit", 0, tapped=1)  # GRIT 2
    counter = t.hand(0, "rx-counter")  # 2 wounds to an enemy combatant
    t.attack(0, [(a, d)])
    t.act(ev.Pass())  # the defender passes; the attacker answers
    t.act(ev.PlayCard(counter, -1, d))
    t.pass_window()
    assert t.c(d).zone == "discard" and [e.card for e in t.of(ev.LeftWave)] == [d]


def test_consequences_settle_before_the_after_wave_window_M9_079_M9_078() -> None:
    """[M9-078] damage is dealt at once, then [M9-079] consequences: the defeated blocker leaves, its defeat
    trigger fires, and every point of Battle Damage is paid, all between step 6 and step 7."""
    t = Table(phase="attack", echo=(0, 0))
    big, small = t.unit(0, "char-champion", 0), t.unit(0, "char-raider", 0)
    courier = t.unit(1, "char-courier", 0)  # draws a card when defeated
    t.attack(0, [(big, 0), (small, 0)])
    t.to_damage([(courier, big)])
    while t.s.bd_player >= 0:
        t.act(ev.PayPoint("deck"))
    t.pass_window()
    i6 = next(i for i, e in enumerate(t.events) if type(e) is ev.WaveStep and e.step_no == 6)
    i7 = next(i for i, e in enumerate(t.events) if type(e) is ev.WaveStep and e.step_no == 7)
    between = t.events[i6:i7]
    assert any(type(e) is ev.CardMoved and e.card == courier and e.reason == "defeated" for e in between)
    assert any(type(e) is ev.TriggerFired and e.card == courier and e.trigger == "defeated" for e in between)
    paid = [e for e in between if type(e) is ev.BattleDamagePaid]
    assert len(paid) == 3 and paid[-1].remaining == 0 and {e.attacker for e in paid} == {small}
    assert not any(type(e) in (ev.WindowOpened, ev.StackPushed) for e in between)


def test_retaliation_is_one_combined_amount_prevented_once_M9_069_M9_084_M9_109() -> None:
    """[M9-069] retaliation equals the blockers' combined ATK: one amount, so Ward prevents 1 of it once
    [M9-084] [M9-109] (R-M9-34). Two Raiders (ATK 3) retaliate 6; Ward 1 leaves 5 wounds, not 2 + 2."""
    t = Table(phase="attack")
    frigate = t.unit(0, "ship-frigate", 2)
    t.equip(0, "eq-ward", frigate)
    r1, r2 = t.unit(1, "char-raider", 2), t.unit(1, "char-raider", 2)
    t.attack(2, [(frigate, 0)])
    t.to_damage([(r1, frigate), (r2, frigate)])
    retaliation = [e for e in t.of(ev.CombatDamage) if e.target == frigate]
    assert [(e.amount, e.sources) for e in retaliation] == [(5, [r1, r2])]
    assert [e.amount for e in t.of(ev.DamagePrevented) if e.card == frigate] == [1]
    assert t.c(frigate).wounds == 5  # GRIT 6: it survives; with Ward on each Raider's 3 it would carry only 4
