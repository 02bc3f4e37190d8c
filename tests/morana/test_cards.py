"""Card data integrity and deck construction [MOR-34], [MOR-35], [MOR-37]."""

from __future__ import annotations

import re
from collections import Counter

import msgspec
import pytest

from annals.engine.morana.cards import DATA_DIR, build_pool, decks, shipped_pool, validate_deck
from annals.engine.morana.ruleset import RULESET
from annals.engine.simulate import make_header
from annals.schemas.errors import CardDataError, InvalidDeckError
from annals.schemas.header import DeckList


def test_pool_is_complete_and_uses_the_whole_vocabulary() -> None:
    """[MOR-24] [MOR-33] [MOR-37] At least 40 Spirits and Charms over costs 1-8 using all six keywords, 4 Wardens,
    Legendaries, Initiative granters and off-board Slava; every Spirit has an Omen and a Reborn [MOR-21]."""
    p = shipped_pool()
    cards = list(p.cards.values())
    assert len(cards) >= 40 and {c.kind for c in cards} == {"spirit", "charm"}
    assert {c.cost for c in cards} == set(range(1, 9))
    used = (
        {k for c in cards for k in c.keywords}
        | {"omen" for c in cards if c.omen}
        | {"reborn" for c in cards if c.reborn}
    )
    assert used == {"omen", "reborn", "clash", "ward", "swift", "bloom"}
    assert len(p.wardens) >= 4 and any(c.legendary for c in cards)
    assert any(e.op == "initiative" for c in cards for e in c.omen + c.reborn)
    assert any(e.op == "slava" for c in cards for e in c.omen + c.reborn)
    assert all(c.omen and c.reborn and c.reborn_cost >= 1 for c in cards if c.kind == "spirit")


def test_mor35_shipped_decks_are_legal_and_starters_avoid_constructed_rules() -> None:
    """[MOR-35] Every shipped deck is 20 cards plus a Warden; starters hold single copies and no Legendary."""
    d = decks()
    assert {"starter-winter", "starter-sun", "clash", "glory"} <= set(d)
    for name in ("starter-winter", "starter-sun"):
        counts = Counter(d[name].cards)
        assert max(counts.values()) == 1 and not any(shipped_pool().cards[c].legendary for c in counts)
    assert any(v == 2 for v in Counter(d["clash"].cards).values())


def _deck(cards: list[str], leader: str = "lada") -> DeckList:
    return DeckList("test", cards, leader)


BASE = [c for c in decks()["starter-winter"].cards]


@pytest.mark.parametrize(
    ("cards", "leader", "message"),
    [
        (BASE[:19], "lada", "has 19 cards; a deck is exactly 20 cards plus 1 Warden [MOR-35]: add 1 card"),
        ([*BASE, "kikimora"], "lada", "has 21 cards; a deck is exactly 20 cards plus 1 Warden [MOR-35]: remove 1 card"),
        (BASE, "", "Warden '' is not a Warden of the pool; a deck needs exactly 1 Warden [MOR-35]"),
        (BASE, "bannik", "Warden 'bannik' is not a Warden"),
        (
            BASE[:17] + ["rusalka-scout"] * 3,
            "lada",
            "3 copies of 'rusalka-scout'; at most 2 copies of a card [MOR-35]: remove 1 copy",
        ),
        (
            BASE[:18] + ["perun"] * 2,
            "lada",
            "2 copies of Legendary 'perun'; at most 1 copy of each Legendary [MOR-35] (R-MOR-09): remove 1 copy",
        ),
        ([*BASE[:19], "nope"], "lada", "unknown card 'nope'; use an id from the card pool"),
        (
            [*BASE[:19], "lada"],
            "lada",
            "Warden 'lada' among the cards; a deck is 20 cards plus exactly 1 Warden [MOR-35], named as its leader: "
            "replace 'lada' with a card",
        ),
    ],
)
def test_mor35_each_violation_has_a_clear_error(cards: list[str], leader: str, message: str) -> None:
    """[MOR-35] Exactly 20 cards plus 1 Warden, at most 2 copies, at most 1 copy of a Legendary: each violation
    raises InvalidDeckError quoting the bad value, naming the rule, and saying how to fix it."""
    with pytest.raises(InvalidDeckError, match=re.escape(message)):
        validate_deck(_deck(cards, leader), shipped_pool())


def test_mor35_a_game_needs_two_legal_decks() -> None:
    """[MOR-35] new_state refuses a header without exactly two decks, and an illegal deck in it."""
    header = make_header(RULESET, 1, ["starter-winter", "starter-sun"], ["random", "random"])
    one = msgspec.structs.replace(header, decks=header.decks[:1])
    with pytest.raises(InvalidDeckError, match=re.escape("the header lists 1 deck; give exactly 2")):
        RULESET.new_state(one)
    short = msgspec.structs.replace(header.decks[1], cards=header.decks[1].cards[:19])
    with pytest.raises(InvalidDeckError, match="has 19 cards"):
        RULESET.new_state(msgspec.structs.replace(header, decks=[header.decks[0], short]))


def test_r_mor_09_one_copy_of_each_legendary_not_one_legendary() -> None:
    """[MOR-35] R-MOR-09: several different Legendaries are legal, one copy each."""
    validate_deck(_deck([*BASE[:16], "perun", "veles", "koschei", "firebird"]), shipped_pool())


def test_card_data_errors_name_the_card_and_field() -> None:
    """[MOR-23] [MOR-37] A malformed card file raises CardDataError naming the card and the fix."""
    raw = (DATA_DIR / "cards.toml").read_bytes()
    with pytest.raises(CardDataError, match=r"card 'bannik': reborn_cost 0 is below the minimum of 1"):
        build_pool(
            raw.replace(
                b'id = "bannik"\nname = "Bannik"\nkind = "spirit"\ncost = 2\npower = 3\nreborn_cost = 2',
                b'id = "bannik"\nname = "Bannik"\nkind = "spirit"\ncost = 2\npower = 3\nreborn_cost = 0',
            )
        )
    with pytest.raises(CardDataError, match=r"unknown effect op 'heal'"):
        build_pool(raw.replace(b'op = "draw"', b'op = "heal"', 1))
    with pytest.raises(CardDataError, match=r"keyword 'flying' is not printable"):
        build_pool(raw.replace(b"keywords = { swift = 0 }", b"keywords = { flying = 0 }", 1))
    with pytest.raises(CardDataError, match=r"cards.toml: .*cost"):
        build_pool(raw.replace(b"cost = 1", b'cost = "one"', 1))
