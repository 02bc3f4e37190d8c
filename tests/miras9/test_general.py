"""General effect rules and card identity: [M9-003], [M9-006], [M9-008]-[M9-013], [M9-108], [M9-112], [M9-113],
[M9-117]."""

from __future__ import annotations

from annals.engine.miras9.cards import pool_hash
from annals.engine.miras9.damage import leave_board
from annals.engine.miras9.effects import defeat
from annals.engine.miras9.pool import SHIPPED
from annals.engine.miras9.ruleset import RULESET
from annals.engine.simulate import make_header
from annals.schemas import miras9 as ev
from tests.miras9.table import Table


def test_written_order_and_may_M9_006() -> None:
    """[M9-006] Rally's instructions resolve in written order (boost, then ready); a 'may' (generation) can be 0."""
    t = Table(phase="action")
    u = t.unit(0, "char-raider", 0, tapped=1)
    rally = t.hand(0, "ev-rally")
    t.act(ev.PlayCard(rally, -1, u))
    changes = [e.counter for e in t.of(ev.CounterChanged) if e.holder == u]
    assert changes == ["atk_mod", "tapped"] and t.c(u).tapped == 0
    t2 = Table(phase="awaken.generate")
    t2.site(0, "site-outpost", 0)
    assert ev.Generate(0) in t2.options()


def test_card_identity_by_card_id_M9_008_M9_113() -> None:
    """[M9-008] [M9-113] a card is its current functional record, found by card ID; every play names the id, and
    each log header pins the card-pool version the game was played under."""
    t = Table(phase="action")
    c = t.hand(0, "char-raider")
    t.act(ev.PlayCard(c, 0))
    (played,) = t.of(ev.CardPlayed)
    assert played.card_id == "char-raider" and SHIPPED[played.card_id].atk == 3
    h = make_header(RULESET, 1, ["vanguard", "tempest"], ["random", "random"])
    assert h.card_pool_hash == pool_hash() == RULESET.card_pool_hash()


def test_types_and_traits_M9_009() -> None:
    """[M9-009] Unit traits decide lanes and manning: a Crew-0 Vehicle attacks, Characters never enter Space."""
    t = Table(phase="attack")
    buggy = t.unit(0, "veh-buggy", 0)
    t.act(ev.DeclareAt(0))
    assert any(type(o) is ev.AddAttacker and o.card == buggy for o in t.options())
    assert SHIPPED["char-recruit"].traits == ["character"] and SHIPPED["veh-buggy"].crew == 0
    t2 = Table(phase="action")
    recruit, buggy_card = t2.hand(0, "char-recruit"), t2.hand(0, "veh-buggy")
    locs = {(o.card, o.loc) for o in t2.options() if type(o) is ev.PlayCard}
    assert (recruit, 2) not in locs and (recruit, 0) in locs and {(buggy_card, 1), (buggy_card, 2)}.isdisjoint(locs)


def test_owner_and_controller_M9_010() -> None:
    """[M9-010] owner and controller differ: a card player 0 controls but player 1 owns is defeated into its
    owner's Discard, and a bounce returns it to its owner's Hand."""
    t = Table(phase="action")
    u = t.unit(1, "char-recruit", 0, side=0, ctrl=0)
    v = t.unit(1, "char-recruit", 1, side=0, ctrl=0)
    defeat(t.s, t.emit, t.c(u))
    assert u in t.s.players[1].discard and u not in t.s.players[0].discard
    leave_board(t.s, t.emit, t.c(v), "hand", "bounce")
    assert v in t.s.players[1].hand and v not in t.s.players[0].hand


def test_pile_order_draws_from_top_M9_012() -> None:
    """[M9-012] draws take the top card; the rest of the pile keeps its order; shuffles list the whole pile."""
    t = Table(phase="attune", active=1)
    before = list(t.s.players[0].deck)
    from annals.engine.miras9.turn import end_turn

    end_turn(t.s, t.emit)
    t.settle()
    t.act(ev.CardFlow(False))
    assert t.s.players[0].hand[-1] == before[-1] and t.s.players[0].deck == before[:-1]


def test_tokens_cease_to_exist_when_leaving_M9_013() -> None:
    """[M9-013] Engineer creates a Drone token; when the token leaves the board it is gone, not in a pile."""
    t = Table(phase="action")
    eng = t.hand(0, "char-engineer")
    t.act(ev.PlayCard(eng, 1))
    (tok,) = t.of(ev.TokenCreated)
    assert tok.card_id == "token-drone" and t.c(tok.card).token
    assert tok.dst == "lane:0:exterior"  # a Vehicle token: the Interior is not legal for it [M9-059]
    leave_board(t.s, t.emit, t.c(tok.card), "hand", "bounce")
    assert t.c(tok.card).zone == "gone" and tok.card not in t.s.players[0].hand


def test_triggered_ability_on_attack_M9_108() -> None:
    """[M9-108] Duelist's trigger fires when it attacks; the current ATK is used at damage [M9-110]."""
    t = Table(phase="attack")
    d = t.unit(0, "char-duelist", 0)
    t.attack(0, [(d, 0)])
    (fired,) = t.of(ev.TriggerFired)
    assert fired.card == d and fired.trigger == "attack"
    t.to_damage()
    assert t.of(ev.BattleDamageAssigned)[0].amount == 3


def test_this_you_opponent_M9_112() -> None:
    """[M9-112] 'you' is the source's controller, 'opponent' the other player."""
    t = Table(phase="action", echo=(0, 3))
    m = t.unit(1, "char-martyr", 0)
    defeat(t.s, t.emit, t.c(m))
    assert t.s.players[1].echo == 5 and t.s.players[0].echo == 0
    sab = t.hand(0, "char-saboteur")
    t.act(ev.PlayCard(sab, 0))
    assert t.s.players[1].echo == 4


def test_specific_text_overrides_general_rule_only_for_its_permission_M9_117_M9_003() -> None:
    """[M9-117] [M9-003] card text beats the general rule: Infiltrate lets a Character enter an enemy Site, but not
    Space: the exception covers only the permission it grants."""
    t = Table(phase="action")
    c = t.hand(0, "char-infiltrator")
    locs = {o.loc for o in t.options() if type(o) is ev.PlayCard and o.card == c}
    assert 3 in locs and 5 not in locs and 2 not in locs


def test_script_hook_for_unique_card() -> None:
    """A unique card's named hook (Tidal Recall) acts only through primitives: every change is an event."""
    t = Table(phase="action")
    weak = t.unit(1, "char-recruit", 0, tapped=1)
    strong = t.unit(1, "char-veteran", 0, tapped=1)
    ready = t.unit(1, "char-recruit", 1)
    tidal = t.hand(0, "ev-tidal")
    t.act(ev.PlayCard(tidal, -1, 0))
    assert t.c(weak).zone == "hand" and t.c(strong).zone.startswith("lane") and t.c(ready).zone.startswith("lane")


def test_last_stand_counts_the_attacked_unit_as_a_combatant_M9_081() -> None:
    """R-M9-32 [M9-081]: Last Stand's "combatants" are the same Units a combatant Reaction may target, so the
    defender's attacked Unit gets +1 ATK for the one enemy combatant."""
    t = Table(phase="attack")
    a = t.unit(0, "char-raider", 0)
    d = t.unit(1, "char-veteran", 0, tapped=1)
    stand = t.hand(1, "rx-laststand")
    t.attack(0, [(a, d)])
    t.act(ev.PlayCard(stand, -1, 0))
    t.pass_window()
    assert t.c(d).atk_mod == 1 and t.c(a).atk_mod == 0
