"""Taking back a declaration being built, before its confirm [M9-074], [M9-076] (ruling R-M9-44)."""

from __future__ import annotations

from annals.schemas import miras9 as ev
from tests.miras9.table import Table


def test_take_back_the_last_attacker_then_the_site_M9_074() -> None:
    """[M9-074] the wave is confirmed together, so until then each pick can be taken back, last first, and with
    none left the Site itself: nothing is tapped, no wave is counted, the Site may be chosen again."""
    t = Table(phase="attack")
    a, b = t.unit(0, "char-raider", 0), t.unit(0, "char-recruit", 0)
    foe = t.unit(1, "char-recruit", 0, tapped=1)
    t.act(ev.DeclareAt(0))
    assert ev.TakeBack() in t.options()
    t.act(ev.AddAttacker(a, 0))
    t.act(ev.AddAttacker(b, foe))
    t.act(ev.TakeBack())
    assert t.s.wave is not None and t.s.wave.attackers == [a] and t.s.wave.targets == [0]
    t.act(ev.TakeBack())
    undone = [(e.card, e.target, e.stage) for e in t.of(ev.SelectionUndone)]
    assert undone == [(b, foe, "attack"), (a, 0, "attack")]
    t.act(ev.TakeBack())
    assert t.of(ev.SelectionUndone)[-1].stage == "site" and t.s.wave is None and t.s.step == "attack"
    assert not t.of(ev.WaveDeclared) and t.c(a).tapped == 0 and t.s.attacked == []
    assert ev.DeclareAt(0) in t.options()
    t.attack(0, [(b, foe)])  # chosen again, differently
    (decl,) = t.of(ev.WaveDeclared)
    assert decl.wave == 1 and decl.attackers == [b] and decl.targets == [foe]


def test_take_back_a_blocker_before_confirming_M9_076() -> None:
    """[M9-076] the defender assigns blockers and confirms them together: an assignment can be taken back first,
    and only the confirmed ones tap and are committed."""
    t = Table(phase="attack")
    a = t.unit(0, "char-raider", 0)
    b1, b2 = t.unit(1, "char-recruit", 0), t.unit(1, "char-warden", 0)
    t.attack(0, [(a, 0)])
    t.pass_window()
    assert ev.TakeBack() not in t.options()  # nothing to take back yet
    t.act(ev.AssignBlocker(b1, a))
    t.act(ev.TakeBack())
    assert t.s.wave is not None and t.s.wave.blockers == []
    t.act(ev.AssignBlocker(b2, a))
    t.act(ev.Confirm())
    (blocks,) = t.of(ev.BlockersDeclared)
    assert blocks.blockers == [b2] and t.c(b1).tapped == 0 and t.c(b2).tapped == 1
