"""Deck list files: `COUNT CARD` lines, the leader marked `*`, every problem listed with its line."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from annals.engine.decks import deck_from_file, deck_from_text
from annals.engine.miras9.pool import DECKS, POOL
from annals.engine.morana.cards import decks as morana_decks
from annals.engine.morana.cards import pool as morana_pool
from annals.schemas.decklist import DeckFileError, parse_decklist
from annals.schemas.errors import InvalidDeckError


def as_text(cards: list[str], leader: str, names: dict[str, str], mark: bool = True) -> str:
    lines = ["# exported deck", f"1 {names[leader]}{' *' if mark else ''}   # the leader"]
    lines += [f"{n} {names[cid]}" for cid, n in Counter(cards).items()]
    return "\n".join(lines) + "\n"


def test_a_shipped_miras9_deck_written_as_text_reads_back_the_same() -> None:
    """[M9-014] a deck is its Planet/Spirit and its main deck; cards named by name, any case, or by id."""
    deck = DECKS["vanguard"]
    names = {cid: d.name for cid, d in POOL.items()}
    read = deck_from_text("miras9", as_text(deck.cards, deck.leader, names), "vanguard")
    assert (sorted(read.cards), read.leader) == (sorted(deck.cards), deck.leader)
    by_id = deck_from_text("miras9", as_text(deck.cards, deck.leader, {c: c.upper() for c in POOL}, mark=False), "v")
    assert (sorted(by_id.cards), by_id.leader) == (sorted(deck.cards), deck.leader)  # the Planet found unmarked


def test_a_shipped_morana_deck_reads_back_with_its_warden(tmp_path: Path) -> None:
    """[MOR-35] a constructed deck is 20 cards plus 1 Warden: the Warden is the leader line."""
    p = morana_pool()
    names = {**{c: d.name for c, d in p.cards.items()}, **{w: d.name for w, d in p.wardens.items()}}
    deck = morana_decks()["clash"]
    path = tmp_path / "clash.txt"
    path.write_text(as_text(deck.cards, deck.leader, names))
    read = deck_from_file("morana", path)
    assert (read.name, sorted(read.cards), read.leader) == ("clash", sorted(deck.cards), deck.leader)


def test_every_malformed_line_is_listed_with_its_number() -> None:
    text = "\n".join([
        "# a deck with every kind of mistake",  # 1
        "3 Recruit",                             # 2
        "three Raider",                          # 3 no count
        "0 Duelist",                             # 4 count out of range
        "4",                                     # 5 no card
        "2 recruit",                             # 6 listed again (any case)
        "1 Kessra *",                            # 7 the leader
        "1 Vael *",                              # 8 a second leader marked
        "2 Orun *",                              # 9 a third, and count 2
        "",
        "   # only a comment",
    ])  # fmt: skip
    with pytest.raises(DeckFileError) as caught:
        parse_decklist(text, "mine.txt")
    assert [line for line, _ in caught.value.problems] == [3, 4, 5, 6, 8, 9]
    message = str(caught.value)
    assert message.startswith("mine.txt: 6 problem(s) in the deck list:")
    for expected in [
        "line 3: 'three Raider' does not start with a count",
        "line 4: count 0 is out of range",
        "line 5: no card after the count 4",
        "line 6: 'recruit' is listed again (first on line 2)",
        "line 8: a second leader is marked * (the first is on line 7)",
        "line 9: a second leader is marked * (the first is on line 7)",
    ]:
        assert expected in message, message


def test_unknown_cards_and_a_missing_leader_are_listed_together() -> None:
    text = "3 Recruit\n3 Raidr\n2 Moonbeam\n1 Recruit Ascendant *\n"
    with pytest.raises(DeckFileError) as caught:
        deck_from_text("miras9", text, "mine")
    problems = dict(caught.value.problems)
    assert problems[2] == "no card 'Raidr' in the miras9 card pool (did you mean 'Raider'?)"
    assert problems[3].startswith("no card 'Moonbeam' in the miras9 card pool")
    assert 4 in problems  # not a card of the pool either: never a leader
    with pytest.raises(DeckFileError, match="no leader: add the deck's leader on a line of its own, marked"):
        deck_from_text("miras9", "3 Recruit\n", "mine")
    with pytest.raises(DeckFileError, match=r"line 2: 'Recruit' is marked \* but cannot lead a deck"):
        deck_from_text("miras9", "1 Kessra\n1 Recruit *\n", "mine")
    with pytest.raises(DeckFileError, match="line 2: a second leader"):
        deck_from_text("miras9", "1 Kessra\n1 Vael\n", "mine")  # two Planets, neither marked


def test_a_deck_breaking_construction_names_the_rule() -> None:
    """[M9-014] at least 30 cards besides the Planet/Spirit: a short deck is refused by the ruleset's own check."""
    with pytest.raises(InvalidDeckError, match=r"at least 30 are needed \[M9-014\]"):
        deck_from_text("miras9", "1 Kessra *\n3 Recruit\n", "short")


def test_an_empty_or_binary_file_is_a_named_error(tmp_path: Path) -> None:
    with pytest.raises(DeckFileError, match="no cards"):
        parse_decklist("# nothing\n\n")
    path = tmp_path / "deck.txt"
    path.write_bytes(b"\xff\xfe3 Recruit\n")
    with pytest.raises(DeckFileError, match="not UTF-8 text"):
        deck_from_file("miras9", path)
