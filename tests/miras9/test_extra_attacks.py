"""Card-granted extra attacks [M9-073], [M9-083], [M9-117]: Raithe's Killing Machine (ruling R-M9-42, settles
OPEN-QUESTIONS A-16), and a plain ready that grants none."""

from __future__ import annotations

from annals.engine.miras9.effects import resolve
from annals.schemas import miras9 as ev
from tests.miras9.table import Table

RAITHE = "char-raithe"  # 4/4/1, Killing Machine


def _finish_wave(t: Table) -> None:
    while t.s.bd_player >= 0:
        t.act(t.options()[0])
    t.pass_window()  # the after-wave window


def test_killing_machine_readies_and_grants_a_single_unit_wave_M9_083_M9_073() -> None:
    """[M9-083] his attack defeats the Unit it attacks and he survives: ready, and one extra attack after step 7;
    [M9-073] it is a separate wave of him alone, at the same Site, with the normal windows and blockers."""
    t = Table(phase="attack")
    r = t.unit(0, RAITHE, 0)
    other = t.unit(0, "char-raider", 0)  # ready and Attuned, but not in the first wave
    d = t.unit(1, "char-recruit", 0, tapped=1)  # 1/2: cannot block (tapped), dies to 4
    t.attack(0, [(r, d)])
    t.to_damage()
    (grant,) = t.of(ev.ExtraAttackGranted)
    assert (grant.card, grant.site, grant.reason) == (r, "site:1:exterior", "killing_machine")
    assert t.c(d).zone == "discard" and t.c(r).tapped == 0 and t.c(r).wounds == 1
    t.unit(1, "char-warden", 0)  # a blocker arrives for the extra wave
    _finish_wave(t)
    assert t.point().point == "extra_attack"
    assert t.options() == [ev.UseExtraAttack(r, True), ev.UseExtraAttack(r, False)]
    t.act(ev.UseExtraAttack(r, True))
    assert t.s.wave is not None and t.s.wave.extra == r and t.s.wave.number == 2
    assert {o.card for o in t.options() if type(o) is ev.AddAttacker} == {r}  # not the raider [M9-073]
    t.act(ev.AddAttacker(r, 0))
    t.act(ev.Confirm())
    assert t.s.window == "before_blocks" and t.s.priority == 1  # the normal reaction window [M9-075]
    t.pass_window()
    assert t.point().point == "blockers"  # and the normal blocker window [M9-076]
    assert [e.attackers for e in t.of(ev.WaveDeclared)] == [[r], [r]]
    assert t.c(other).tapped == 0


def test_the_site_is_not_reopened_and_the_grant_may_be_let_go_M9_073() -> None:
    """[M9-073] after the extra wave (or when it is let go) the Site stays used: no new wave there this turn."""
    t = Table(phase="attack")
    r = t.unit(0, RAITHE, 0)
    t.unit(0, "char-raider", 0)
    d = t.unit(1, "char-recruit", 0, tapped=1)
    t.attack(0, [(r, d)])
    t.to_damage()
    _finish_wave(t)
    t.act(ev.UseExtraAttack(r, False))
    taken = t.of(ev.ExtraAttackTaken)[-1]
    assert not taken.taken and t.s.wave is None and not t.s.extra
    assert ev.DeclareAt(0) not in t.options() and t.point().point == "attack"


def test_each_qualifying_extra_attack_grants_another_blockers_count_R_M9_42_M9_083() -> None:
    """[M9-083] each qualifying extra attack may grant another; ruling R-M9-42: a blocker his attack defeats
    counts as a Unit his attack defeats."""
    t = Table(phase="attack")
    r = t.unit(0, RAITHE, 0)
    b1 = t.unit(1, "char-recruit", 0)  # blocks the first wave
    d2 = t.unit(1, "char-recruit", 0, tapped=1)  # attacked in the extra wave
    t.attack(0, [(r, 0)])
    t.to_damage([(b1, r)])
    assert t.c(b1).zone == "discard" and len(t.of(ev.ExtraAttackGranted)) == 1
    _finish_wave(t)
    t.act(ev.UseExtraAttack(r, True))
    t.act(ev.AddAttacker(r, d2))
    t.act(ev.Confirm())
    t.to_damage()
    assert t.c(d2).zone == "discard" and len(t.of(ev.ExtraAttackGranted)) == 2 and t.c(r).tapped == 0
    _finish_wave(t)
    assert t.point().point == "extra_attack"


def test_no_grant_when_nothing_is_defeated_or_he_falls_M9_083() -> None:
    """[M9-083] both conditions: a Site attack defeats no Unit; a trade in which Raithe is defeated too grants
    nothing."""
    t = Table(phase="attack")
    r = t.unit(0, RAITHE, 0)
    t.attack(0, [(r, 0)])
    t.to_damage()
    assert not t.of(ev.ExtraAttackGranted)

    t = Table(phase="attack")
    r = t.unit(0, RAITHE, 0)
    twin = t.unit(1, RAITHE, 0, tapped=1)  # 4/4: the two defeat each other
    t.attack(0, [(r, twin)])
    t.to_damage()
    assert t.c(twin).zone == "discard" and t.c(r).zone == "discard" and not t.of(ev.ExtraAttackGranted)


def test_a_plain_ready_grants_no_extra_attack_M9_117_M9_083() -> None:
    """[M9-117] "ready this Unit" and "this Unit may attack again" are distinct: an attacker readied by a ready
    effect after its wave may not attack that Site again [M9-083], and no extra-attack choice appears."""
    t = Table(phase="attack")
    a = t.unit(0, "char-veteran", 0)
    d = t.unit(1, "char-recruit", 0, tapped=1)
    t.attack(0, [(a, d)])
    t.to_damage()
    _finish_wave(t)
    assert t.c(d).zone == "discard" and t.c(a).tapped == 1
    resolve(t.s, t.emit, [ev.ReadyEff()], a, 0, a)  # a ready effect, as Rally's
    assert t.c(a).tapped == 0
    assert t.point().point == "attack" and ev.DeclareAt(0) not in t.options() and not t.s.extra
