"""Deck list files in the short form (`1 NAME *` marks the leader), as `annals play --deck-file` reads them.

The format and its every problem are tested in tests/tournament/test_decklist.py; here the `*` form, which both
games take, and its own problems, each listed with its line.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from annals.engine.decks import parse_deck_list, read_deck_list
from annals.engine.miras9.pool import DECKS, SHIPPED
from annals.engine.morana.cards import decks as morana_decks
from annals.engine.morana.cards import shipped_pool as morana_pool
from annals.schemas.decklist import DeckListError
from annals.schemas.errors import InvalidDeckError


def as_text(cards: list[str], leader: str, names: dict[str, str]) -> str:
    lines = ["# exported deck", f"1 {names[leader]} *   # the leader"]
    lines += [f"{n} {names[cid]}" for cid, n in Counter(cards).items()]
    return "\n".join(lines) + "\n"


def problems(text: str, ruleset: str) -> dict[int, str]:
    """Each line's problems, in order, joined by " | " (a deck-wide rule lands on the last line)."""
    with pytest.raises(DeckListError) as caught:
        parse_deck_list(text, ruleset, where="mine.txt")
    found: dict[int, str] = {}
    for line, message in caught.value.problems:
        found[line] = f"{found[line]} | {message}" if line in found else message
    return found


def test_a_shipped_miras9_deck_written_as_text_reads_back_the_same() -> None:
    """[M9-014] a deck is its Planet/Spirit and its main deck; cards named by name, any case, or by id."""
    deck = DECKS["vanguard"]
    names = {cid: d.name for cid, d in SHIPPED.items()}
    read = parse_deck_list(as_text(deck.cards, deck.leader, names), "miras9")
    assert (sorted(read.cards), read.leader) == (sorted(deck.cards), deck.leader)
    by_id = parse_deck_list(as_text(deck.cards, deck.leader, {c: c.upper() for c in SHIPPED}), "miras9")
    assert (sorted(by_id.cards), by_id.leader) == (sorted(deck.cards), deck.leader)


def test_a_shipped_morana_deck_reads_back_with_its_warden(tmp_path: Path) -> None:
    """[MOR-35] a constructed deck is 20 cards plus 1 Warden: the Warden is the line marked *."""
    p = morana_pool()
    names = {**{c: d.name for c, d in p.cards.items()}, **{w: d.name for w, d in p.wardens.items()}}
    deck = morana_decks()["clash"]
    path = tmp_path / "clash.txt"
    path.write_text(as_text(deck.cards, deck.leader, names))
    read = read_deck_list(path, "morana")
    assert (read.name, sorted(read.cards), read.leader) == ("clash", sorted(deck.cards), deck.leader)


def test_every_malformed_line_is_listed_with_its_number() -> None:
    text = "\n".join([
        "# a deck with every kind of mistake",  # 1
        "3 Recruit",                             # 2
        "three Raider",                          # 3 no count
        "0 Duelist",                             # 4 count out of range
        "4",                                     # 5 no card
        "1 Kessra *",                            # 6 the leader
        "1 Vael *",                              # 7 a second leader marked
        "2 Orun *",                              # 8 a leader with two copies
        "1 *",                                   # 9 a mark without a card
        "Planet: Vael",                          # 10 a second leader in the long form
        "",
        "   # only a comment",
    ])  # fmt: skip
    found = problems(text, "miras9")
    assert {3, 4, 5, 7, 8, 9, 10} <= set(found) and 6 not in found
    assert found[3] == (
        "'three Raider' is not COUNT CARD NAME ('three' is not a number): write it as e.g. '3 three Raider'"
    )
    assert found[4] == "count 0 for 'Duelist': a count is 1 to 99"
    assert found[5].startswith("'4' is not COUNT CARD NAME (no card name after the count)")
    assert found[7] == "a second leader marked *; a deck has exactly one Planet"
    assert found[8] == "'Orun' is marked * (the leader) with 2 copies: a deck has one"
    assert found[9] == "no card name before the *: write '1 NAME *'"
    assert found[10].startswith("a second 'Planet:' line; a deck has exactly one Planet")


def test_unknown_cards_and_a_missing_or_wrong_leader_are_listed_together() -> None:
    """[M9-014] the leader is a Planet (with its Spirit); a card of another type cannot lead."""
    found = problems("3 Recruit\n3 Raidr\n2 Moonbeam\n1 Recruit Ascendant *\n", "miras9")
    assert found[2] == "unknown card 'Raidr': did you mean 'raider'?"
    assert found[3].startswith("unknown card 'Moonbeam'")
    assert found[4].startswith("unknown card 'Recruit Ascendant'")
    assert "no 'Planet:' line" in problems("3 Recruit\n", "miras9")[1]
    assert "no 'Planet:' line" in problems("1 Kessra\n3 Recruit\n", "miras9")[2]  # a Planet unmarked is no leader
    wrong = problems("1 Recruit *\n", "miras9")
    assert "Planet" in wrong[1] and "[M9-014]" in wrong[1]


def test_a_deck_breaking_construction_names_the_rule() -> None:
    """[M9-014] at least 30 cards besides the Planet/Spirit: a short deck is refused by the ruleset's own check."""
    with pytest.raises(InvalidDeckError, match=r"at least 30 are needed \[M9-014\]"):
        parse_deck_list("1 Kessra *\n3 Recruit\n", "miras9")


def test_an_empty_or_binary_file_is_a_named_error(tmp_path: Path) -> None:
    assert "no cards" in problems("# nothing\n\n", "miras9")[1]
    path = tmp_path / "deck.txt"
    path.write_bytes(b"\xff\xfe3 Recruit\n")
    with pytest.raises(DeckListError, match="not UTF-8 text"):
        read_deck_list(path, "miras9")
