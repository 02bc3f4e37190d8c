"""The six keywords [MOR-24], [MOR-25] as ruled in R-MOR-07: Omen, Reborn, Clash X, Ward X, Swift, Bloom X."""

from __future__ import annotations

from annals.engine.morana.cards import card_text, shipped_pool
from annals.engine.morana.keywords import KEYWORDS
from annals.schemas import morana as ev
from annals.schemas.morana import Done, Rebirth
from tests.morana.build import Table, build


def test_mor24_mor25_six_keywords_with_reminders_in_the_card_data() -> None:
    """[MOR-24] [MOR-25] R-MOR-07: exactly six keywords, each with reminder text that cards print."""
    p = shipped_pool()
    assert list(p.reminders) == list(KEYWORDS) == ["omen", "reborn", "clash", "ward", "swift", "bloom"]
    text = card_text(p.cards["vila-archer"], p)
    assert text.startswith("Clash 2 (" + p.reminders["clash"] + ")") and "Reborn 2:" in text


def test_mor21_omen_fires_once_when_first_revealed() -> None:
    """[MOR-21] R-MOR-07: the Omen fires at the reveal, and never again on later Dusks."""
    t = Table(build("site1: ~ember-sprite; deck: bannik bannik", "deck: bannik bannik", turn=2))
    t.dusk()
    t.commit(Done(), Done())
    t.run()
    sprite = t.card(0, "ember-sprite")
    assert [(e.card, e.turn) for e in t.of(ev.OmenFired)] == [(sprite, 2)] and t.s.power[sprite] == 3


def test_r_mor_07_clash_hits_the_strongest_enemy_every_dusk_and_only_reduces_a_bigger_one() -> None:
    """[MOR-16] [MOR-39] R-MOR-07 (B-07): Clash X deals X to the strongest enemy Spirit at its Site, each Dusk;
    a Spirit with more Power than X is reduced, not defeated; other enemies and its own Power are untouched."""
    t = Table(build("site1: volkolak; deck: bannik", "site1: bannik vodyanoy@5; deck: bannik", turn=3, slava=(0, 1)))
    t.dusk()
    volk, bannik, vod = t.card(0, "volkolak"), t.card(1, "bannik"), t.card(1, "vodyanoy")
    assert [(e.card, e.amount, e.target) for e in t.of(ev.ClashFired)] == [(volk, 2, vod)]
    assert t.s.power == {volk: 4, bannik: 3, vod: 3}
    t.commit(Done(), Done())
    t.run()
    assert [e.target for e in t.of(ev.ClashFired)] == [vod, bannik]  # next Dusk: 3 and 3 tie, the earlier arrival
    assert t.s.power[bannik] == 1


def test_r_mor_07_clash_without_an_enemy_does_not_fire() -> None:
    """[MOR-16] R-MOR-07: no enemy Spirit at the Site, no Clash."""
    t = Table(build("site1: chort; site2: ~bannik", "site2: bannik", turn=3))
    t.dusk()
    assert t.of(ev.ClashFired) == []


def test_r_mor_07_ward_reduces_each_damage_by_x() -> None:
    """[MOR-19] R-MOR-07: Ward X reduces every damage to the Spirit by X; the prevented part is recorded."""
    t = Table(build("site1: ~blood-moon", "site1: bereginya@3 polevik", turn=4))
    t.dusk()
    hits = [(e.holder, e.amount, e.prevented) for e in t.of(ev.PowerChanged) if e.source == "damage"]
    assert hits == [(t.card(1, "bereginya"), 0, 2), (t.card(1, "polevik"), -1, 1)]


def test_r_mor_07_swift_resolves_before_the_player_who_would_go_first() -> None:
    """[MOR-28] R-MOR-07: Swift effects at a Site resolve before every non-Swift effect there."""
    t = Table(build("site1: chort", "site1: ~rusalka-scout", turn=3, slava=(0, 5)))
    t.dusk()
    scout, chort = t.card(1, "rusalka-scout"), t.card(0, "chort")
    assert t.of(ev.SiteResolutionBegan)[0].first == 0  # player 0 trails, yet the Swift Omen goes first
    firsts = [type(e).__name__ for e in t.events if type(e) in (ev.OmenFired, ev.ClashFired)]
    assert firsts == ["OmenFired", "ClashFired"] and t.of(ev.OmenFired)[0].card == scout
    assert t.of(ev.ClashFired)[0].card == chort


def test_r_mor_07_bloom_grows_at_each_dawn() -> None:
    """[MOR-14] R-MOR-07: Bloom X: +X Power at each Dawn while the Spirit is on the board."""
    t = Table(build("site3: leshy-sapling; deck: bannik bannik", "deck: bannik bannik", turn=2))
    t.dusk()
    sap = t.card(0, "leshy-sapling")
    assert [(e.holder, e.amount, e.step) for e in t.of(ev.PowerChanged) if e.source == "bloom"] == [(sap, 1, "dawn")]
    assert t.s.power[sap] == 3
    t.commit(Done(), Done())
    t.run()  # and again at the next Dawn
    assert [(e.turn, e.value) for e in t.of(ev.PowerChanged) if e.source == "bloom"] == [(3, 3), (4, 4)]


def test_mor21_reborn_band_fires_on_return_not_the_omen() -> None:
    """[MOR-21] R-MOR-10: a returned Spirit fires its Reborn band when revealed; its Omen does not fire again."""
    t = Table(build("nav: bannik", "", turn=3))
    bannik = t.card(0, "bannik")
    t.commit(Rebirth(bannik, 2), Done(), Done())
    t.run()
    assert [e.card for e in t.of(ev.RebornFired)] == [bannik] and t.of(ev.OmenFired) == []
    assert [(e.by, e.amount) for e in t.of(ev.SlavaGained) if e.source == "offboard"] == [(bannik, 1)]
