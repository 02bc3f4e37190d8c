"""Planet and Spirit [M9-092], [M9-102]-[M9-106]; Manifest, Pressure, Restore [M9-093]-[M9-097], [M9-101];
Battle Presence [M9-056], [M9-120]."""

from __future__ import annotations

from annals.engine.miras9.effects import defeat
from annals.schemas import miras9 as ev
from tests.miras9.table import Table


def test_manifest_gains_echo_and_taps_M9_094_M9_093() -> None:
    """[M9-094] [M9-093] at a friendly Site without enemy presence: tap and gain effective ECHO."""
    t = Table(phase="attune")
    u = t.unit(0, "char-oracle", 1)  # ECHO 3, draws when it Manifests
    hand = len(t.s.players[0].hand)
    t.act(ev.DoManifest(u))
    assert t.s.players[0].echo == 3 and t.c(u).tapped == 1
    assert len(t.s.players[0].hand) == hand + 1  # its trigger [M9-108]


def test_enemy_presence_stops_manifest_and_pressure_M9_056_M9_120_M9_094_M9_095() -> None:
    """[M9-056] [M9-120] a ready, Attuned enemy Unit in the lane column blocks Manifest and Pressure there."""
    t = Table(phase="attune")
    u = t.unit(0, "char-recruit", 0)
    inf = t.unit(0, "char-infiltrator", 1, side=1)
    foe = t.unit(1, "char-recruit", 0)
    assert ev.DoManifest(u) not in t.options()
    assert ev.DoPressure(inf) in t.options()
    t.c(foe).tapped = 1  # a tapped Unit has no presence
    assert ev.DoManifest(u) in t.options()
    t.unit(1, "char-recruit", 1, attuned=0)  # nor an Unattuned one
    assert ev.DoPressure(inf) in t.options()


def test_pressure_reduces_opponent_echo_to_zero_M9_095_M9_096() -> None:
    """[M9-095] [M9-096] Pressure lowers the opponent's Echo by ECHO, to 0, with no Battle Damage."""
    t = Table(phase="attune", echo=(0, 1))
    inf = t.unit(0, "char-infiltrator", 0, side=1)  # ECHO 2 at the enemy Exterior
    t.act(ev.DoPressure(inf))
    assert t.s.players[1].echo == 0 and t.s.bd_player == -1 and not t.of(ev.BattleDamageAssigned)


def test_one_manifest_per_site_per_turn_M9_097() -> None:
    """[M9-097] only one Unit may Manifest at a friendly Site each turn (another Site is fine)."""
    t = Table(phase="attune")
    a, b = t.unit(0, "char-recruit", 0), t.unit(0, "char-recruit", 0)
    c = t.unit(0, "char-recruit", 1)
    t.act(ev.DoManifest(a))
    assert ev.DoManifest(b) not in t.options() and ev.DoManifest(c) in t.options()


def test_one_pressure_per_enemy_site_per_turn_M9_097() -> None:
    """[M9-097] only one Unit may Pressure at an enemy Site each turn (another enemy Site is fine), and the limit
    is the Site's, not the Unit's: the second Unit there is refused too."""
    t = Table(phase="attune", echo=(0, 9))
    a, b = t.unit(0, "char-infiltrator", 0, side=1), t.unit(0, "char-infiltrator", 0, side=1)
    c = t.unit(0, "char-infiltrator", 1, side=1)
    assert {ev.DoPressure(a), ev.DoPressure(b), ev.DoPressure(c)} <= set(t.options())
    t.act(ev.DoPressure(a))
    assert ev.DoPressure(b) not in t.options() and ev.DoPressure(c) in t.options()
    assert t.s.players[1].echo == 7


def test_tap_is_a_cost_for_manifest_M9_043_M9_094() -> None:
    """[M9-043] ruling R-M9-07: a Unit tapped by attacking cannot Manifest afterwards."""
    t = Table(phase="attune")
    u = t.unit(0, "char-recruit", 0, tapped=1)
    assert ev.DoManifest(u) not in t.options()


def test_restore_pays_two_echo_top_of_discard_to_used_M9_101() -> None:
    """[M9-101] spend exactly 2 Echo, top of Discard goes face down on top of Used; only while payable."""
    t = Table(phase="attune", echo=(3, 0))
    t.add(0, "char-raider", "discard")
    top = t.add(0, "char-recruit", "discard")
    t.act(ev.DoRestore())
    assert t.s.players[0].echo == 1 and t.s.players[0].used[-1] == top
    assert ev.DoRestore() not in t.options()


def test_awaken_pays_threshold_spirit_ready_attuned_M9_102_M9_103_M9_104_M9_105() -> None:
    """[M9-102]-[M9-105] with Echo at the threshold the Spirit awakens (paid, ruling R-M9-08), ready and Attuned."""
    t = Table(phase="action", echo=(6, 0), leaders=("planet-kessra", "planet-vael"))
    leader = t.s.players[0].leader
    t.s.players[0].echo = 5
    assert not any(type(o) is ev.Awaken for o in t.options())
    t.s.players[0].echo = 6
    t.act(ev.Awaken(2))
    cs = t.c(leader)
    assert cs.zone == "lane:0:space" and cs.face == 1 and cs.attuned == 1 and cs.tapped == 0
    assert t.s.players[0].echo == 0
    assert cs.atk_mod == 1  # Kessra's awaken trigger


def test_awaken_offered_in_any_phase_of_own_turn_M9_103() -> None:
    """[M9-103] awakening is offered in Action, Attack and Attune main decisions of one's own turn."""
    for phase in ("action", "attack", "attune"):
        t = Table(phase=phase, echo=(6, 0))
        assert any(type(o) is ev.Awaken for o in t.options()), phase


def test_defeated_spirit_returns_planet_side_up_M9_092_M9_106() -> None:
    """[M9-092] [M9-106] a defeated Spirit returns to the Planet slot, wounds and modifiers gone."""
    t = Table(phase="action", echo=(6, 0))
    leader = t.s.players[0].leader
    t.act(ev.Awaken(0))
    t.c(leader).wounds = 2
    defeat(t.s, t.emit, t.c(leader))
    cs = t.c(leader)
    assert cs.zone == "planet" and cs.face == 0 and cs.wounds == 0 and cs.atk_mod == 0
    assert leader not in t.s.players[0].discard
