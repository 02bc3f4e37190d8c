"""The turn, playing cards, resources, statuses and the board [M9-023], [M9-025]-[M9-053], [M9-118]-[M9-120]."""

from __future__ import annotations

from annals.engine.miras9.board import atk, echo_of, grit
from annals.engine.miras9.turn import end_turn, start_turn
from annals.schemas import miras9 as ev
from tests.miras9.table import Table


def test_turn_phases_in_order_M9_031_M9_035_M9_036_M9_037() -> None:
    """[M9-031] Awaken, Action, Attack, Move, Attune, then the opponent's turn; each phase is an event."""
    t = Table(phase="attune")
    end_turn(t.s, t.emit)
    t.settle()
    t.act(ev.CardFlow(False))
    t.act(ev.Generate(0)) if t.point() and t.point().point == "generate" else None
    t.act(ev.Pass())  # action
    t.act(ev.Pass())  # attack
    t.act(ev.Pass())  # move
    phases = [e.phase for e in t.of(ev.PhaseBegan)]
    assert phases == ["awaken", "awaken.flow", "awaken.generate", "action", "attack", "move", "attune"]
    t.act(ev.Pass())  # attune: pass the turn
    assert t.s.active == 0 and t.of(ev.TurnBegan)[-1].active == 0


def test_awaken_readies_and_card_flow_choice_M9_032_M9_033() -> None:
    """[M9-032] ready the active player's tapped cards; [M9-033] draw the top card or move it to Resource."""
    t = Table(phase="attune", active=1)
    u = t.unit(0, "char-raider", 0, tapped=1)
    foe = t.unit(1, "char-raider", 0, tapped=1)
    top = t.s.players[0].deck[-1]
    end_turn(t.s, t.emit)
    t.settle()
    assert t.c(u).tapped == 0 and t.c(foe).tapped == 1
    assert set(t.options()) == {ev.CardFlow(False), ev.CardFlow(True)}
    t.act(ev.CardFlow(True))
    assert t.c(top).zone == "resource" and t.s.players[0].resource[-1] == top


def test_generation_up_to_site_maximum_M9_034_M9_048_M9_029() -> None:
    """[M9-034] [M9-048] ruling R-M9-05: generate up to the sum of real Sites' values; a lane token gives 0."""
    t = Table(phase="attune", active=1)
    t.site(0, "site-outpost", 0)  # 1
    t.site(0, "site-market", 1)  # 2
    end_turn(t.s, t.emit)
    t.settle()
    t.act(ev.CardFlow(False))
    amounts = sorted(o.amount for o in t.options() if type(o) is ev.Generate)
    assert amounts == [0, 1, 2, 3]
    deck_top3 = t.s.players[0].deck[-3:]
    t.act(ev.Generate(3))
    assert all(t.c(c).zone == "resource" for c in deck_top3)
    assert t.s.phase == "action"


def test_survival_clock_at_start_of_turn_M9_023_M9_051() -> None:
    """[M9-023] [M9-051] empty Main Deck, Resource and Used at the start of the turn loses; Hand does not help."""
    t = Table(phase="attune", active=1, deck=0, resource=0)
    t.hand(0, "char-recruit")
    end_turn(t.s, t.emit)
    assert t.s.over and t.s.winner == 1 and t.s.end_reason == "survival_clock"
    t2 = Table(phase="attune", active=1, deck=0, resource=0)
    t2.add(0, "char-recruit", "used")
    start_turn(t2.s, t2.emit, 0)
    assert not t2.s.over


def test_unattuned_ends_when_turn_passes_M9_038_M9_053() -> None:
    """[M9-053] a Unit enters Unattuned; [M9-038] it attunes when its controller passes the turn."""
    t = Table(phase="action")
    card = t.hand(0, "char-raider")
    t.act(ev.PlayCard(card, 0))
    assert t.c(card).attuned == 0 and t.c(card).zone == "lane:0:exterior"
    t.act(ev.Pass())
    assert ev.DeclareAt(0) not in t.options()  # cannot attack while Unattuned
    t.act(ev.Pass())
    assert not any(type(o) is ev.MoveUnit for o in t.options())  # nor move
    t.act(ev.Pass())
    assert not any(type(o) is ev.DoManifest for o in t.options())  # nor Manifest
    foe = t.unit(1, "char-raider", 0, attuned=0)  # entered during player 0's turn (ruling R-M9-15)
    t.act(ev.Pass())
    assert t.c(card).attuned == 1 and t.c(foe).attuned == 0  # only the passing player's Units attune
    end_turn(t.s, t.emit)  # player 1 passes its turn
    assert t.c(foe).attuned == 1


def test_units_enter_legal_lanes_M9_040_M9_059() -> None:
    """[M9-040] [M9-059] Characters Exterior/Interior, Vehicles Exterior, Ships Exterior/Space, Spirits anywhere."""
    t = Table(phase="action", resource=9)
    locs = {}
    for cid in ("char-recruit", "veh-buggy", "ship-corvette", "spirit-wisp", "char-scout"):
        c = t.hand(0, cid)
        locs[cid] = sorted(o.loc for o in t.options() if type(o) is ev.PlayCard and o.card == c)
    assert locs["char-recruit"] == [0, 1]
    assert locs["veh-buggy"] == [0]
    assert locs["ship-corvette"] == [0, 2]
    assert locs["spirit-wisp"] == [0, 1, 2]
    assert locs["char-scout"] == [0, 1, 3, 4]  # Infiltrate: enemy Sites too


def test_cannot_prevails_over_permission_M9_004_M9_117() -> None:
    """[M9-004] [M9-117] Infiltrate permits enemy Sites, but 'enemy Units cannot enter' the Bastion Wall."""
    t = Table(phase="action")
    t.site(1, "site-bastion", 0)
    c = t.hand(0, "char-scout")
    locs = sorted(o.loc for o in t.options() if type(o) is ev.PlayCard and o.card == c)
    assert 3 not in locs and 4 in locs


def test_equipment_attaches_to_host_M9_041() -> None:
    """[M9-041] Equipment attaches to a friendly Unit, stays a separate card and modifies its host."""
    t = Table(phase="action")
    u = t.unit(0, "char-recruit", 1)
    blade = t.hand(0, "eq-blade")
    t.act(ev.PlayCard(blade, -1, u))
    assert t.c(blade).host == u and t.c(blade).zone == "lane:0:interior" and blade in t.s.board
    assert atk(t.s, t.c(u)) == 2


def test_event_resolves_then_discard_M9_042_M9_039() -> None:
    """[M9-039] [M9-042] an Event is announced, paid, resolved, and put in Discard."""
    t = Table(phase="action")
    foe = t.unit(1, "char-recruit", 0)
    strike = t.hand(0, "ev-strike")
    t.act(ev.PlayCard(strike, -1, foe))
    assert t.c(foe).zone == "discard" and t.c(strike).zone == "discard"
    kinds = [type(e).__name__ for e in t.events]
    assert kinds.index("CardPlayed") < kinds.index("CounterChanged")


def test_spend_moves_top_of_resource_to_used_in_full_M9_046_M9_047_M9_005() -> None:
    """[M9-046] [M9-047] each resource paid is the top of Resource to Used; [M9-005] unaffordable is not offered."""
    t = Table(phase="action", resource=2)
    top2 = t.s.players[0].resource[-2:]
    champ = t.hand(0, "char-champion")  # cost 5
    raider = t.hand(0, "char-raider")  # cost 2
    cards = {o.card for o in t.options() if type(o) is ev.PlayCard}
    assert champ not in cards and raider in cards
    t.act(ev.PlayCard(raider, 0))
    spends = [e for e in t.of(ev.CardMoved) if e.reason == "spend"]
    assert [e.card for e in spends] == top2[::-1] and t.s.players[0].used == top2[::-1]


def test_targeted_card_needs_a_legal_target_M9_005() -> None:
    """[M9-005] an Event whose required target does not exist cannot begin."""
    t = Table(phase="action")
    strike = t.hand(0, "ev-strike")
    assert all(o.card != strike for o in t.options() if type(o) is ev.PlayCard)


def test_resource_to_hand_from_top_in_attune_M9_049_M9_037() -> None:
    """[M9-049] [M9-037] in Attune, Resource cards may be moved to Hand, from the top (ruling R-M9-06)."""
    t = Table(phase="attune")
    top = t.s.players[0].resource[-1]
    t.act(ev.ResourceToHand())
    assert t.c(top).zone == "hand"
    t2 = Table(phase="action")
    assert ev.ResourceToHand() not in t2.options()


def test_echo_never_below_zero_M9_050_M9_007() -> None:
    """[M9-050] [M9-007] an Echo loss larger than the Echo leaves 0; ATK never below 0."""
    t = Table(phase="action", echo=(0, 0))
    sab = t.hand(0, "char-saboteur")
    t.act(ev.PlayCard(sab, 0))
    assert t.s.players[1].echo == 0 and not [e for e in t.of(ev.CounterChanged) if e.counter == "echo"]
    priest = t.unit(0, "char-priest", 1)  # ATK 0
    t.c(priest).atk_mod = -1
    assert atk(t.s, t.c(priest)) == 0


def test_tapped_card_cannot_pay_tap_cost_M9_052_M9_119() -> None:
    """[M9-052] [M9-119] a tapped card stays in play but cannot pay a tap cost; ready and Attuned are independent."""
    t = Table(phase="action")
    medic = t.unit(0, "char-medic", 0, tapped=1)
    t.unit(0, "char-recruit", 0, wounds=1)
    assert not any(type(o) is ev.Activate for o in t.options())
    t.c(medic).tapped = 0
    assert any(type(o) is ev.Activate for o in t.options())
    t.c(medic).attuned = 0
    assert not any(type(o) is ev.Activate for o in t.options())


def test_once_per_turn_and_phase_limited_abilities_M9_044_M9_045() -> None:
    """[M9-044] once per turn is spent for the turn; [M9-045] an Attune ability is not offered in Action."""
    t = Table(phase="action")
    medic = t.unit(0, "char-medic", 0)
    hurt = t.unit(0, "char-recruit", 0, wounds=1)
    priest = t.unit(0, "char-priest", 1)
    assert not any(type(o) is ev.Activate and o.card == priest for o in t.options())
    t.act(ev.Activate(medic, 0, hurt))
    assert t.c(hurt).wounds == 0
    t.c(medic).tapped = 0
    assert not any(type(o) is ev.Activate and o.card == medic for o in t.options())
    t.act(ev.Pass())
    t.act(ev.Pass())
    t.act(ev.Pass())  # the Move phase
    assert any(type(o) is ev.Activate and o.card == priest for o in t.options())


def test_stats_and_static_modifiers_M9_118_M9_110() -> None:
    """[M9-118] ATK, GRIT, ECHO; [M9-110] statics apply while the source is there, temporary ones expire."""
    t = Table(phase="attune")
    u = t.unit(0, "char-recruit", 0)
    cap = t.unit(0, "char-captain", 0)
    t.site(0, "site-bastion", 0)
    assert (atk(t.s, t.c(u)), grit(t.s, t.c(u)), echo_of(t.s, t.c(u))) == (2, 3, 1)
    assert atk(t.s, t.c(cap)) == 3  # "other" Units only
    t.c(u).atk_mod = 2
    t.act(ev.Pass())  # pass the turn: temporary modifiers end
    assert t.c(u).atk_mod == 0
    from annals.engine.miras9.damage import leave_board

    leave_board(t.s, t.emit, t.c(cap), "discard", "test")
    assert atk(t.s, t.c(u)) == 1


def test_lanes_are_shared_columns_M9_025_M9_028_M9_026() -> None:
    """[M9-025] [M9-028] ruling R-M9-01: a Unit in its Exterior attacks the opposing Exterior Site position without
    moving, even over a basic lane token [M9-026] (ruling R-M9-10)."""
    t = Table(phase="attack")
    a = t.unit(0, "char-raider", 0)
    foe = t.unit(1, "char-recruit", 0, tapped=1)
    t.unit(1, "char-recruit", 1, tapped=1)
    t.act(ev.DeclareAt(0))
    targets = {o.target for o in t.options() if type(o) is ev.AddAttacker and o.card == a}
    assert targets == {0, foe}
    assert t.s.players[1].sites[0] == 0


def test_zones_public_and_hidden_M9_011_M9_027() -> None:
    """[M9-027] after set-up every card is in a personal zone (Main Deck, Hand, Planet...) or at a board position;
    [M9-011] the opponent's draws and deck order are hidden in their view; board moves are public."""
    from annals.engine.miras9.ruleset import RULESET
    from annals.engine.miras9.state import LOC_NAMES, PILES, SITE_NAMES
    from tests.miras9.test_setup_decks import _setup

    s, _ = _setup(2)
    places = {*PILES, "planet", *LOC_NAMES, *(n for side in SITE_NAMES for n in side)}
    zones = {cs.zone for cs in s.cards.values()}
    assert zones <= places and {"deck", "hand", "planet"} <= zones

    draw = ev.CardMoved(0, 1, "x", 0, 1005, "deck", "hand", "draw")
    assert RULESET.redact(draw, 1).card == -1 and RULESET.redact(draw, 0).card == 1005
    assert RULESET.redact(draw, -1).card == -1
    play = ev.CardMoved(0, 1, "x", 0, 1005, "hand", "lane:0:exterior", "play")
    assert RULESET.redact(play, 1) == play
    shuffle = ev.PileShuffled(0, 0, "setup", 0, [1001, 1002])
    assert RULESET.redact(shuffle, 0).cards == [-1, -1]
