"""How you win [MOR-04], [MOR-05], the Slava track [MOR-10], and the Rite check [MOR-17]."""

from __future__ import annotations

from annals.schemas import morana as ev
from tests.morana.build import Table, build


def _end(t: Table) -> ev.GameEnded:
    (end,) = t.of(ev.GameEnded)
    assert isinstance(end, ev.GameEnded)
    return end


def test_mor05_thirteen_slava_wins_at_once_during_the_rite() -> None:
    """[MOR-05] [MOR-17] Reaching 13 at a Rite before Turn 8 ends the game there."""
    t = Table(build("site1: bannik", "", turn=3, slava=(12, 0)))
    t.dusk()
    end = _end(t)
    assert (end.winner, end.reason, end.turn, end.slava) == (0, "slava_13", 3, [13, 0])
    assert t.s.over and t.s.winner == 0 and t.of(ev.TurnBegan) == []


def test_mor05_after_turn_eight_most_slava_wins() -> None:
    """[MOR-05] No one at 13 after Turn 8: most Slava wins."""
    t = Table(build("site1: bannik", "site2: bannik; site3: bannik", turn=8, slava=(9, 7)))
    t.dusk()
    assert (_end(t).winner, _end(t).reason, _end(t).slava) == (0, "most_slava", [10, 9])


def test_mor05_r_mor_03_tiebreak_most_sites_controlled() -> None:
    """[MOR-05] R-MOR-03: level Slava: most Sites controlled (strictly more Power at the final Rite) wins."""
    t = Table(build("site1: bannik", "site2: bannik; site3: bannik", turn=8, slava=(6, 5)))
    t.dusk()
    end = _end(t)
    assert (end.winner, end.reason, end.slava, end.sites) == (1, "most_sites", [7, 7], [1, 2])


def test_mor05_tiebreak_most_total_power() -> None:
    """[MOR-05] Level Slava and Sites: most total Power on the board wins."""
    t = Table(build("site1: vodyanoy; site3: kikimora", "site1: bannik@4; site2: bannik", turn=8, slava=(3, 3)))
    t.dusk()
    end = _end(t)
    assert (end.winner, end.reason, end.slava, end.sites, end.power) == (1, "most_power", [4, 4], [1, 1], [5, 7])


def test_r_mor_04_full_tie_is_a_draw() -> None:
    """[MOR-05] R-MOR-04: Slava, Sites and Power all level: a draw (winner -1)."""
    t = Table(build("site1: bannik", "site2: bannik", turn=8, slava=(4, 4)))
    t.dusk()
    assert (_end(t).winner, _end(t).reason) == (-1, "draw") and t.s.winner == -1


def test_r_mor_01_both_reach_thirteen_in_one_rite() -> None:
    """[MOR-05] [MOR-17] R-MOR-01: all Sites are scored, then one check; both at 13+: more Slava wins, and at equal
    Slava the end-of-game tiebreaks decide (here Sites controlled). The later Sites still score."""
    t = Table(build("site1: bannik", "site2: bannik; site3: bannik", turn=5, slava=(12, 11)))
    t.dusk()
    end = _end(t)
    assert len(t.of(ev.SiteScored)) == 3
    assert (end.winner, end.reason, end.slava, end.sites) == (1, "most_sites", [13, 13], [1, 2])


def test_r_mor_02_thirteen_reached_at_dusk_waits_for_the_rite() -> None:
    """[MOR-05] [MOR-16] R-MOR-02: off-board Slava reaching 13 at Dusk does not end the game before the Rite."""
    t = Table(build("site1: ~gift-of-prav", "site3: bannik", turn=4, slava=(11, 0)))
    t.dusk()
    assert [e.site for e in t.of(ev.SiteResolutionBegan)] == [1, 2, 3]
    kinds = [type(e) for e in t.events]
    assert kinds.index(ev.SiteScored) < kinds.index(ev.GameEnded)
    assert (_end(t).winner, _end(t).reason, _end(t).slava) == (0, "slava_13", [13, 1])


def test_r_mor_17_site_slava_can_pass_thirteen_and_is_never_lost() -> None:
    """[MOR-10] [MOR-31] R-MOR-17: Site Slava counts past 13 (it decides double-13 Rites); no event lowers it."""
    t = Table(build("site1: bannik; site2: bannik", "", turn=5, slava=(12, 0)))
    t.dusk()
    assert _end(t).slava == [14, 0]
    assert all(e.amount >= 0 for e in t.of(ev.SlavaGained))


def test_r_mor_17_off_board_slava_stops_at_thirteen_and_site_slava_goes_on() -> None:
    """[MOR-10] [MOR-31] [MOR-05] R-MOR-17: an Omen at Dusk fills the track only to 13 (the cut is ``capped``);
    the Site scored at the Rite still counts past it."""
    t = Table(build("site1: ~gift-of-prav; site2: bannik", "", turn=4, slava=(12, 0)))
    t.dusk()
    (omen,) = [e for e in t.of(ev.SlavaGained) if e.source == "offboard"]
    assert (omen.value, omen.amount, omen.capped) == (13, 1, 1)
    assert _end(t).slava == [14, 0]


def test_r_mor_17_off_board_slava_cannot_outbid_a_rival_on_thirteen() -> None:
    """[MOR-10] [MOR-31] R-MOR-01 R-MOR-17: both at 12, an Omen is worth 1 to its owner, not 2, so a Site each
    leaves them level on 13 and the tiebreaks decide, not the side effect."""
    t = Table(build("site1: ~gift-of-prav", "site3: bannik", turn=4, slava=(12, 12)))
    t.dusk()
    offboard = [e for e in t.of(ev.SlavaGained) if e.source == "offboard"]
    assert [(e.value, e.capped) for e in offboard] == [(13, 1)]
    assert _end(t).slava == [13, 13]
    assert (_end(t).winner, _end(t).reason, _end(t).sites) == (1, "most_sites", [0, 1])
