"""Wardens: chosen before the game, face-up, a Vigil and an Invocation X [MOR-32], [MOR-33]."""

from __future__ import annotations

import pytest

from annals.engine.morana.cards import DATA_DIR, build_pool, check_warden, shipped_pool
from annals.engine.morana.keywords import KEYWORDS
from annals.engine.morana.ruleset import RULESET
from annals.engine.morana.state import MoranaState, warden_instance
from annals.engine.runner import Game
from annals.engine.simulate import make_header
from annals.schemas import morana as ev
from annals.schemas.errors import CardDataError
from annals.schemas.morana import Done, Invoke, Rebirth, Vigil, Warden
from tests.morana.build import Table, build


def test_mor33_warden_chosen_before_the_game_and_face_up() -> None:
    """[MOR-33] Set-up places each Warden face-up (an open event) before the first Dawn."""
    header = make_header(RULESET, 5, ["clash", "glory"], ["random", "random"])
    g = Game(RULESET, header, [])
    g.step()
    chosen = [(e.player, e.card, e.warden, e.dst) for e in g.events if type(e) is ev.WardenChosen]
    assert chosen == [(0, warden_instance(0), "stribog", "warden"), (1, warden_instance(1), "lada", "warden")]
    assert isinstance(g.state, MoranaState)
    assert RULESET.position(g.state).cards[warden_instance(1)] == "warden"


def test_mor33_invocation_once_per_game_paid_in_embers_during_commit() -> None:
    """[MOR-33] R-MOR-15: Invoke costs X Embers in Commit, resolves after the flip before the Sites, once a game."""
    t = Table(build("deck: bannik", "site1: bannik; deck: bannik", turn=3))  # Marzanna: X = 3, 3 damage
    assert Invoke() in t.options()
    t.commit(Invoke())
    assert t.s.embers[0] == 0 and [e.source for e in t.of(ev.EmbersChanged)] == ["invocation"]
    t.commit(Done(), Done())
    t.run()
    kinds = [type(e) for e in t.events]
    assert kinds.index(ev.InvocationFired) < kinds.index(ev.SiteResolutionBegan)
    assert t.of(ev.InvocationResolutionBegan)[0].step == "dusk.invocation"
    assert t.s.nav[1] == [t.card(1, "bannik")]  # 3 damage to their strongest
    t.s.embers = [9, 9]
    assert Invoke() not in t.options()


def test_mor33_invocation_is_not_a_keyword() -> None:
    """[MOR-33] Invocation is a Warden-only ability, not one of the six card keywords: a card printing it is
    rejected, and a Warden's Invocation is its own field."""
    assert "invocation" not in KEYWORDS and len(KEYWORDS) == 6
    raw = (DATA_DIR / "cards.toml").read_bytes()
    with pytest.raises(CardDataError, match="keyword 'invocation' is not printable"):
        build_pool(raw.replace(b"keywords = { swift = 0 }", b"keywords = { invocation = 3 }", 1))
    assert all(w.invocation and w.invocation_cost >= 1 for w in shipped_pool().wardens.values())


def test_r_mor_15_invocation_cost_at_least_one() -> None:
    """[MOR-33] R-MOR-15: X is at least 1; a Warden printed with X = 0 is rejected."""
    bad = Warden("w", "W", Vigil("ward_bonus", 1), 0, shipped_pool().wardens["lada"].invocation)
    with pytest.raises(CardDataError, match="invocation_cost 0"):
        check_warden(bad)


def test_mor33_vigils_are_passive() -> None:
    """[MOR-33] Each Vigil acts without being fired: Dazhbog +1 on reveal, Stribog +1 Clash, Lada +1 Ward,
    Marzanna -1 Reborn cost."""
    t = Table(build("site1: ~bannik", "", turn=2, wardens=("dazhbog", "marzanna")))
    t.dusk()
    assert t.s.power[t.card(0, "bannik")] == 4
    t = Table(build("site1: chort", "site1: vodyanoy", turn=2, wardens=("stribog", "lada"), slava=(0, 1)))
    t.dusk()
    assert t.of(ev.ClashFired)[0].amount == 3 and t.of(ev.PowerChanged)[-1].prevented == 1
    t = Table(build("nav: volkolak", "", turn=2))
    t.commit(Rebirth(t.card(0, "volkolak"), 1))
    assert t.s.embers[0] == 0
