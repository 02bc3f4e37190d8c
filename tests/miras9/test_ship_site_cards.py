"""The shipped Ship-Site text cards (rulings R-M9-58 to R-M9-60): Boarding Hulk contests an enemy Interior
[M9-064], Salvage Workship has activated abilities [M9-043], Echo Tender grants its crew Manifest [M9-099]. They
are in shipped decks, legal [M9-014]-[M9-016]; the heuristic bot uses each when it helps, and bot games of the
shipped decks make each happen (fold equals the engine at every decision)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from annals.engine.miras9.bots import HeuristicAgent
from annals.engine.miras9.builder import Table
from annals.engine.miras9.cardtext import card_text
from annals.engine.miras9.pool import DECKS, SHIPPED
from annals.engine.miras9.ruleset import DEFAULT_MAX_TURNS, RULESET
from annals.engine.miras9.state import M9State
from annals.engine.rng import Rng
from annals.engine.runner import Game
from annals.engine.simulate import bots_for, make_header
from annals.schemas import miras9 as ev
from annals.schemas.records import instance_id
from tests.golden.games import golden_path
from tests.miras9.test_properties import _check, play_folding, tally

NEW = ("ss-boarder", "ss-workship", "ss-tender")
WANTED = (
    "Ship-Site contesting an enemy Interior [M9-064]",
    "Ship-Site ability [M9-043]",
    "crew Manifest granted by its host [M9-099]",
)  # as test_properties.tally counts them


def heuristic(t: Table, p: int = 0) -> object:
    """What the heuristic bot of seat ``p`` chooses at the table's pending decision."""
    point = t.point()
    assert point is not None
    return HeuristicAgent(p, Rng(1)).choose(t.s, point)


def test_the_cards_print_their_text_and_sit_in_legal_shipped_decks_M9_014_M9_016_M9_064_M9_099() -> None:
    """Each is a Ship-Site of the shipped pool with its keyword or abilities and printed text saying so; the
    corsairs deck carries Boarding Hulks, the shipwrights deck all three, at most two copies each [M9-016], with
    at least 30 other cards [M9-014] (the decks are validated at load too)."""
    boarder, workship, tender = (SHIPPED[c] for c in NEW)
    assert {boarder.type, workship.type, tender.type} == {"ship_site"}
    assert boarder.keywords == ["contest_interior"] and tender.keywords == ["crew_manifest"]
    assert [a.timing for a in workship.abilities] == ["action", "reaction"]
    assert all(a.tap for a in workship.abilities)
    assert "May contest an enemy Interior" in card_text(boarder, SHIPPED.cards)
    assert "Its crew may Manifest" in card_text(tender, SHIPPED.cards)
    assert "Action, tap: heal 2 wounds from this Ship-Site" in card_text(workship, SHIPPED.cards)
    assert "ss-boarder" in DECKS["corsairs"].cards
    for name in ("corsairs", "shipwrights"):
        deck = DECKS[name].cards
        assert len(deck) >= 30 and all(deck.count(c) <= 2 for c in NEW)
    assert all(DECKS["shipwrights"].cards.count(c) == 2 for c in NEW)


def test_the_heuristic_contests_the_enemy_site_that_loses_most_M9_064_M9_065() -> None:
    """[M9-064] [M9-065] A Boarding Hulk at its Exterior with the enemy half open: the enemy Interior holds a
    Bastion (an entry ban, lost while contested), so the heuristic contests the Interior, which only the Hulk's
    text opens (R-M9-58); with a plain Interior and a Character aboard it contests the Exterior, where the crew
    can step off, not the Space, where a Character cannot stand [M9-059]."""
    t = Table(phase="move", resource=4)
    t.site(1, "site-outpost", 0)
    t.site(1, "site-bastion", 1)
    t.site(1, "site-dock", 2)
    hulk = t.add(0, "ss-boarder", "board", lane=0)
    assert ev.MoveShipSite(hulk, 4) in t.options()
    assert heuristic(t) == ev.MoveShipSite(hulk, 4)
    plain = Table(phase="move", resource=4)
    for lane, site in enumerate(("site-outpost", "site-outpost", "site-outpost")):
        plain.site(1, site, lane)
    hulk = plain.add(0, "ss-boarder", "board", lane=2)
    plain.unit(0, "char-pilot", 2, aboard=hulk)
    plain.c(hulk).crew = 1
    moves = {o.loc for o in plain.options() if type(o) is ev.MoveShipSite}
    assert {3, 4, 5} <= moves
    assert heuristic(plain) == ev.MoveShipSite(hulk, 3)


def test_the_heuristic_repairs_a_workship_only_when_the_wounds_are_worth_its_tap_M9_043_M9_030() -> None:
    """Ruling R-M9-59: the Workship's repair taps it (so no move this turn [M9-043]); the heuristic uses it with
    at least 2 wounds to heal, or 2 from defeat [M9-030], and keeps the tap otherwise."""
    for wounds, used in ((2, True), (1, False), (3, True)):
        t = Table(phase="action")
        ws = t.add(0, "ss-workship", "board", lane=0)
        t.c(ws).wounds = wounds
        assert ev.Activate(ws, 0) in t.options()
        assert (heuristic(t) == ev.Activate(ws, 0)) is used, wounds
    t = Table(phase="action")
    ws = t.add(0, "ss-workship", "board", lane=0)
    assert heuristic(t) == ev.Pass()  # unwounded: nothing to mend


def test_the_heuristic_braces_only_a_combatant_the_boost_saves_M9_043_M9_114() -> None:
    """[M9-114] In the window after blockers, the Workship's reaction (+2 GRIT, tap) is used on the attacker the
    blocker would defeat and the boost saves; not on one the blocker cannot defeat, nor on one it defeats
    anyway."""
    for blocker, used in (("char-duelist", True), ("char-recruit", False), ("char-champion", False)):
        t = Table(phase="attack")
        ws = t.add(0, "ss-workship", "board", lane=0)
        attacker = t.unit(0, "char-pilot", 0)  # 1/2
        foe = t.unit(1, blocker, 0)
        t.attack(0, [(attacker, 0)])
        t.pass_window()
        t.block([(foe, attacker)])
        assert t.s.wave is not None and t.s.wave.step == 4 and t.s.window
        if t.s.priority == 1:
            t.act(ev.Pass())
        boost = ev.Activate(ws, 1, attacker)
        assert boost in t.options()
        assert (heuristic(t) == boost) is used, blocker


def test_the_heuristic_manifests_with_crew_first_M9_099_M9_097() -> None:
    """Ruling R-M9-60: at an Echo Tender's Site the crew member and a Unit standing beside it may each Manifest,
    but only one of them this turn [M9-097]; the heuristic taps the crew member (crew cannot block, R-M9-50), so
    the Unit stays ready."""
    t = Table(phase="attune")
    tender = t.add(0, "ss-tender", "board", lane=0)
    pilot = t.unit(0, "char-pilot", 0, aboard=tender)
    t.c(tender).crew = 1
    beside = t.unit(0, "char-recruit", 0)
    assert {ev.DoManifest(pilot), ev.DoManifest(beside)} <= set(t.options())
    assert heuristic(t) == ev.DoManifest(pilot)


def test_bot_games_of_the_shipped_decks_use_each_card_M9_064_M9_043_M9_099() -> None:
    """Seeded games of the heuristic with the shipwrights or corsairs deck against random with each shipped deck,
    seats alternating, every invariant checked at each event and the fold compared with the engine: the heuristic
    contests an enemy Interior [M9-064], uses a Ship-Site ability [M9-043] and Manifests with crew [M9-099]
    (each counted as the soak counts it, ``test_properties.tally``). At most 64 games; it stops once each has
    happened."""
    decks = sorted(DECKS)
    fired: Counter[str] = Counter()
    current: list[Game] = []

    def check(event: object) -> None:
        state = current[-1].state
        assert isinstance(state, M9State)
        _check(state)
        if current[-1].header.players[getattr(event, "player", 0)].agent == "heuristic":
            tally(fired, state, event)

    for seed in range(64):
        if all(fired[k] for k in WANTED):
            break
        pair = [("shipwrights", "corsairs")[(seed // 2) % 2], decks[seed % len(decks)]]
        bots = ["heuristic", "random"]
        if seed % 2:
            pair, bots = pair[::-1], bots[::-1]
        h = make_header(RULESET, seed, pair, bots, max_turns=DEFAULT_MAX_TURNS)
        current.append(Game(RULESET, h, bots_for(RULESET, h), on_event=check))
        play_folding(current[-1], 3)
    assert all(fired[k] for k in WANTED), {k: fired[k] for k in WANTED}


def test_the_showcase_golden_games_show_each_card_M9_064_M9_043_M9_099() -> None:
    """The golden games of shipwrights (the heuristic, seat 0) against corsairs show the cards at work, so a
    change that stops them shows as a diff of these: seed 12 a Workship's ability used [M9-043] and a crew member
    of an Echo Tender Manifesting [M9-099]; seed 15 a Boarding Hulk contesting the enemy Interior for 2
    [M9-064]."""
    ids = {cid: {instance_id(p, i) for i, c in enumerate(DECKS[deck].cards) if c == cid}
           for p, deck, cid in ((0, "shipwrights", "ss-workship"), (0, "shipwrights", "ss-tender"),
                                (1, "corsairs", "ss-boarder"))}  # fmt: skip
    shown = golden_path("miras9", 12).read_text()
    assert shown.splitlines()[1].endswith("with deck 'shipwrights' (36 cards)")
    assert {int(c) for c in re.findall(r"AbilityActivated card=(\d+) ", shown)} & ids["ss-workship"]
    crew = {int(c) for c, host in re.findall(r"Embarked card=(\d+) host=(\d+)", shown) if int(host) in ids["ss-tender"]}
    assert crew & {int(c) for c in re.findall(r"Manifested card=(\d+) ", shown)}
    contest = golden_path("miras9", 15).read_text()
    into = r"ShipSiteMoved cards=\[(\d+)[^]]*\] src='lane:1:\w+' dst='lane:0:interior' cost=2 kind='contest'"
    moved = re.findall(into, contest)
    assert {int(c) for c in moved} & ids["ss-boarder"]


@pytest.mark.soak
def test_soak_how_often_the_ship_site_text_fires(capsys: pytest.CaptureFixture[str]) -> None:
    """``--soak``: 2,000 seeded games over every ordered pairing of shipped decks, both bots in both seats (as
    ``test_properties``' soak chooses them), the fold compared with the engine every 25 decisions; prints how
    often each of the three fired, by the bot that made it."""
    decks, bots = sorted(DECKS), ("heuristic", "random")
    fired: Counter[str] = Counter()
    current: list[Game] = []

    def count(event: object) -> None:
        state = current[-1].state
        assert isinstance(state, M9State)
        seen: Counter[str] = Counter()
        tally(seen, state, event)
        agent = current[-1].header.players[getattr(event, "player", 0)].agent
        fired.update({f"{rule} by {agent}": n for rule, n in seen.items() if n and rule in WANTED})

    for seed in range(2000):
        pair = [decks[seed % len(decks)], decks[(seed // len(decks)) % len(decks)]]
        h = make_header(RULESET, seed, pair, [bots[seed % 2], bots[(seed // 2) % 2]], max_turns=DEFAULT_MAX_TURNS)
        current.append(Game(RULESET, h, bots_for(RULESET, h), on_event=count))
        play_folding(current[-1], 25)
        current.clear()
    with capsys.disabled():
        print("\nShip-Site text in 2000 games:", ", ".join(f"{k} {v}" for k, v in sorted(fired.items())))
    assert all(any(k.startswith(rule) for k in fired) for rule in WANTED), fired
