"""Scoring and resolution order at Dusk and the Rite: [MOR-17], [MOR-19], [MOR-27]–[MOR-29], [MOR-31], [MOR-37]."""

from __future__ import annotations

from annals.engine.morana.state import warden_instance
from annals.schemas import morana as ev
from annals.schemas.morana import Done, Invoke, Place, Rebirth
from tests.morana.build import Table, build


def _site_starts(t: Table) -> list[tuple[int, int, str]]:
    return [(e.site, e.first, e.reason) for e in t.of(ev.SiteResolutionBegan)]


def test_mor17_mor19_strictly_more_power_scores_a_tie_scores_nobody() -> None:
    """[MOR-17] [MOR-18] [MOR-19] +1 Slava per Site with strictly more total Power; a tie scores nobody."""
    t = Table(build("site1: bannik bannik@1; site2: bannik", "site1: vodyanoy; site2: bannik; site3: kikimora", turn=2))
    t.dusk()
    assert [(e.site, e.winner, e.power) for e in t.of(ev.SiteScored)] == [
        (1, -1, [4, 4]),
        (2, -1, [3, 3]),
        (3, 1, [0, 1]),
    ]
    assert [(e.holder, e.source) for e in t.of(ev.SlavaGained)] == [(1, "site:3")]
    assert t.s.slava == [0, 1]


def test_mor19_mor37_damage_lowers_power_and_zero_is_defeated() -> None:
    """[MOR-19] [MOR-37] R-MOR-12: damage lowers Power; at 0 the Spirit is defeated (to Nav) and adds no Power."""
    t = Table(build("site1: ~storm-of-perun", "site1: vodyanoy bannik", turn=4))
    t.dusk()
    vod = t.card(1, "vodyanoy")
    assert [(e.holder, e.value) for e in t.of(ev.PowerChanged) if e.source == "damage"] == [(vod, 0)]
    assert t.s.nav[1] == [vod] and vod not in t.s.power
    assert t.of(ev.SiteScored)[0].power == [0, 3]


def test_r_mor_12_damage_persists_across_turns() -> None:
    """[MOR-19] R-MOR-12: reduced Power stays reduced on later turns (Power is durability)."""
    t = Table(build("site1: ~whisper-of-mokosh", "site1: bannik", turn=2))
    t.dusk()
    bannik = t.card(1, "bannik")
    assert t.s.power[bannik] == 2
    t.commit(Done(), Done())
    t.run()
    assert t.s.power[bannik] == 2 and t.of(ev.SiteScored)[-3].power == [0, 2]


def test_r_mor_13_spirits_stay_and_charms_go_to_nav() -> None:
    """[MOR-08] R-MOR-13: Spirits stay at their Site from turn to turn; a Charm goes to Nav once it has resolved."""
    t = Table(build("site1: ~bannik ~rowan-ward", "", turn=2))
    t.dusk()
    bannik, rowan = t.card(0, "bannik"), t.card(0, "rowan-ward")
    assert t.s.sites[0][0] == [bannik] and t.s.nav[0] == [rowan]
    assert [(e.card, e.src, e.dst) for e in t.of(ev.CharmSpent)] == [(rowan, "site:1", "nav")]


def test_mor28_less_slava_resolves_first() -> None:
    """[MOR-27] [MOR-28] The player with less Slava resolves first: their Clash defeats the other's before it acts."""
    t = Table(build("site1: chort", "site1: chort", turn=3, slava=(5, 4)))
    t.dusk()
    assert _site_starts(t)[0] == (1, 1, "less_slava")
    assert [e.player for e in t.of(ev.ClashFired)] == [1]  # player 0's Chort was defeated before its Clash
    assert t.s.nav == [[t.card(0, "chort")], []]


def test_r_mor_05_less_slava_is_measured_as_each_site_begins() -> None:
    """[MOR-28] R-MOR-05: Slava gained at Site 1 changes who resolves first at Site 2."""
    t = Table(build("site1: ~gift-of-prav", "", turn=3, slava=(4, 5)))
    t.dusk()
    assert _site_starts(t) == [(1, 0, "less_slava"), (2, 1, "less_slava"), (3, 1, "less_slava")]
    assert [e.slava for e in t.of(ev.SiteResolutionBegan)] == [[4, 5], [6, 5], [6, 5]]


def test_mor29_initiative_holder_first_at_equal_slava() -> None:
    """[MOR-29] R-MOR-05: at equal Slava the Initiative holder resolves first."""
    t = Table(build("site1: chort", "site1: chort", turn=3, slava=(4, 4), initiative=0))
    t.dusk()
    assert _site_starts(t)[0] == (1, 0, "initiative")
    assert [e.player for e in t.of(ev.ClashFired)] == [0] and t.s.nav == [[], [t.card(1, "chort")]]


def test_r_mor_05_equal_slava_without_initiative_is_simultaneous() -> None:
    """[MOR-29] R-MOR-05: equal Slava and no Initiative: both resolve at once, targets first, defeats after both."""
    t = Table(build("site1: chort", "site1: chort", turn=3, slava=(4, 4)))
    t.dusk()
    assert _site_starts(t)[0] == (1, -1, "simultaneous")
    assert [e.player for e in t.of(ev.ClashFired)] == [0, 1]
    assert t.s.nav == [[t.card(0, "chort")], [t.card(1, "chort")]]


def test_r_mor_06_initiative_takes_hold_on_the_following_turn() -> None:
    """[MOR-29] R-MOR-06: Initiative granted this turn makes its holder win ties on the next turn only."""
    t = Table(build("site2: ~omen-crow; deck: bannik bannik", "deck: bannik bannik", turn=2))
    t.dusk()
    assert [(e.player, e.for_turn) for e in t.of(ev.InitiativeGranted)] == [(0, 3)]
    assert t.of(ev.TurnBegan)[-1].initiative == 0 and t.s.initiative == 0
    t.commit(Done(), Done())
    t.run()
    assert t.of(ev.TurnBegan)[-1].initiative == -1


def test_r_mor_06_initiative_granted_to_both_cancels() -> None:
    """[MOR-29] R-MOR-06: when both players are granted Initiative in the same turn, nobody holds it."""
    t = Table(build("site1: ~omen-crow; deck: bannik", "site2: ~omen-crow; deck: bannik", turn=2))
    t.dusk()
    assert len(t.of(ev.InitiativeGranted)) == 2 and t.of(ev.TurnBegan)[-1].initiative == -1


def test_mor31_off_board_slava_capped_at_four_a_turn() -> None:
    """[MOR-31] R-MOR-08: Charms and Omens give at most +4 a turn together; a gain crossing the cap applies in part."""
    t = Table(build("site1: ~candle-for-the-dead ~gift-of-prav ~gift-of-prav", "", turn=7))
    t.dusk()
    off = [(e.amount, e.capped) for e in t.of(ev.SlavaGained) if e.source == "offboard"]
    assert off == [(1, 0), (2, 0), (1, 1)]  # the last +2 crosses the cap: +1 applies, 1 is cut
    assert t.s.slava == [4, 0]


def test_mor31_site_slava_is_unlimited_on_top_of_the_cap() -> None:
    """[MOR-31] Site Slava is not capped: 3 Sites and 4 off-board make +7 in one turn."""
    t = Table(build("site1: ~gift-of-prav ~gift-of-prav bannik; site2: bannik; site3: bannik", "", turn=5))
    t.dusk()
    assert t.s.slava == [7, 0]


def test_r_mor_08_reborn_and_invocation_slava_count_toward_the_cap() -> None:
    """[MOR-31] R-MOR-08: every non-Site gain (here an Invocation and a Reborn band) shares the one cap of 4."""
    t = Table(build("nav: alkonost; hand: candle-for-the-dead", "", turn=8, wardens=("dazhbog", "marzanna")))
    alkonost, candle = t.card(0, "alkonost"), t.card(0, "candle-for-the-dead")
    t.commit(Invoke(), Rebirth(alkonost, 1), Place(candle, 2), Done(), Done())
    t.run()
    off = [(e.by, e.amount, e.capped) for e in t.of(ev.SlavaGained) if e.source == "offboard"]
    assert off == [(warden_instance(0), 2, 0), (alkonost, 2, 0), (candle, 0, 1)]


def test_r_mor_18_effects_at_one_site_in_arrival_order_band_before_clash() -> None:
    """[MOR-16] [MOR-28] R-MOR-18: a player's effects at a Site go card by card in arrival order, band then Clash."""
    t = Table(build("site1: ~chort ~ember-sprite", "site1: polevik@9", turn=4, slava=(0, 1)))
    t.dusk()
    chort, sprite = t.card(0, "chort"), t.card(0, "ember-sprite")
    fired = [(type(e).__name__, e.card) for e in t.events if type(e) in (ev.OmenFired, ev.ClashFired)]
    assert fired == [("OmenFired", chort), ("ClashFired", chort), ("OmenFired", sprite)]


def test_r_mor_19_charms_have_no_power_but_resolve_in_slava_order() -> None:
    """[MOR-15] [MOR-37] R-MOR-19: a Charm adds no Power; its effect is one of its owner's effects at the Site."""
    t = Table(build("site1: ~rowan-ward", "site1: ~whisper-of-mokosh bannik", turn=4, slava=(2, 1)))
    t.dusk()
    rowan, whisper = t.card(0, "rowan-ward"), t.card(1, "whisper-of-mokosh")
    assert rowan not in t.s.power and whisper not in t.s.power
    assert [e.card for e in t.of(ev.CharmFired)] == [whisper, rowan]  # player 1 has less Slava
    assert t.of(ev.SiteScored)[0].power == [0, 3]


def test_r_mor_05_simultaneous_batch_lands_boosts_before_damage_whatever_the_seat() -> None:
    """[MOR-29] R-MOR-05: in a simultaneous batch every boost lands before any damage, so seats cannot matter:
    Power 1 boosted +2 and dealt 3 at once is defeated, with the cards in either seat."""
    for mine, theirs in ((0, 1), (1, 0)):
        specs = ["", ""]
        specs[mine] = "site1: ~dusk-without-end"
        specs[theirs] = "site1: bannik@1 ~rowan-ward"
        t = Table(build(*specs, turn=6))
        t.dusk()
        bannik = t.card(theirs, "bannik")
        assert t.of(ev.SiteResolutionBegan)[0].reason == "simultaneous"
        assert [(e.source, e.value) for e in t.of(ev.PowerChanged) if e.holder == bannik] == [
            ("boost", 3),
            ("damage", 0),
        ]
        assert t.s.nav[theirs] == [t.card(theirs, "rowan-ward"), bannik]  # the Charm is spent, then the defeat
