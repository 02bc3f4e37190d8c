"""Ship-Sites [M9-030], [M9-063]-[M9-065], [M9-072], [M9-099], [M9-100], [M9-055]; rulings R-M9-53, R-M9-54,
R-M9-55 (engine/miras9/shipsites.py)."""

from __future__ import annotations

import pytest

from annals.engine.miras9.board import atk, is_unit, legal_targets, spottable, ward
from annals.engine.miras9.builder import from_spec, to_spec
from annals.engine.miras9.combat import attackers_in
from annals.engine.miras9.turn import end_turn, generation_max
from annals.engine.spec import SpecError
from annals.schemas import miras9 as ev
from tests.miras9.table import FILLER, Table


def ship(t: Table, p: int, cid: str, lane: int, side: int | None = None, **status: int) -> int:
    """A Ship-Site in play at ``side``'s half of ``lane`` (its controller's by default)."""
    return t.add(p, cid, "board", lane=lane, side=side, **status)


def aboard(t: Table, card: int, host: int) -> None:
    """Put ``card`` aboard ``host`` (as an Embarked event would)."""
    t.c(card).aboard = host
    t.c(host).crew += 1


def ship_moves(t: Table) -> dict[int, int]:
    """Destination -> Ship-Site of every Ship-Site move on offer."""
    return {o.loc: o.card for o in t.options() if type(o) is ev.MoveShipSite}


def test_a_ship_site_is_a_location_not_a_unit_and_carries_crew_M9_030_M9_099() -> None:
    """[M9-030] not a Unit: it never attacks, is no Unit target; [M9-099] no ordinary Manifest or Pressure of its
    own (a Unit beside it may); it carries legal crew."""
    t = Table(phase="attune")
    mine = ship(t, 0, "ss-bastion", 0)
    contesting = ship(t, 0, "ss-corsair", 2, side=1)
    raider = t.unit(0, "char-raider", 0)
    assert not is_unit(t.s, t.c(mine)) and mine not in legal_targets(t.s, "unit", 1)
    opts = t.options()
    assert ev.DoManifest(raider) in opts
    assert not any(type(o) in (ev.DoManifest, ev.DoPressure) and o.card in (mine, contesting) for o in opts)
    assert [u.iid for u in attackers_in(t.s, 0, 0)] == [raider]
    t.s.phase = t.s.step = "action"
    pilot = t.unit(0, "char-pilot", 0)
    assert ev.Embark(pilot, mine) in t.options()
    t.act(ev.Embark(pilot, mine))
    assert t.c(pilot).aboard == mine and t.c(mine).crew == 1


def test_a_ship_site_moves_between_friendly_exterior_and_space_for_1_M9_063_M9_055() -> None:
    """[M9-063] friendly Exterior to friendly Space for 1 resource, at once and with its crew (ruling R-M9-53:
    tapped as the cost, readied at its controller's Awaken); never En Route, so exempt from Spot Check [M9-055]."""
    t = Table(phase="move", resource=3)
    bastion = ship(t, 0, "ss-bastion", 0)
    pilot = t.unit(0, "char-pilot", 0)
    t.act(ev.Embark(pilot, bastion))
    assert sorted(ship_moves(t)) == [2, 3, 5]  # its lanes: never Interior; enemy Interior never [M9-064]
    t.act(ev.MoveShipSite(bastion, 2))
    (moved,) = t.of(ev.ShipSiteMoved)
    assert (moved.cards, moved.src, moved.dst, moved.cost, moved.kind) == (
        [bastion, pilot], "lane:0:exterior", "lane:0:space", 1, "move")  # fmt: skip
    assert len(t.s.players[0].resource) == 2 and t.c(bastion).tapped == 1
    assert (t.c(pilot).zone, t.c(pilot).aboard, t.c(bastion).zone) == ("lane:0:space", bastion, "lane:0:space")
    assert not ship_moves(t)  # tapped: once a turn
    assert spottable(t.s, 1) == [] and legal_targets(t.s, "enemy_en_route", 1) == []
    end_turn(t.s, t.emit)
    end_turn(t.s, t.emit)  # player 0's Awaken readies it
    assert t.c(bastion).tapped == 0


def test_contesting_or_returning_costs_2_never_enemy_interior_never_a_shared_site_M9_063_M9_064() -> None:
    """[M9-063] onto an enemy Exterior or Space, or back from it, for 2; [M9-064] never enemy Interior, and never
    where another Ship-Site stands."""
    t = Table(phase="move", resource=2)
    bastion = ship(t, 0, "ss-bastion", 0)
    ship(t, 1, "ss-corsair", 2)  # the enemy's Space is taken
    assert sorted(ship_moves(t)) == [2, 3]
    t.act(ev.MoveShipSite(bastion, 3))
    (moved,) = t.of(ev.ShipSiteMoved)
    assert (moved.dst, moved.cost, moved.kind) == ("lane:1:exterior", 2, "contest")
    assert not t.s.players[0].resource
    t.c(bastion).tapped = 0
    t.add(0, FILLER, "resource")
    assert not ship_moves(t)  # 1 resource: every move from a contest costs 2
    t.add(0, FILLER, "resource")
    assert sorted(ship_moves(t)) == [0, 2]  # back to either friendly position; never the enemy Space (occupied)
    t.act(ev.MoveShipSite(bastion, 0))
    assert (t.of(ev.ShipSiteMoved)[-1].kind, t.of(ev.ShipSiteMoved)[-1].cost) == ("return", 2)


def test_covering_replaces_generation_and_abilities_contesting_removes_only_abilities_M9_065() -> None:
    """[M9-065] a friendly Ship-Site covers its Site: its generation replaces the Site's and the Site's abilities
    stop; an enemy Ship-Site contesting a Site takes its abilities but not its generation (ruling R-M9-54)."""
    t = Table(phase="action")
    t.site(0, "site-mine", 0)  # generation 2; enemy Units in its lane get +1 ATK
    t.site(0, "site-dock", 2)  # generation 1; ward 1 for its owner's Units in Space
    foe = t.unit(1, "char-raider", 0, side=0)
    wisp = t.unit(0, "spirit-wisp", 2)
    assert (generation_max(t.s, 0), atk(t.s, t.c(foe)), ward(t.s, t.c(wisp))) == (3, 4, 1)
    ship(t, 0, "ss-bastion", 0)  # covers the Mine
    assert (generation_max(t.s, 0), atk(t.s, t.c(foe))) == (1 + 1, 3)
    corsair = ship(t, 1, "ss-corsair", 2, side=0)  # contests the Dock
    their_wisp = t.unit(1, "spirit-wisp", 2)
    assert ward(t.s, t.c(wisp)) == 0 and generation_max(t.s, 0) == 2  # the Dock still generates
    assert generation_max(t.s, 1) == 0 and atk(t.s, t.c(their_wisp)) == 2  # no generation; its own static holds
    assert t.c(corsair).loc == 2


def test_a_contested_sites_entry_ban_is_lifted_M9_065_M9_004() -> None:
    """[M9-065] the contested Site loses its abilities, its "enemy Units cannot enter" [M9-004] among them."""
    t = Table(phase="move", resource=3)
    t.site(1, "site-bastion", 0)
    raider = t.unit(0, "char-raider", 0)
    assert ev.MoveUnit(raider, 3) not in t.options()
    ship(t, 0, "ss-bastion", 0, side=1)
    assert ev.MoveUnit(raider, 3) in t.options()


def test_an_unblocked_attack_on_a_ship_site_wounds_it_and_takes_its_retaliation_M9_072() -> None:
    """[M9-072] no player Battle Damage; the attacker wounds the Ship-Site and takes its retaliation at once: 0
    unmanned, its ATK manned (ruling R-M9-55, A-09)."""
    for manned, back in ((False, 0), (True, 2)):
        t = Table(phase="attack")
        raider = t.unit(0, "char-raider", 0)  # 3 ATK, 2 GRIT
        target = ship(t, 1, "ss-bastion", 0)  # 2 ATK, 5 GRIT
        if manned:
            aboard(t, t.unit(1, "char-pilot", 0, tapped=1), target)  # tapped: no blocker, still crew
        t.attack(0, [(raider, target)])
        t.to_damage()
        assert not t.of(ev.BattleDamageAssigned) and t.s.bd_player == -1 and t.s.players[1].echo == 0
        (hit,) = t.of(ev.ShipSiteAttacked)
        assert (hit.source, hit.card, hit.amount, hit.retaliation) == (raider, target, 3, back)
        assert t.c(target).wounds == 3
        assert t.c(raider).zone == ("discard" if manned else "lane:0:exterior")  # 2 retaliation defeats it


def test_a_blocked_attack_on_a_ship_site_never_reaches_it_M9_072_M9_069() -> None:
    """Only an unblocked attack strikes the Ship-Site [M9-072]; a blocked attacker fights its blocker [M9-069]."""
    t = Table(phase="attack")
    raider = t.unit(0, "char-raider", 0)
    target = ship(t, 1, "ss-bastion", 0)
    guard = t.unit(1, "char-guardian", 0)
    t.attack(0, [(raider, target)])
    t.to_damage([(guard, raider)])
    assert not t.of(ev.ShipSiteAttacked) and t.c(target).wounds == 0 and t.c(guard).wounds == 3


def test_a_ship_site_is_defeated_by_its_wounds_and_its_crew_meet_a_hosts_fate_M9_030_M9_091() -> None:
    """[M9-030] wounds reaching its GRIT defeat it (to its owner's Discard); [M9-091] (ruling R-M9-51): crew at
    Exterior survive there tapped, crew in Space are discarded."""
    t = Table(phase="attack")
    brute = t.unit(0, "char-brute", 0)  # 5 ATK, 4 GRIT
    corsair = ship(t, 1, "ss-corsair", 0)  # 3 ATK, 4 GRIT
    pilot = t.unit(1, "char-pilot", 0, tapped=1)
    aboard(t, pilot, corsair)
    t.attack(0, [(brute, corsair)])
    t.to_damage()
    assert t.c(corsair).zone == "discard" and corsair in t.s.players[1].discard
    assert (t.c(pilot).zone, t.c(pilot).aboard, t.c(pilot).tapped) == ("lane:1:exterior", 0, 1)
    assert t.c(brute).wounds == 3  # the manned Corsair's retaliation
    t2 = Table(phase="attack")
    wisp = t2.unit(0, "spirit-wisp", 2)
    bastion = ship(t2, 1, "ss-bastion", 2, wounds=4)
    crew = t2.unit(1, "char-pilot", 2, tapped=1)
    aboard(t2, crew, bastion)
    t2.attack(2, [(wisp, bastion)])
    t2.to_damage()
    assert t2.c(bastion).zone == "discard" and t2.c(crew).zone == "discard"


def test_a_covering_ship_site_shields_the_site_position_a_contested_one_does_not_M9_065_M9_066() -> None:
    """Ruling R-M9-54 (A-27): the defender's Ship-Site covering their Site position replaces it as the target
    there [M9-065]; a Site the attacker's own Ship-Site contests is still a legal target [M9-066]."""
    t = Table(phase="attack")
    raider = t.unit(0, "char-raider", 0)
    theirs = ship(t, 1, "ss-bastion", 0)
    t.act(ev.DeclareAt(0))
    assert [o for o in t.options() if type(o) is ev.AddAttacker] == [ev.AddAttacker(raider, theirs)]
    t2 = Table(phase="attack")
    raider2 = t2.unit(0, "char-raider", 0)
    ours = ship(t2, 0, "ss-bastion", 0, side=1)
    t2.act(ev.DeclareAt(0))
    adds = [o for o in t2.options() if type(o) is ev.AddAttacker]
    assert adds == [ev.AddAttacker(raider2, 0)] and ours in t2.s.board  # never its own Ship-Site


def test_enemy_units_aboard_a_ship_site_prevent_pressure_there_M9_100_M9_095() -> None:
    """[M9-100] enemy Units aboard a Ship-Site prevent Pressure in its column even when, tapped, they give no
    Battle Presence [M9-095]; crew of an ordinary host that give no presence do not."""
    t = Table(phase="attune")
    raider = t.unit(0, "char-raider", 0, side=1)
    bastion = ship(t, 1, "ss-bastion", 0)
    assert ev.DoPressure(raider) in t.options()  # an empty Ship-Site prevents nothing
    crew = t.unit(1, "char-pilot", 0, tapped=1)
    aboard(t, crew, bastion)
    assert ev.DoPressure(raider) not in t.options()
    t2 = Table(phase="attune")
    raider2 = t2.unit(0, "char-raider", 0, side=1)
    rover = t2.unit(1, "veh-rover", 0, tapped=1)
    aboard(t2, t2.unit(1, "char-pilot", 0, tapped=1), rover)
    assert ev.DoPressure(raider2) in t2.options()


def test_a_ship_site_is_played_or_starts_at_one_of_its_lanes_on_its_half_M9_020_M9_064() -> None:
    """Ruling R-M9-53: played at a position of its lanes on its controller's half where no Ship-Site is [M9-064];
    chosen as the starting Site [M9-020] it starts there, on the board."""
    t = Table(phase="action")
    card = t.hand(0, "ss-bastion")
    ship(t, 0, "ss-corsair", 2)
    plays = [o for o in t.options() if type(o) is ev.PlayCard and o.card == card]
    assert plays == [ev.PlayCard(card, 0)]
    t.act(plays[0])
    assert t.c(card).zone == "lane:0:exterior" and card in t.s.board and len(t.s.players[0].resource) == 2
    t2 = Table(phase="setup.site")
    first = t2.add(0, "ss-bastion", "deck")
    t2.add(1, "site-outpost", "deck")
    assert sorted(o.lane for o in t2.options() if o.card == first) == [0, 2]
    t2.act(ev.PickSite(first, 2))
    assert t2.c(first).zone == "lane:0:space" and not any(t2.s.players[0].sites)
    assert t2.point().player == 1  # player 0 has a starting Site


def test_an_edition_2_game_places_a_ship_site_as_a_site_R_M9_45() -> None:
    """Ruling R-M9-45: a game of the pool before Ship-Sites (edition 2) replays as played then: a Ship-Site card
    could only be a starting Site, which went to a Site slot, and it was never played from Hand."""
    t = Table(phase="setup.site")
    t.s.edition = 2
    first = t.add(0, "ss-bastion", "deck")
    t.add(1, "site-outpost", "deck")
    t.act(ev.PickSite(first, 2))
    assert t.c(first).zone == "site:0:space" and t.s.players[0].sites[2] == first
    t.s.phase = t.s.step = "action"
    card = t.hand(0, "ss-bastion")
    assert not any(type(o) is ev.PlayCard and o.card == card for o in t.options())


def test_a_scenario_position_holds_a_ship_site_and_its_crew_and_round_trips_M9_030_M9_060() -> None:
    """A judge's position lists a Ship-Site on the board [M9-030] and crew ``aboard`` their host [M9-060];
    ``to_spec`` writes it back the same; a Ship-Site named as a Site is refused with a hint."""
    spec = {
        "position": {"turn": 2, "phase": "move", "active": "p0"},
        "p0": {
            "board": [
                {"card": "s1=ss-bastion", "lane": "space"},
                {"card": "c1=spirit-wisp", "lane": "space", "aboard": "s1"},
            ]
        },
        "p1": {"sites": {"exterior": "site-outpost"}},
    }
    built = from_spec(spec)
    s, labels = built.state, built.labels
    shipc, crew = s.cards[labels["s1"]], s.cards[labels["c1"]]
    assert (shipc.zone, shipc.attuned, shipc.crew, crew.aboard) == ("lane:0:space", 0, 1, shipc.iid)
    again = from_spec(to_spec(s)).state
    assert again.cards[crew.iid].aboard == shipc.iid and again.cards[shipc.iid].crew == 1
    bad = {**spec, "p0": {"sites": {"space": "ss-bastion"}}}
    with pytest.raises(SpecError, match="Ship-Site: list it under board"):
        from_spec(bad)
