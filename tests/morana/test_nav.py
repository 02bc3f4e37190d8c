"""The Turning: Nav and Reborn [MOR-09], [MOR-20]–[MOR-23]."""

from __future__ import annotations

from annals.engine.morana.ruleset import RULESET
from annals.schemas import morana as ev
from annals.schemas.morana import Done, Rebirth
from tests.morana.build import Table, build


def test_mor21_defeated_spirit_crosses_to_nav_face_up() -> None:
    """[MOR-09] [MOR-21] A defeated Spirit goes to its owner's Nav, and every viewer sees which one."""
    t = Table(build("site2: ~storm-of-perun", "site2: bannik", turn=4))
    t.dusk()
    (d,) = t.of(ev.Defeated)
    assert (d.card, d.src, d.dst) == (t.card(1, "bannik"), "site:2", "nav") and t.s.nav[1] == [d.card]
    assert RULESET.redact(d, 0) == d and RULESET.redact(d, -1) == d


def test_mor21_reborn_pays_its_reborn_cost() -> None:
    """[MOR-21] Reborn pays the printed Reborn cost in Embers (Lada gives no discount)."""
    t = Table(build("nav: volkolak", "", turn=3, wardens=("lada", "lada")))
    volk = t.card(0, "volkolak")
    t.commit(Rebirth(volk, 1))
    assert [(e.amount, e.source) for e in t.of(ev.EmbersChanged)] == [(-3, "reborn")]
    assert t.s.sites[0][0] == [volk] and t.s.nav[0] == []


def test_mor23_reborn_cost_is_at_least_one() -> None:
    """[MOR-23] Marzanna's Vigil takes 1 off Reborn costs, but never below 1 Ember."""
    t = Table(build("nav: bannik leshy-sapling", "", turn=1))
    sap = t.card(0, "leshy-sapling")  # Reborn cost 1
    t.commit(Rebirth(sap, 1))
    assert [e.amount for e in t.of(ev.EmbersChanged)] == [-1]
    t2 = Table(build("nav: volkolak", "", turn=2))
    t2.commit(Rebirth(t2.card(0, "volkolak"), 1))  # printed 3, less 1
    assert [e.amount for e in t2.of(ev.EmbersChanged)] == [-2]


def test_mor23_at_most_two_reborns_per_turn() -> None:
    """[MOR-23] R-MOR-10: after two Reborns in a turn no third is offered, even with Embers to spare."""
    t = Table(build("nav: bannik bannik bannik", "", turn=6, embers=(8, 8)))
    b = [t.card(0, "bannik", i) for i in range(3)]
    t.commit(Rebirth(b[0], 1), Rebirth(b[1], 2))
    assert t.s.embers[0] == 6 and not any(type(o) is Rebirth for o in t.options())
    t.commit(Done(), Done())
    t.run()
    assert t.s.reborns == [0, 0]  # the limit is per turn


def test_r_mor_10_reborn_is_sealed_and_resolves_at_its_site() -> None:
    """[MOR-15] [MOR-21] R-MOR-10: a Reborn goes face-down to a chosen Site like a Commit and fires at Dusk there."""
    t = Table(build("nav: upyr", "", turn=3))
    upyr = t.card(0, "upyr")
    t.commit(Rebirth(upyr, 3))
    (rc,) = t.of(ev.RebornCommitted)
    assert type(RULESET.redact(rc, 1)) is ev.Sealed and RULESET.redact(rc, 0) == rc
    t.commit(Done(), Done())
    t.run()
    (fired,) = t.of(ev.RebornFired)
    assert (fired.card, fired.site, fired.step) == (upyr, 3, "dusk.site3")
