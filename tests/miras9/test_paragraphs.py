"""Paragraphs the older tests cited only by name: a real Site over the lane token [M9-029], what the Action and
Attack phases are for [M9-035], [M9-036], and Planets that differ in threshold and Spirit form [M9-104]."""

from __future__ import annotations

from annals.engine.miras9.board import atk, grit, may_enter
from annals.engine.miras9.pool import SHIPPED
from annals.engine.miras9.ruleset import RULESET
from annals.engine.miras9.state import loc_of
from annals.engine.miras9.turn import generation_max
from annals.schemas import miras9 as ev
from tests.miras9.table import Table


def test_a_real_site_supplies_identity_value_abilities_and_access_M9_029() -> None:
    """[M9-029] played over the basic lane token, Bastion Wall gives the lane its identity (the Site position
    holds that card), its resource value (generation 0 -> 1), its ability (+1 GRIT to the owner's Units there)
    and its access restriction (an enemy Infiltrator may no longer enter)."""
    t = Table(phase="action")
    mine = t.unit(0, "char-recruit", 0)
    spy = SHIPPED["char-infiltrator"]
    assert t.s.players[0].sites[0] == 0 and generation_max(t.s, 0) == 0
    assert grit(t.s, t.c(mine)) == 2 and may_enter(t.s, spy, 1, loc_of(0, 0))
    wall = t.hand(0, "site-bastion")
    t.act(ev.PlayCard(wall, loc_of(0, 0)))
    assert t.s.players[0].sites[0] == wall and RULESET.position(t.s).cards[wall] == "site:0:exterior"
    assert generation_max(t.s, 0) == 1
    assert grit(t.s, t.c(mine)) == 3
    assert not may_enter(t.s, spy, 1, loc_of(0, 0)) and may_enter(t.s, spy, 1, loc_of(0, 1))


def _kinds(t: Table) -> set[str]:
    out: set[str] = set()
    for o in t.options():
        if type(o) is ev.PlayCard:
            out.add(SHIPPED[t.c(o.card).cid].type)
        elif type(o) is ev.Activate:
            out.add("action ability")
    return out


def test_action_is_the_phase_for_playing_cards_and_action_abilities_M9_035() -> None:
    """[M9-035] at the Action main decision a Unit, a Site, Equipment and an Event may be played and an Action
    ability used; at the Attack and Attune main decisions none of them is offered."""
    for phase, expected in (("action", {"unit", "site", "equipment", "event", "action ability"}),
                            ("attack", set()), ("attune", set())):  # fmt: skip
        t = Table(phase=phase)
        t.unit(0, "char-medic", 0)
        t.unit(0, "char-recruit", 0, wounds=1)
        for cid in ("char-raider", "site-outpost", "eq-blade", "ev-strike"):
            t.hand(0, cid)
        t.unit(1, "char-recruit", 0)  # a target for the Strike
        assert _kinds(t) == expected, phase


def test_attack_is_the_phase_of_waves_blocks_reactions_and_damage_M9_036() -> None:
    """[M9-036] waves are declared only at the Attack main decision; within the phase the blockers are assigned,
    a reaction is played and combat and Battle Damage are resolved, with no phase change in between."""
    t = Table(phase="action")
    a, c = t.unit(0, "char-raider", 0), t.unit(0, "char-recruit", 1)
    b = t.unit(1, "char-recruit", 0)
    shield = t.hand(1, "rx-shield")
    assert not any(type(o) is ev.DeclareAt for o in t.options())  # not in Action
    t.act(ev.Pass())
    assert t.s.phase == "attack" and ev.DeclareAt(0) in t.options()
    start = len(t.events)
    t.attack(0, [(a, 0)])
    t.pass_window()
    t.block([(b, a)])
    t.act(ev.Pass())
    t.act(ev.PlayCard(shield, -1, b))  # a reaction in the wave
    t.pass_window()
    t.pass_window()
    t.attack(1, [(c, 0)])  # a second wave, at another Site: Battle Damage
    t.to_damage()
    t.act(t.options()[0])
    t.pass_window()
    kinds = {type(e) for e in t.events[start:]}
    wanted = {ev.WaveDeclared, ev.BlockersDeclared, ev.StackPushed, ev.CombatDamage, ev.BattleDamagePaid}
    assert wanted <= kinds and ev.PhaseBegan not in kinds
    assert t.s.phase == "attack" and t.point().point == "attack"
    assert t.c(b).wounds == 0 and t.c(a).wounds == 1  # the shield took the raider's 3; 1 back


def test_planets_differ_in_threshold_and_spirit_form_M9_104() -> None:
    """[M9-104] awakening deploys the paired card's own Spirit: Ashen awakens at 4 Echo as a 2/4 Spirit that
    generates 1, Kessra needs 6 and becomes a 4/5 (+1 ATK this turn)."""
    forms: dict[str, tuple[str, int, int, int]] = {}
    for planet, threshold in (("planet-ashen", 4), ("planet-kessra", 6)):
        t = Table(phase="action", echo=(threshold - 1, 0), leaders=(planet, "planet-vael"))
        assert not any(type(o) is ev.Awaken for o in t.options())
        t.s.players[0].echo = threshold
        resource = len(t.s.players[0].resource)
        t.act(ev.Awaken(loc_of(0, 0)))
        cs = t.c(t.s.players[0].leader)
        assert cs.face == 1 and t.s.players[0].echo == 0
        spirit = SHIPPED[planet].spirit
        assert spirit is not None
        forms[planet] = (spirit.name, atk(t.s, cs), grit(t.s, cs), len(t.s.players[0].resource) - resource)
    assert forms == {"planet-ashen": ("Ashen Revenant", 2, 4, 1), "planet-kessra": ("Kessra Ascendant", 5, 5, 0)}


def test_aftershock_and_the_manual_site_battle_are_not_in_play_M9_124() -> None:
    """[M9-124] Aftershock and the older manual Site Battle are tabled prototypes, not current play unless a
    supported card invokes them: no shipped card names either, the log has no event or option kind for them, and
    an unblocked attack on a Site is settled only by Battle Damage paid point by point [M9-086]."""
    import typing

    import msgspec

    texts = {cid: msgspec.json.encode(d).decode().lower() for cid, d in SHIPPED.items()}
    assert len(texts) > 40
    for word in ("aftershock", "site battle", "site_battle"):
        assert not [cid for cid, t in texts.items() if word in t], word
    kinds = [k.__name__.lower() for k in (*typing.get_args(ev.M9Event), *typing.get_args(ev.M9Option))]
    assert len(kinds) > 60
    assert not [k for k in kinds if "aftershock" in k or "sitebattle" in k]
    t = Table(phase="attack")
    raider = t.unit(0, "char-raider", 0)
    t.attack(0, [(raider, 0)])
    t.to_damage()
    assert t.point().point == "battle_damage" and t.s.bd_sources == [raider] * atk(t.s, t.c(raider))
    assert [type(e).__name__ for e in t.events if type(e).__name__.startswith("BattleDamage")] == [
        "BattleDamageAssigned"
    ]
