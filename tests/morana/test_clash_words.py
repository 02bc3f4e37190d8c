"""A Clash in words, checked against the card's text: ``Vila Archer Clashes Bannik for 3`` was read for a card that
prints Clash 2. The 3 is right: Stribog of the Winds' Vigil gives its player's Clashes +1 [MOR-33] (the one thing
that raises a Clash: ``resolution.clash_amount``; Clash X itself, R-MOR-07, [MOR-16], [MOR-39]); the words now say
so, and say nothing more when the amount is the printed one."""

from __future__ import annotations

import re
from pathlib import Path

from annals.engine.morana.cards import printed_numbers, shipped_pool, warden_text
from annals.engine.morana.ruleset import RULESET
from annals.engine.morana.state import MoranaState
from annals.engine.registry import ruleset_for
from annals.engine.seats import SeatStream
from annals.engine.simulate import simulate
from annals.engine.words import Words, printed_for
from annals.engine.words.story import render_story
from annals.queries.pictures.viewer import viewer_data
from annals.schemas import morana as ev
from annals.schemas.logfile import read_log
from annals.schemas.records import CARDS_PER_PLAYER, LEADER_INDEX
from tests.morana.build import Table, build


def _id(s: MoranaState, instance: int) -> str:
    player, index = instance // CARDS_PER_PLAYER - 1, instance % CARDS_PER_PLAYER
    return s.wardens[player] if index == LEADER_INDEX else s.ids[player][index]


def words_of(t: Table) -> Words:
    pool = shipped_pool()

    def name(c: int) -> str:
        return (pool.wardens[_id(t.s, c)] if c % CARDS_PER_PLAYER == LEADER_INDEX else pool.cards[_id(t.s, c)]).name

    return Words("morana", name, ["Ann", "Bob"], printed=printed_for(RULESET, lambda c: _id(t.s, c)))


def test_r_mor_25_a_vigil_raised_clash_says_where_the_extra_comes_from() -> None:
    """[MOR-33] Stribog's Vigil (+1 Clash) under a printed Clash 2 [MOR-39]: 3 damage, and the line says why."""
    assert printed_numbers(shipped_pool(), "vila-archer")["clash"] == 2
    t = Table(build("site1: vila-archer", "site1: bannik", turn=2, wardens=("stribog", "lada")))
    t.dusk()
    clash = t.of(ev.ClashFired)[0]
    assert clash.amount == 3
    line = words_of(t).event(clash)
    assert line == "Vila Archer Clashes Bannik for 3 at Site 1 (Clash 2, +1 from the Vigil of Stribog of the Winds)"


def test_mor33_a_printed_clash_is_said_as_printed() -> None:
    """R-MOR-07: with a Warden whose Vigil is not Stribog's, Clash 2 deals 2 and the line is the plain one."""
    t = Table(build("site1: vila-archer", "site1: bannik", turn=2, wardens=("lada", "lada")))
    t.dusk()
    clash = t.of(ev.ClashFired)[0]
    assert clash.amount == 2
    assert words_of(t).event(clash) == "Vila Archer Clashes Bannik for 2 at Site 1"


def test_without_the_cards_the_line_keeps_the_amount_alone() -> None:
    """A reader that cannot name the card's text (no ``printed``) says the amount and claims no reason."""
    t = Table(build("site1: vila-archer", "site1: bannik", turn=2, wardens=("stribog", "lada")))
    t.dusk()
    plain = Words("morana", lambda c: "Vila Archer" if c < 2000 else "Bannik", ["Ann", "Bob"])
    assert plain.event(t.of(ev.ClashFired)[0]) == "Vila Archer Clashes Bannik for 3 at Site 1"


def test_r_mor_25_every_clash_in_a_game_story_matches_its_card_and_vigil(tmp_path: Path) -> None:
    """``annals show`` of whole games (the shipped clash deck plays Stribog): each Clash's amount is its card's printed
    Clash plus its Warden's Vigil, and the line names the Vigil exactly when it added something."""
    for _ in simulate("morana", 3, 11, ["clash", "glory"], ["heuristic", "heuristic"], tmp_path):
        pass
    pool, seen = shipped_pool(), 0
    for path in sorted(tmp_path.glob("*.log")):
        log = read_log(path)
        lines = [line for line in render_story(log) if " Clashes " in line]
        clashes = [e for e in log.events if type(e) is ev.ClashFired]
        assert len(lines) == len(clashes)
        for line, e in zip(lines, clashes, strict=True):
            card = pool.cards[log.header.decks[e.player].cards[e.card % CARDS_PER_PLAYER]]
            warden = pool.wardens[log.header.decks[e.player].leader]
            bonus = warden.vigil.amount if warden.vigil.op == "clash_bonus" else 0
            assert e.amount == card.keywords["clash"] + bonus
            said = re.search(r" for (\d+) at Site \d( \(Clash (\d+), \+(\d+) from the Vigil of (.+)\))?$", line)
            assert said is not None, line
            assert int(said[1]) == e.amount
            assert (said[2] is not None) == (bonus > 0), line
            if bonus:
                assert (int(said[3]), int(said[4]), said[5]) == (card.keywords["clash"], bonus, warden.name)
            seen += 1
        stream = SeatStream(ruleset_for(log.header), log.header, 1)  # the opponent's seat at the table, as it plays
        texts = [stream.event(e).text for e in log.events]
        assert [t for t in texts if " Clashes " in t] == [line.split("   ", 2)[-1].strip() for line in lines]
        shown = viewer_data(log, "player0").events  # the replay viewer's event list, as seat 0 saw the game
        assert [e[4] for e in shown if " Clashes " in e[4]] == [line.split("   ", 2)[-1].strip() for line in lines]
    assert seen > 0


def test_mor33_vigils_read_as_words_on_the_warden() -> None:
    """The Warden's printed text says its Vigil as the rules apply it (it read ``Vigil: clash bonus 1``)."""
    wardens = shipped_pool().wardens
    assert warden_text(wardens["stribog"]).startswith("Vigil: your Spirits' Clash deals 1 more damage. ")
    assert warden_text(wardens["lada"]).startswith("Vigil: your Spirits prevent 1 more damage (Ward +1). ")
    assert all("_" not in warden_text(w).split(".")[0] for w in wardens.values())


def test_r_mor_25_a_vigil_raised_power_on_reveal_says_where_it_comes_from() -> None:
    """[MOR-33] Dazhbog's Vigil (+1 Power on reveal) over Bannik's printed Power 3: revealed at 4, said with why."""
    t = Table(build("site1: ~bannik", "", turn=2, wardens=("dazhbog", "marzanna")))
    t.dusk()
    revealed = next(e for e in t.of(ev.PowerChanged) if e.source == "revealed")
    assert (printed_numbers(shipped_pool(), "bannik")["power"], revealed.value) == (3, 4)
    assert words_of(t).event(revealed) == (
        "Bannik gains 4 Power as it is revealed (4 now; Power 3, +1 from the Vigil of Dazhbog, Giver of Sun)"
    )
