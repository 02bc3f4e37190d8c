"""Hosts and crews [M9-056], [M9-057], [M9-060]-[M9-062], [M9-091], [M9-093], [M9-098]; rulings R-M9-49,
R-M9-50, R-M9-51."""

from __future__ import annotations

from annals.engine.miras9.board import can_act, presence
from annals.engine.miras9.effects import defeat, resolve
from annals.engine.miras9.turn import end_turn, start_turn
from annals.schemas import miras9 as ev
from tests.miras9.table import Table


def crew_opts(t: Table) -> list[object]:
    return [o for o in t.options() if type(o) in (ev.Embark, ev.Disembark)]


def test_embarking_is_free_untapped_repeatable_in_action_or_move_M9_060_M9_035_M9_037() -> None:
    """[M9-060] free in Action [M9-035] or Move [M9-037], no tap, repeatable while legal; not in Attack or
    Attune; only at the host's position."""
    t = Table(phase="action", resource=0)
    rover = t.unit(0, "veh-rover", 0)
    pilot = t.unit(0, "char-pilot", 0)
    away = t.unit(0, "char-pilot", 1)
    assert crew_opts(t) == [ev.Embark(pilot, rover)]
    for _ in range(2):
        t.act(ev.Embark(pilot, rover))
        assert t.c(pilot).aboard == rover and t.c(rover).crew == 1 and t.c(pilot).tapped == 0
        assert ev.Disembark(pilot) in t.options()
        t.act(ev.Disembark(pilot))
        assert t.c(pilot).aboard == 0 and t.c(rover).crew == 0
    assert len(t.of(ev.Embarked)) == 2 and len(t.of(ev.Disembarked)) == 2 and t.c(away).aboard == 0
    for phase in ("attack", "attune"):
        t.s.phase = t.s.step = phase
        assert not crew_opts(t)
    t.s.phase = t.s.step = "move"
    assert crew_opts(t) == [ev.Embark(pilot, rover)]


def test_crew_limit_and_who_may_board_M9_061_M9_062() -> None:
    """[M9-062] never beyond the Crew Limit; [M9-061] Vehicles and Ships do not embark, and only Units owned by the
    host's controller count toward manning."""
    t = Table(phase="action")
    rover = t.unit(0, "veh-rover", 0)
    a, b = t.unit(0, "char-pilot", 0), t.unit(0, "char-raider", 0)
    t.unit(0, "veh-buggy", 0)
    t.act(ev.Embark(a, rover))
    assert not any(type(o) is ev.Embark for o in t.options())  # Crew 1: full
    t.act(ev.Disembark(a))
    assert sorted(o.card for o in t.options() if type(o) is ev.Embark) == sorted([a, b])  # never the buggy
    borrowed = t.unit(0, "char-pilot", 0)
    t.c(borrowed).owner = 1  # controlled by player 0, owned by player 1
    t.act(ev.Embark(borrowed, rover))
    assert t.c(rover).crew == 0 and not can_act(t.s, t.c(rover))


def test_an_unmanned_host_does_not_attack_move_pressure_or_give_presence_M9_057_M9_093() -> None:
    """[M9-057] an unmanned Vehicle or Unit-Ship does not attack, block, move, Pressure or establish presence;
    Crew 0 is always manned; [M9-093] a Vehicle must be manned to Manifest or Pressure."""
    t = Table(phase="move", resource=3)
    rover = t.unit(0, "veh-rover", 0)
    assert not can_act(t.s, t.c(rover)) and not presence(t.s, 0, 0)
    assert not any(type(o) is ev.MoveUnit and o.card == rover for o in t.options())
    buggy = t.unit(0, "veh-buggy", 0)
    assert can_act(t.s, t.c(buggy)) and presence(t.s, 0, 0)  # Crew 0: always manned
    t1 = Table(phase="attack", active=1)
    t1.unit(0, "veh-rover", 0)
    raider = t1.unit(1, "char-raider", 0)
    t1.attack(0, [(raider, 0)])
    t1.pass_window()
    assert (
        not any(type(e) is ev.WaveStep and e.step_no == 3 for e in t1.events)
        or not t1.of(ev.BlockersDeclared)[0].blockers
    )  # the unmanned Rover was never a blocker
    t2 = Table(phase="attune")
    raider = t2.unit(1, "char-raider", 0)
    rover2 = t2.unit(0, "veh-rover", 0, side=1)
    assert not any(type(o) is ev.DoPressure for o in t2.options())
    t2.c(raider).tapped = 1  # no enemy presence left
    assert not any(type(o) is ev.DoPressure for o in t2.options())  # unmanned
    pilot = t2.unit(0, "char-pilot", 0, side=1)
    t2.s.phase = t2.s.step = "move"
    t2.act(ev.Embark(pilot, rover2))
    t2.act(ev.Pass())
    assert ev.DoPressure(rover2) in t2.options() and ev.DoPressure(pilot) not in t2.options()


def test_manned_host_attacks_and_manifests_with_its_own_echo_M9_098_M9_099() -> None:
    """[M9-098] a Vehicle uses its own ECHO for Manifest (Armoured Rover 1, not the Pilot's); ruling R-M9-50:
    crew do not attack or Manifest themselves [M9-099]."""
    t = Table(phase="action")
    rover = t.unit(0, "veh-rover", 0)
    hauler = t.unit(0, "veh-hauler", 0)
    pilot = t.unit(0, "char-raider", 0)
    t.act(ev.Embark(pilot, hauler))
    t.act(ev.Pass())
    t.act(ev.DeclareAt(0))
    adds = {o.card for o in t.options() if type(o) is ev.AddAttacker}
    assert hauler in adds and rover not in adds and pilot not in adds
    t2 = Table(phase="attune")
    h2 = t2.unit(0, "veh-hauler", 0)
    p2 = t2.unit(0, "char-raider", 0, aboard=h2)
    t2.c(h2).crew = 1
    assert ev.DoManifest(p2) not in t2.options()
    t2.act(ev.DoManifest(h2))
    assert t2.s.players[0].echo == 2  # the Hauler's ECHO 2, not the Raider's


def test_crew_give_presence_through_the_host_M9_056() -> None:
    """[M9-056] ready, Attuned embarked Characters establish presence through their host (ruling R-M9-50: at
    once, when legal): the opponent cannot Manifest in that column."""
    t = Table(phase="attune", active=1)
    host = t.unit(0, "veh-rover", 0)
    crew = t.unit(0, "char-pilot", 0, aboard=host, tapped=1)
    t.c(host).crew = 1
    t.c(host).tapped = 1
    mine = t.unit(1, "char-raider", 0)
    assert not presence(t.s, 0, 0) and ev.DoManifest(mine) in t.options()
    t.c(crew).tapped = 0
    assert presence(t.s, 0, 0) and ev.DoManifest(mine) not in t.options()


def test_crew_travel_with_a_moving_host_keeping_their_status_M9_062() -> None:
    """[M9-062] crew travel with the moving host and keep their own status (ruling R-M9-51, A-19: En Route with
    it, not tapped); the host's Equipment travels too; they arrive together [M9-032]."""
    t = Table(phase="move")
    ship = t.unit(0, "ship-cutter", 0)
    pilot = t.unit(0, "char-pilot", 0)
    blade = t.equip(0, "eq-blade", ship)
    t.act(ev.Embark(pilot, ship))
    assert not any(type(o) is ev.MoveUnit and o.card == pilot for o in t.options())  # crew do not move alone
    t.act(ev.MoveUnit(ship, 2))
    (moved,) = t.of(ev.UnitMoved)
    assert moved.cards == [ship, pilot, blade] and moved.dst == "route:0:space"
    assert t.c(pilot).tapped == 0 and t.c(ship).tapped == 1 and t.c(pilot).zone == "route:0:space"
    t.s.phase = t.s.step = "attune"
    end_turn(t.s, t.emit)
    start_turn(t.s, t.emit, 0)
    assert {t.c(c).zone for c in (ship, pilot, blade)} == {"lane:0:space"} and t.c(pilot).aboard == ship
    assert not any(type(o) is ev.Disembark for o in crew_opts_in_move(t))  # a Character cannot step out in Space


def crew_opts_in_move(t: Table) -> list[object]:
    t.s.phase = t.s.step = "move"
    return crew_opts(t)


def test_host_defeated_at_space_discards_crew_at_exterior_they_survive_tapped_M9_091() -> None:
    """[M9-091] a host defeated at Space: its crew are discarded (ruling R-M9-51: not defeated, no trigger); at
    Exterior: they survive, tapped, at that Site; returned to Hand: the crew stay with their status."""
    t = Table(phase="action")
    ship = t.unit(0, "ship-carrier", 2)
    courier = t.unit(0, "char-courier", 2, aboard=ship)  # "when defeated, draw": must not fire
    spirit = t.unit(0, "spirit-wisp", 2, aboard=ship)
    t.c(ship).crew = 2
    hand = len(t.s.players[0].hand)
    defeat(t.s, t.emit, t.c(ship))
    assert t.c(courier).zone == "discard" and t.c(spirit).zone == "discard" and t.c(ship).zone == "discard"
    assert len(t.s.players[0].hand) == hand and not [e for e in t.of(ev.TriggerFired) if e.card == courier]
    t2 = Table(phase="action")
    rover = t2.unit(0, "veh-rover", 0)
    pilot = t2.unit(0, "char-pilot", 0, aboard=rover)
    t2.c(rover).crew = 1
    defeat(t2.s, t2.emit, t2.c(rover))
    cs = t2.c(pilot)
    assert (cs.zone, cs.aboard, cs.tapped) == ("lane:0:exterior", 0, 1)
    assert [e.reason for e in t2.of(ev.Disembarked)] == ["host_defeated"]
    t3 = Table(phase="action")
    rover3 = t3.unit(0, "veh-rover", 0)
    pilot3 = t3.unit(0, "char-pilot", 0, aboard=rover3)
    t3.c(rover3).crew = 1
    resolve(t3.s, t3.emit, [ev.Bounce()], 0, 1, rover3)
    assert t3.c(rover3).zone == "hand" and (t3.c(pilot3).zone, t3.c(pilot3).tapped) == ("lane:0:exterior", 0)
