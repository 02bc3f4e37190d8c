"""Deck construction [M9-014]-[M9-018], set-up [M9-019]-[M9-022], and the card pool's integrity."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from annals.engine.miras9.cards import build_pool, load_pool, validate_deck
from annals.engine.miras9.pool import DECKS, SHIPPED
from annals.engine.miras9.ruleset import RULESET
from annals.engine.miras9.state import M9State
from annals.engine.rng import Rng
from annals.engine.simulate import make_header
from annals.schemas import miras9 as ev
from annals.schemas.errors import CardDataError, InvalidDeckError
from annals.schemas.header import DeckList


def _deck(**override: Any) -> DeckList:
    base = DECKS["vanguard"]
    return DeckList(
        override.get("name", "t"), override.get("cards", list(base.cards)), override.get("leader", base.leader)
    )


def test_shipped_decks_are_legal_and_distinct_M9_014() -> None:
    """[M9-014] at least four shipped decks, each legal, with different leaders and styles."""
    assert len(DECKS) >= 4
    for d in DECKS.values():
        validate_deck(d, SHIPPED.cards)
    assert len({d.leader for d in DECKS.values()}) == len(DECKS)


def test_exactly_one_paired_card_M9_014() -> None:
    """[M9-014] the leader must be a Planet/Spirit card, and no second one may be in the main deck."""
    with pytest.raises(InvalidDeckError, match=r"\[M9-014\]"):
        validate_deck(_deck(leader="char-recruit"), SHIPPED.cards)
    with pytest.raises(InvalidDeckError, match="second paired"):
        validate_deck(_deck(cards=[*DECKS["vanguard"].cards[:-1], "planet-orun"]), SHIPPED.cards)


def test_thirty_card_minimum_excludes_paired_card_and_tokens_M9_014_M9_017() -> None:
    """[M9-014] [M9-017] 29 main cards fail even with the Planet; tokens are not deck cards at all (A-24)."""
    with pytest.raises(InvalidDeckError, match="29"):
        validate_deck(_deck(cards=DECKS["vanguard"].cards[:29]), SHIPPED.cards)
    with pytest.raises(InvalidDeckError, match="token"):
        validate_deck(_deck(cards=[*DECKS["vanguard"].cards, "token-drone"]), SHIPPED.cards)


def test_copy_limits_M9_015_M9_016() -> None:
    """[M9-015] at most three of a Unit/Equipment/Event; [M9-016] at most two of a Site."""
    base = list(DECKS["vanguard"].cards)
    with pytest.raises(InvalidDeckError, match=r"4 copies of 'char-recruit'.*\[M9-015\]"):
        validate_deck(_deck(cards=[*base, "char-recruit"]), SHIPPED.cards)
    with pytest.raises(InvalidDeckError, match=r"3 copies of 'site-outpost'.*\[M9-016\]"):
        validate_deck(_deck(cards=[*base, "site-outpost"]), SHIPPED.cards)


def test_no_alignment_restriction_M9_018() -> None:
    """[M9-018] cards of any alignment mix with any Planet: crimson and azure Units under a violet Planet."""
    crimson = msgspec.structs.replace(SHIPPED["char-recruit"], id="t-crimson", alignment="crimson")
    azure = msgspec.structs.replace(SHIPPED["char-raider"], id="t-azure", alignment="azure")
    pool = build_pool([*(c for cid, c in SHIPPED.items() if "#" not in cid), crimson, azure])
    assert pool["planet-myr"].alignment == "violet"
    others = [c for c in DECKS["vanguard"].cards if SHIPPED[c].type != "site"][:27]
    mixed = [*others, "site-outpost", "t-crimson", "t-azure", "t-azure"]
    validate_deck(_deck(cards=mixed, leader="planet-myr"), pool)


def test_unknown_card_and_bad_card_data_are_named_errors() -> None:
    """A deck naming an unknown id, and a card file with a bad field, both fail with a named error."""
    with pytest.raises(InvalidDeckError, match="'no-such-card'"):
        validate_deck(_deck(cards=[*DECKS["vanguard"].cards, "no-such-card"]), SHIPPED.cards)
    with pytest.raises(CardDataError, match="twice"):
        build_pool([SHIPPED["char-recruit"], SHIPPED["char-recruit"]])


def test_card_data_file_validated_at_load(tmp_path: Path) -> None:
    """A malformed card file is reported with its path and the bad field."""
    bad = tmp_path / "cards.toml"
    bad.write_text('[[cards]]\nid = "x"\nname = "X"\ntype = "unit"\natk = "three"\n')
    with pytest.raises(CardDataError, match=r"cards\.toml"):
        load_pool(bad)


def test_pool_covers_types_traits_and_effects_M9_008_M9_009() -> None:
    """[M9-008] [M9-009] >= 60 cards with ids; every type of this issue and every Unit trait; >= 3 Planets."""
    cards = [c for cid, c in SHIPPED.items() if not cid.endswith("#spirit")]
    assert len(cards) >= 60
    types = {c.type for c in cards}
    assert {"unit", "site", "equipment", "event", "planet", "token"} <= types
    traits = {t for c in cards for t in c.traits}
    assert traits == {"character", "spirit", "vehicle", "ship"}
    assert sum(c.type == "planet" for c in cards) >= 3
    assert sum("reaction" in c.keywords for c in cards) >= 8
    assert any(c.replacement for c in cards) and any(s.ward for c in cards for s in c.statics)
    assert any(c.triggers for c in cards)


def _setup(seed: int, choose: Any = None) -> tuple[M9State, list[Any]]:
    h = make_header(RULESET, seed, ["vanguard", "bastion"], ["random", "random"])
    s = RULESET.new_state(h)
    events: list[Any] = []
    rng = Rng(seed)

    def emit(e: Any) -> None:
        RULESET.apply(s, e)
        events.append(e)

    while s.turn == 0:
        pt = RULESET.pending(s)
        c = None if pt is None else (choose(pt) if choose else pt.options[0])
        RULESET.advance(s, c, emit, rng)
    return s, events


def test_setup_planet_site_shuffle_hand_M9_019_M9_020_M9_021() -> None:
    """[M9-019] Planet-side up; [M9-020] a starting Site from the deck in a legal lane; [M9-021] shuffle, five."""
    s, events = _setup(3)
    for p in range(2):
        pl = s.players[p]
        assert s.cards[pl.leader].zone == "planet" and s.cards[pl.leader].face == 0
        (site,) = [c for c in pl.sites if c]
        assert SHIPPED[s.cards[site].cid].type == "site" and pl.sites.index(site) in SHIPPED[s.cards[site].cid].lanes
        assert len(pl.hand) == 5 and site not in pl.deck
    shuffles = [e for e in events if type(e) is ev.PileShuffled]
    assert len(shuffles) == 2
    assert ev.PhaseBegan in [type(e) for e in events]


def test_one_optional_mulligan_M9_021() -> None:
    """[M9-021] a mulligan shuffles the whole hand back and draws five new cards; one each."""

    def take(pt: Any) -> Any:
        return ev.Mulligan(True) if pt.point == "mulligan" else pt.options[0]

    s, events = _setup(4, take)
    taken = [e for e in events if type(e) is ev.MulliganTaken]
    assert [e.take for e in taken] == [True, True]
    back = [e for e in events if type(e) is ev.CardMoved and e.reason == "mulligan"]
    assert len(back) == 10 and all(len(p.hand) == 5 for p in s.players)
    assert len([e for e in events if type(e) is ev.PileShuffled]) == 4


def test_first_player_by_seeded_rng_M9_022() -> None:
    """[M9-022] the first player is drawn by the seeded generator (an event), and begins with Awaken."""
    firsts = set()
    for seed in range(8):
        s, events = _setup(seed)
        (fp,) = [e for e in events if type(e) is ev.FirstPlayerChosen]
        assert s.active == fp.first and s.phase.startswith("awaken")
        firsts.add(fp.first)
        again, _ = _setup(seed)
        assert msgspec.msgpack.encode(again) == msgspec.msgpack.encode(s)
    assert firsts == {0, 1}


@pytest.mark.parametrize(
    ("leader", "change", "quoted", "rule", "fix"),
    [
        ("char-recruit", [], "'char-recruit'", "[M9-014]", "set leader to a Planet id"),
        (None, ["planet-orun"], "'planet-orun'", "[M9-014]", "remove 'planet-orun'"),
        (None, ["token-drone"], "'token-drone'", "[M9-013]", "remove it"),
        (None, ["no-such-card"], "'no-such-card'", "[M9-008]", "use ids from the card pool"),
        (None, ["char-recruit"], "'char-recruit'", "[M9-015]", "remove 1"),
        (None, ["site-outpost"], "'site-outpost'", "[M9-016]", "remove 1"),
        (None, "short", "29", "[M9-014]", "add 1 more"),
        (None, "no-site", "no Site", "[M9-020]", "add at least one Site"),
    ],
)
def test_deck_errors_quote_the_value_name_the_rule_and_the_fix_M9_014_M9_015_M9_016_M9_017(
    leader: str | None, change: Any, quoted: str, rule: str, fix: str
) -> None:
    """[M9-014]-[M9-017] each deck-construction violation raises ``InvalidDeckError`` whose message quotes the bad
    value, names the paragraph it breaks and says how to fix it."""
    base = list(DECKS["vanguard"].cards)
    if change == "short":
        cards = base[:29]
    elif change == "no-site":  # ten different Units, three copies each: legal but for the missing Site
        cards = [cid for cid in sorted(SHIPPED) if SHIPPED[cid].type == "unit" and "#" not in cid][:10] * 3
    else:
        cards = base + list(change)
    with pytest.raises(InvalidDeckError) as err:
        validate_deck(_deck(cards=cards, leader=leader or DECKS["vanguard"].leader), SHIPPED.cards)
    msg = str(err.value)
    assert quoted in msg and rule in msg and fix in msg, msg


def test_a_position_saved_between_deal_and_mulligan_continues() -> None:
    """[M9-021] A saved position can stop right after ``PhaseBegan("setup.deal")`` (``annals position --at
    step:setup.deal --save``): nobody has a decision there; continuing shuffles and deals five cards each, then
    the mulligan decisions come."""
    _, events = _setup(3)
    cut = next(i for i, e in enumerate(events) if type(e) is ev.PhaseBegan and e.phase == "setup.deal") + 1
    s = RULESET.new_state(make_header(RULESET, 3, ["vanguard", "bastion"], ["random", "random"]))
    for e in events[:cut]:
        RULESET.apply(s, e)
    assert s.phase == "setup.deal" and RULESET.pending(s) is None
    assert all(not p.hand for p in s.players)
    RULESET.advance(s, None, lambda e: RULESET.apply(s, e), Rng(3))
    assert s.phase == "setup.mulligan"
    assert [len(p.hand) for p in s.players] == [5, 5]
