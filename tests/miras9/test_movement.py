"""Normal movement, En Route, arrival and Spot [M9-032], [M9-037], [M9-045], [M9-054], [M9-055], [M9-058],
[M9-059], [M9-121]; rulings R-M9-46, R-M9-47, R-M9-48, R-M9-52."""

from __future__ import annotations

from annals.engine.miras9.board import legal_targets, presence
from annals.engine.miras9.state import ROUTE_NAMES
from annals.engine.miras9.turn import end_turn
from annals.schemas import miras9 as ev
from tests.miras9.table import Table


def moves(t: Table, card: int) -> list[int]:
    return sorted(o.loc for o in t.options() if type(o) is ev.MoveUnit and o.card == card)


def en_route(t: Table, p: int, cid: str, origin: int, dest: int) -> int:
    """A Unit of player ``p`` that moved from ``origin`` toward ``dest`` in its last Move phase."""
    u = t.unit(p, cid, origin % 3, side=origin // 3, tapped=1)
    cs = t.c(u)
    cs.zone, cs.loc, cs.origin = ROUTE_NAMES[dest], dest, origin
    return u


def test_move_costs_one_resource_taps_and_goes_en_route_M9_058_M9_037() -> None:
    """[M9-058] normal movement in the Move phase [M9-037]: 1 resource, the mover tapped, En Route to its
    destination until its controller's next Awaken (the position holds origin and destination)."""
    t = Table(phase="move", resource=3)
    u = t.unit(0, "char-raider", 0)
    spent = t.s.players[0].resource[-1]
    t.act(ev.MoveUnit(u, 4))
    cs = t.c(u)
    assert (cs.zone, cs.loc, cs.origin, cs.tapped) == ("route:1:interior", 4, 0, 1)
    assert t.c(spent).zone == "used" and len(t.s.players[0].resource) == 2
    (moved,) = t.of(ev.UnitMoved)
    assert (moved.cards, moved.src, moved.dst, moved.cost) == ([u], "lane:0:exterior", "route:1:interior", 1)
    assert u in t.s.board  # En Route: left its origin, not arrived, still in play


def test_one_move_reaches_any_position_its_trait_may_use_M9_059() -> None:
    """[M9-059] Characters Exterior and Interior, Spirits any lane including Space, Vehicles Exterior, Unit-Ships
    Exterior and Space; ruling R-M9-46 (A-18): one move reaches any of them, on either half."""
    t = Table(phase="move", resource=5)
    char = t.unit(0, "char-raider", 0)
    spirit = t.unit(0, "spirit-wisp", 1)
    vehicle = t.unit(0, "veh-buggy", 0)
    ship = t.unit(0, "ship-corvette", 2)
    assert moves(t, char) == [1, 3, 4]
    assert moves(t, spirit) == [0, 2, 3, 4, 5]
    assert moves(t, vehicle) == [3]
    assert moves(t, ship) == [0, 3, 5]  # Exterior to Space in one move: never adjacent, still one move


def test_the_tap_is_a_cost_and_movement_is_phase_specific_M9_045_M9_053() -> None:
    """Ruling R-M9-46 (A-07, as R-M9-07): a tapped or Unattuned Unit cannot move [M9-053]; movement is offered in
    the Move phase only [M9-045]; it needs the resource to pay."""
    t = Table(phase="move", resource=1)
    ready = t.unit(0, "char-raider", 0)
    tapped = t.unit(0, "char-raider", 0, tapped=1)
    fresh = t.unit(0, "char-raider", 0, attuned=0)
    assert moves(t, ready) and not moves(t, tapped) and not moves(t, fresh)
    t2 = Table(phase="action", resource=3)
    u = t2.unit(0, "char-raider", 0)
    assert not moves(t2, u)
    t3 = Table(phase="move", resource=0)
    assert not moves(t3, t3.unit(0, "char-raider", 0))


def test_an_enemy_site_that_forbids_entry_is_closed_to_movement_M9_004_M9_029() -> None:
    """[M9-004] the Site's prohibition beats movement; [M9-029] a real Site supplies its access restrictions."""
    t = Table(phase="move", resource=3)
    t.site(1, "site-bastion", 0)
    u = t.unit(0, "char-raider", 1)
    assert moves(t, u) == [0, 4]


def test_en_route_gives_no_presence_and_cannot_act_or_be_chosen_M9_054_M9_121() -> None:
    """[M9-054] an En Route Unit gives no Battle Presence, cannot attack or block and cannot be chosen as an active
    Unit; [M9-121] En Route is the normal movement delay."""
    t = Table(phase="action", active=1)
    mover = en_route(t, 0, "char-raider", 0, 3)
    t.c(mover).tapped = 0  # even ready (card text), it does not act while En Route
    foe = t.unit(1, "char-raider", 0)
    assert not presence(t.s, 0, 0)
    assert mover not in legal_targets(t.s, "enemy_unit", 1) and mover not in legal_targets(t.s, "unit", 1)
    t.act(ev.Pass())  # to Attack
    t.act(ev.DeclareAt(0))
    assert not any(type(o) is ev.AddAttacker and o.target == mover for o in t.options())
    t.act(ev.AddAttacker(foe, 0))
    t.act(ev.Confirm())
    t.pass_window()
    assert t.s.wave is None or t.s.wave.step > 3  # no blocker was asked for: the En Route Unit cannot block


def test_arrival_in_the_controllers_awaken_readies_and_clears_the_marker_M9_032() -> None:
    """[M9-032] in its controller's Awaken an En Route card arrives, becomes ready and loses the marker; not in the
    opponent's Awaken."""
    t = Table(phase="attune", active=0)
    u = en_route(t, 0, "char-raider", 0, 4)
    end_turn(t.s, t.emit)  # player 1's turn begins: nothing arrives
    assert t.c(u).zone == "route:1:interior"
    t.s.phase = t.s.step = "attune"
    end_turn(t.s, t.emit)  # player 0's Awaken
    cs = t.c(u)
    assert (cs.zone, cs.loc, cs.origin, cs.tapped) == ("lane:1:interior", 4, -1, 0)
    (arrived,) = t.of(ev.Arrived)
    assert (arrived.cards, arrived.src, arrived.dst) == ([u], "route:1:interior", "lane:1:interior")
    readied = next(i for i, e in enumerate(t.events) if type(e) is ev.CounterChanged and e.holder == u)
    assert t.events.index(arrived) < readied and t.events[readied].value == 0  # arrives, then becomes ready


def test_card_text_changes_the_cost_or_the_arrival_M9_058() -> None:
    """[M9-058] "card text may change the cost or arrival": Troop Hauler moves for 0, a Transit Hub makes moves
    from its lane 1 cheaper, a Pathfinder (rapid) arrives at once, tapped."""
    t = Table(phase="move", resource=2)
    hauler = t.unit(0, "veh-hauler", 0)
    t.unit(0, "char-pilot", 0)
    t.act(ev.Embark(t.s.board[-1], hauler))
    t.act(ev.MoveUnit(hauler, 3))
    assert t.of(ev.UnitMoved)[-1].cost == 0 and len(t.s.players[0].resource) == 2
    t.site(0, "site-transit", 1)
    walker = t.unit(0, "char-raider", 1)
    t.act(ev.MoveUnit(walker, 0))
    assert t.of(ev.UnitMoved)[-1].cost == 0
    runner = t.unit(0, "char-pathfinder", 0)
    t.act(ev.MoveUnit(runner, 3))
    cs = t.c(runner)
    assert (cs.zone, cs.tapped, cs.origin) == ("lane:1:exterior", 1, -1) and t.of(ev.UnitMoved)[-1].cost == 1


def test_spot_makes_an_en_route_enemy_active_and_attackable_for_the_turn_M9_055_M9_121() -> None:
    """[M9-055] a Spot effect makes an enemy En Route Unit active and attackable for the stated duration (ruling
    R-M9-48: the turn): it can be chosen and attacked in its destination's column, and dies there; [M9-121]."""
    t = Table(phase="action", active=1)
    mover = en_route(t, 0, "char-raider", 1, 3)
    other = en_route(t, 0, "char-recruit", 1, 3)
    scan = t.hand(1, "ev-scan")
    intercept = t.hand(1, "ev-intercept")
    attacker = t.unit(1, "char-brute", 0)
    assert ev.PlayCard(scan, -1, mover) in t.options()
    t.act(ev.PlayCard(scan, -1, mover))
    assert t.c(mover).spotted == 1 and t.of(ev.Spotted)[0].card == mover
    assert mover in legal_targets(t.s, "enemy_unit", 1) and other not in legal_targets(t.s, "enemy_unit", 1)
    assert not any(type(o) is ev.PlayCard and o.target == mover for o in t.options())  # Spotted once is enough
    t.act(ev.PlayCard(intercept, -1, other))  # Spot, then 2 wounds: the Recruit dies En Route
    assert t.c(other).zone == "discard"
    assert not presence(t.s, 0, 0)  # Spotted, still En Route: no presence
    t.act(ev.Pass())
    t.act(ev.DeclareAt(0))
    assert ev.AddAttacker(attacker, mover) in t.options()
    t.act(ev.AddAttacker(attacker, mover))
    t.act(ev.Confirm())
    t.to_damage()
    assert t.c(mover).zone == "discard"


def test_spotted_lasts_until_the_end_of_the_turn_and_needs_an_en_route_target_M9_055() -> None:
    """Ruling R-M9-48: Spotted ends with the turn; a Unit at a Site cannot be Spotted; the Lookout's Action
    ability Spots too."""
    t = Table(phase="action", active=1)
    mover = en_route(t, 0, "char-raider", 1, 3)
    standing = t.unit(0, "char-raider", 0)
    lookout = t.unit(1, "char-lookout", 0)
    assert legal_targets(t.s, "enemy_en_route", 1) == [mover] and standing not in legal_targets(
        t.s, "enemy_en_route", 1
    )
    t.act(ev.Activate(lookout, 0, mover))
    assert t.c(mover).spotted == 1 and t.c(lookout).tapped == 1
    t.s.phase = t.s.step = "attune"
    end_turn(t.s, t.emit)
    assert t.c(mover).spotted == 0


def test_awaken_is_offered_in_the_move_phase_M9_103() -> None:
    """Ruling R-M9-52 (completing R-M9-09): the Planet may awaken at the Move phase's decision too [M9-103]."""
    t = Table(phase="move", echo=(9, 0))
    assert any(type(o) is ev.Awaken for o in t.options())
    t.act(next(o for o in t.options() if type(o) is ev.Awaken))
    assert t.of(ev.Awakened) and t.s.phase == "move"
