"""``resolution.Facts``, what the rules read of a card per decision or per effect, says what its definition says:
the cost orb, Power badge, Reborn cost and bands [MOR-37], and the keywords' numbers [MOR-24] (Clash, Ward, Bloom,
and whether the card is Swift or has Clash at all), for every card of the shipped pool and of a pool a game adds
cards to; a game's tables are its own pool's."""

from __future__ import annotations

import msgspec

from annals.engine.morana.cards import shipped_pool, with_cards
from annals.engine.morana.resolution import Facts, facts, tables
from annals.engine.morana.ruleset import RULESET
from annals.engine.simulate import make_header
from annals.schemas.carddefs import definition
from annals.schemas.morana import Card


def _same(f: Facts, card: Card) -> None:
    keywords = card.keywords
    assert (f.spirit, f.charm) == (card.kind == "spirit", card.kind == "charm")
    assert (f.cost, f.power, f.reborn_cost) == (card.cost, card.power, card.reborn_cost)
    assert (f.clash, f.ward, f.bloom) == (keywords.get("clash", 0), keywords.get("ward", 0), keywords.get("bloom", 0))
    assert (f.has_clash, f.swift) == ("clash" in keywords, "swift" in keywords)
    assert (f.omen, f.reborn) == (card.omen, card.reborn)


def test_every_shipped_card_reads_as_its_definition() -> None:
    pool = shipped_pool()
    known = tables(pool).facts
    assert set(known) == set(pool.cards)
    for cid, card in pool.cards.items():
        _same(known[cid], card)
    kinds = {(f.spirit, f.has_clash, f.swift, f.ward > 0, f.bloom > 0) for f in known.values()}
    assert len(kinds) > 3  # the pool has Spirits and Charms, and cards with and without each keyword


def test_a_changed_card_reads_as_its_new_definition_in_its_own_games() -> None:
    """A pool with a shipped card changed is another pool: its tables say the new numbers, the shipped ones the
    old, whichever was asked about last."""
    shipped = shipped_pool()
    cid, card = next((cid, c) for cid, c in shipped.cards.items() if c.kind == "spirit")
    changed = definition("cards", {**msgspec.to_builtins(card), "cost": card.cost + 3, "keywords": {"ward": 2}})
    pool = with_cards((changed,))
    assert tables(pool).facts[cid].cost == card.cost + 3 and tables(pool).facts[cid].ward == 2
    _same(tables(shipped).facts[cid], card)
    _same(tables(pool).facts[cid], pool.cards[cid])
    header = make_header(RULESET, 3, list(RULESET.default_decks()), ["random", "random"])
    state = RULESET.new_state(header)
    for instance in (1001, 2001 + len(state.ids[1]) - 2):  # seat 0's deck index 1, seat 1's last but one
        _same(facts(state, instance), state.pool.cards[state.ids[instance // 1000 - 1][instance % 1000]])
