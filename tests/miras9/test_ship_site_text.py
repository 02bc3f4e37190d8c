"""Ship-Site card text: the permission to contest an enemy Interior [M9-064], a Ship-Site's activated abilities
[M9-043], [M9-065], and the distinct action a card may grant its crew [M9-099]; rulings R-M9-58, R-M9-59, R-M9-60.
The cards are defined here (and in tests/scenarios/miras9/ship-site-*.toml), some under the ids of the shipped ones
(Boarding Hulk, Workship and Echo Tender, whose own tests are test_ship_site_cards.py) with other numbers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import msgspec
import pytest

from annals.engine.miras9.board import echo_of, ward
from annals.engine.miras9.builder import Table
from annals.engine.miras9.cardtext import card_text
from annals.engine.miras9.pool import with_cards
from annals.engine.miras9.ruleset import RULESET
from annals.engine.miras9.state import LOC_NAMES
from annals.engine.replay import verify_log
from annals.engine.runner import Game
from annals.engine.simulate import bots_for, header_for
from annals.ingest.loader import ingest
from annals.queries.positions.timeline import Timeline, position_from_db
from annals.schemas import miras9 as ev
from annals.schemas.carddefs import definition
from annals.schemas.errors import CardDataError
from annals.schemas.header import TURN_CAP_REASON, DeckList, LogClose, PlayerInfo
from annals.schemas.logfile import LogWriter

SHIP = {"type": "ship_site", "cost": 3, "gen": 1, "atk": 1, "grit": 4, "crew": 2, "lanes": [0, 2]}
BOARDER = {"id": "ss-boarder", "name": "Boarding Hulk", **SHIP, "keywords": ["contest_interior"]}


def cards(t: Table, *tables: dict[str, Any]) -> None:
    """Play ``t`` with these card definitions added to the shipped pool (as a scenario's ``[[cards]]``)."""
    t.s.card_defs = [definition("cards", table) for table in tables]
    t.s.__post_init__()


def ship(t: Table, p: int, cid: str, lane: int, side: int | None = None) -> int:
    return t.add(p, cid, "board", lane=lane, side=side)


def ship_moves(t: Table) -> list[tuple[int, int]]:
    return [(o.card, o.loc) for o in t.options() if type(o) is ev.MoveShipSite]


def test_only_a_ship_site_whose_text_permits_it_contests_an_enemy_interior_M9_064_M9_063() -> None:
    """[M9-064] an enemy Interior is never offered to a Ship-Site that prints no permission; one whose text permits
    it (``contest_interior``, ruling R-M9-58) contests it for 2, as any contest, and returns from it for 2
    [M9-063]; its own Interior stays closed (not one of its lanes), and two Ship-Sites never share the Site."""
    t = Table(phase="move", resource=4)
    cards(t, BOARDER, {**BOARDER, "id": "ss-keep", "name": "Keep", "lanes": [1], "keywords": []})
    plain = ship(t, 0, "ss-bastion", 0)
    boarder = ship(t, 0, "ss-boarder", 2)
    assert card_text(t.s.pool["ss-boarder"], t.s.pool.cards) == "May contest an enemy Interior."
    moves = ship_moves(t)
    assert (boarder, 4) in moves and (plain, 4) not in moves
    assert (boarder, 1) not in moves and (plain, 1) not in moves
    t.act(ev.MoveShipSite(boarder, 4))
    (moved,) = t.of(ev.ShipSiteMoved)
    assert (moved.dst, moved.cost, moved.kind) == ("lane:1:interior", 2, "contest")
    assert len(t.s.players[0].resource) == 2 and t.c(boarder).zone == LOC_NAMES[4]
    t.c(boarder).tapped = 0
    assert sorted(loc for card, loc in ship_moves(t) if card == boarder) == [2, 3, 5]  # 0: the plain one is there
    t.act(ev.MoveShipSite(boarder, 2))
    assert (t.of(ev.ShipSiteMoved)[-1].kind, t.of(ev.ShipSiteMoved)[-1].cost) == ("return", 2)
    held = Table(phase="move", resource=4)
    cards(held, BOARDER, {**BOARDER, "id": "ss-keep", "name": "Keep", "lanes": [1], "keywords": []})
    boarder = ship(held, 0, "ss-boarder", 0)
    ship(held, 1, "ss-keep", 1)  # the enemy's own Ship-Site holds its Interior
    assert (boarder, 4) not in ship_moves(held) and (boarder, 3) in ship_moves(held)


# A Ship-Site with an Action ability (tap: heal 2 wounds from itself), an Attune one (2 resources: gain 1 Echo, once
# a turn) and a reaction-speed one (tap: a friendly combatant gets +2 GRIT)
WORKSHIP = {
    "id": "ss-workship",
    "name": "Workship",
    **SHIP,
    "abilities": [
        {"timing": "action", "tap": True, "effects": [{"op": "heal", "amount": 2, "to": "self"}]},
        {"timing": "attune", "cost": 2, "once_per_turn": True, "effects": [{"op": "echo", "amount": 1}]},
        {"tap": True, "target": "friendly_combatant", "effects": [{"op": "boost", "grit": 2}]},
    ],
}


def activations(t: Table) -> list[tuple[int, int, int]]:
    return [(o.card, o.ability, o.target) for o in t.options() if type(o) is ev.Activate]


def test_a_ship_site_uses_its_activated_abilities_the_tap_needs_it_ready_only_M9_043_M9_045_M9_030() -> None:
    """Ruling R-M9-59: a Ship-Site's activated abilities are offered to its controller in their phase [M9-045];
    the tap cost needs it ready [M9-043] (it has no entry delay: it is not a Unit [M9-053], [M9-030]) and shares
    the tap its move costs; an ability on "self" reaches the Ship-Site (it takes wounds [M9-030]); once per turn
    [M9-044]; never offered to the opponent."""
    t = Table(phase="action", resource=4)
    cards(t, WORKSHIP)
    ws = ship(t, 0, "ss-workship", 0)
    t.c(ws).wounds = 3
    assert t.c(ws).attuned == 0 and (ws, 0, 0) in activations(t)
    t.act(ev.Activate(ws, 0))
    assert [type(e).__name__ for e in t.events][:1] == ["AbilityActivated"]
    assert (t.c(ws).wounds, t.c(ws).tapped) == (1, 1)
    assert (ws, 0, 0) not in activations(t)  # tapped: the tap cost cannot be paid again
    t.s.phase = t.s.step = "move"
    assert not any(type(o) is ev.MoveShipSite for o in t.options())  # its tap paid the ability: no move this turn
    t.s.phase = t.s.step = "attune"
    echo = t.s.players[0].echo
    t.act(ev.Activate(ws, 1))
    assert t.s.players[0].echo == echo + 1 and len(t.s.players[0].resource) == 2
    assert (ws, 1, 0) not in activations(t)  # once per turn [M9-044]
    other = Table(phase="action", active=1)
    cards(other, WORKSHIP)
    ship(other, 0, "ss-workship", 0)
    assert not activations(other)


def test_a_contesting_ship_site_keeps_its_abilities_the_contested_site_loses_its_own_M9_065_M9_114() -> None:
    """[M9-065] while a Ship-Site contests an enemy Site, that opponent loses the Site's abilities (the Dock's ward)
    and the Ship-Site's own stay its controller's (ruling R-M9-59), at reaction speed too in a wave's windows
    [M9-114]; a Site cannot have activated abilities at all (refused at load), so none escapes the contest."""
    t = Table(phase="attack", resource=4)
    cards(t, WORKSHIP)
    t.site(1, "site-dock", 2)  # ward 1 for its owner's Units in Space
    ws = ship(t, 0, "ss-workship", 2, side=1)  # contesting the Dock
    wisp = t.unit(0, "spirit-wisp", 2, side=1)
    foe = t.unit(1, "spirit-wisp", 2)
    assert ward(t.s, t.c(foe)) == 0
    t.attack(2, [(wisp, foe)])
    assert t.s.window and t.s.priority == 1
    t.act(ev.Pass())  # the defender passes; the attacker may now use the contesting Ship-Site's ability
    assert (ws, 2, wisp) in activations(t)
    t.act(ev.Activate(ws, 2, wisp))
    assert [type(e).__name__ for e in t.events[-2:]] == ["CounterChanged", "StackPushed"]
    t.pass_window()
    assert t.c(wisp).grit_mod == 2

    site = {
        "id": "site-tower",
        "name": "Tower",
        "type": "site",
        "gen": 1,
        "lanes": [0],
        "abilities": WORKSHIP["abilities"],
    }
    with pytest.raises(CardDataError, match="has activated abilities, which a Site cannot have"):
        with_cards((definition("cards", site),))


# A Ship-Site whose crew may Manifest, and one (Drifting Bastion, shipped) whose crew may not
TENDER = {"id": "ss-tender", "name": "Echo Tender", **SHIP, "keywords": ["crew_manifest"]}


def manifests(t: Table) -> list[int]:
    return [o.card for o in t.options() if type(o) is ev.DoManifest]


def test_a_card_grants_embarked_crew_the_manifest_action_M9_099_M9_094_M9_097() -> None:
    """[M9-099] a Ship-Site never Manifests itself, and its crew only when a card grants them the distinct action
    (``crew_manifest``, ruling R-M9-60): the crew member taps and gains its own ECHO [M9-094], once per Site per
    turn with any other Unit there [M9-097]; ready and Attuned; never at an enemy Site it contests [M9-094]; never
    while an enemy Unit establishes presence in the column; never Pressure."""
    t = Table(phase="attune")
    cards(t, TENDER)
    assert card_text(t.s.pool["ss-tender"], t.s.pool.cards) == "Its crew may Manifest."
    tender = ship(t, 0, "ss-tender", 0)
    bastion = ship(t, 0, "ss-bastion", 2)
    pilot = t.unit(0, "char-pilot", 0, aboard=tender)
    t.c(tender).crew = 1
    other = t.unit(0, "char-pilot", 2, aboard=bastion)
    t.c(bastion).crew = 1
    beside = t.unit(0, "char-recruit", 0)
    assert manifests(t) == [pilot, beside]  # not the Bastion's crew, not either Ship-Site
    assert other not in manifests(t) and tender not in manifests(t)
    t.act(ev.DoManifest(pilot))
    made = t.of(ev.Manifested)[-1]
    assert (made.card, made.site) == (pilot, "lane:0:exterior")
    assert t.s.players[0].echo == echo_of(t.s, t.c(pilot)) > 0 and t.c(pilot).tapped == 1
    assert manifests(t) == []  # [M9-097] the Exterior has had its Manifest; the crew member is tapped

    unready = Table(phase="attune")
    cards(unready, TENDER)
    tender = ship(unready, 0, "ss-tender", 0)
    unready.unit(0, "char-pilot", 0, aboard=tender, attuned=0)
    assert manifests(unready) == []  # Unattuned [M9-053]
    watched = Table(phase="attune")
    cards(watched, TENDER)
    tender = ship(watched, 0, "ss-tender", 0)
    crew = watched.unit(0, "char-pilot", 0, aboard=tender)
    assert manifests(watched) == [crew]
    watched.unit(1, "char-recruit", 0)  # enemy presence in the column
    assert manifests(watched) == []
    contesting = Table(phase="attune")
    cards(contesting, TENDER)
    tender = ship(contesting, 0, "ss-tender", 0, side=1)
    contesting.unit(0, "char-pilot", 0, side=1, aboard=tender)
    assert not any(type(o) in (ev.DoManifest, ev.DoPressure) for o in contesting.options())


def test_bot_games_with_these_cards_fold_to_the_engine_state_and_use_each_new_text_M9_064_M9_099_M9_043(
    tmp_path: Path,
) -> None:
    """Seeded bot games with a Ship-Site deck of these cards (Boarding Hulk, Workship, Echo Tender in place of the
    shipped Ship-Sites): the reducer alone folds every event to the engine's state after every decision (fold
    equals engine), each log verifies, and in these games an enemy Interior is contested [M9-064], a Ship-Site
    ability is used [M9-043] and crew Manifest by the grant [M9-099]. Ingested, the database's events hold them and
    the SQL position macro agrees with the fold after each (no new event kind: rulings R-M9-58 to R-M9-60)."""
    space_boarder = {**BOARDER, "lanes": [2]}  # from its Space, the enemy Interior is its first contest on offer
    defs = [definition("cards", table) for table in (space_boarder, WORKSHIP, TENDER)]
    ruleset = RULESET.with_cards(defs)
    base = RULESET.decks()["corsairs"]
    own = [c for c in base.cards if c not in ("ss-bastion", "ss-corsair", "ss-boarder")] + [
        "ss-boarder",
        "ss-workship",
        "ss-tender",
    ] * 2
    deck = DeckList("boarders", own, base.leader)
    fired: dict[str, list[tuple[str, int]]] = {"interior": [], "ability": [], "crew_manifest": []}
    ship_ids = {"ss-boarder", "ss-workship", "ss-tender"}
    logs = []
    for seed in range(1, 25):
        bots = ["random", "heuristic"] if seed % 2 else ["heuristic", "random"]
        players = [PlayerInfo(f"{b}-{i}", b) for i, b in enumerate(bots)]
        opponent = deck if seed % 3 else RULESET.decks()["vanguard"]
        header = header_for(ruleset, seed, players, [deck, opponent], max_turns=60)
        g = Game(ruleset, header, bots_for(ruleset, header))
        folded = ruleset.new_state(header)
        writer = LogWriter(tmp_path / f"g{seed}.log", g.header)
        counts = [0, 0]
        while not g.state.over and g.state.turn <= 60:
            g.step()
            batch, chosen = g.take_batch()
            for e in batch:
                kind, at = type(e), (g.header.game_id, e.n)
                if kind is ev.ShipSiteMoved and e.dst.endswith("interior") and e.dst != f"lane:{e.player}:interior":
                    fired["interior"].append(at)
                elif kind is ev.AbilityActivated and folded.cards[e.card].cid in ship_ids:
                    fired["ability"].append(at)
                elif kind is ev.Manifested and folded.cards[e.card].aboard:
                    fired["crew_manifest"].append(at)
                ruleset.apply(folded, e)
            writer.write_batch(batch, chosen)
            counts[0] += len(batch)
            counts[1] += len(chosen)
            assert msgspec.msgpack.encode(folded) == msgspec.msgpack.encode(g.state)
        s = g.state
        result = (s.winner, s.end_reason) if s.over else (-1, TURN_CAP_REASON)
        writer.close(LogClose(*result, counts[0], counts[1], s.turn))
        logs.append(tmp_path / f"g{seed}.log")
        assert verify_log(logs[-1]).events == counts[0]
    assert all(fired.values()), {k: len(v) for k, v in fired.items()}
    db = tmp_path / "annals.duckdb"
    assert ingest(logs, db, workers=1).games_added == len(logs)
    con = duckdb.connect(str(db), read_only=True)
    timelines = {t.header.game_id: t for t in map(Timeline.from_file, logs)}
    for name, logged in (
        ("interior", "ShipSiteMoved"),
        ("ability", "AbilityActivated"),
        ("crew_manifest", "Manifested"),
    ):
        for gid, n in fired[name]:
            (row,) = con.execute("SELECT kind FROM events JOIN games USING (game) WHERE game_id = ? AND n = ?",
                                 [gid, n]).fetchall()  # fmt: skip
            assert row == (logged,)
            assert timelines[gid].position(n + 1) == position_from_db(con, gid, n), (name, gid, n)
