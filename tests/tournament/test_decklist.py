"""Deck list files: the format, and every kind of problem reported with its line number [M9-013]-[M9-020], [MOR-35]."""

from __future__ import annotations

from pathlib import Path

import pytest

from annals.engine.decks import parse_deck_list, read_deck_list, write_deck_list
from annals.engine.registry import get_ruleset
from annals.schemas.decklist import DeckListError


def problems(text: str, ruleset: str) -> dict[int, list[str]]:
    with pytest.raises(DeckListError) as info:
        parse_deck_list(text, ruleset)
    by_line: dict[int, list[str]] = {}
    for line, message in info.value.problems:
        by_line.setdefault(line, []).append(message)
    return by_line


@pytest.mark.parametrize("ruleset", ["miras9", "morana"])
def test_every_shipped_deck_reads_back_from_its_list(ruleset: str) -> None:
    for deck in get_ruleset(ruleset).decks().values():
        back = parse_deck_list(write_deck_list(deck, ruleset), ruleset)
        assert (back.name, back.leader, sorted(back.cards)) == (deck.name, deck.leader, sorted(deck.cards))


def test_names_ids_comments_and_counts_M9_014() -> None:
    text = """
    # Ada's list: names or ids, any case; '3x' reads as 3; a card on two lines counts the sum
    Deck: ada-vanguard
    Planet: 1 kessra          # the paired Planet/Spirit [M9-014]
    3 Recruit
    3x char-raider
    2 CHAR-DUELIST
    1 char-duelist
    2 Veteran Fighter
    """
    base = get_ruleset("miras9").decks()["vanguard"]
    rest = [c for c in base.cards if c not in ("char-recruit", "char-raider", "char-duelist", "char-veteran")]
    counts: dict[str, int] = {}
    for c in rest:
        counts[c] = counts.get(c, 0) + 1
    text += "".join(f"{n} {c}\n" for c, n in counts.items())
    from annals.engine.miras9.pool import SHIPPED

    veteran = SHIPPED["char-veteran"].name
    deck = parse_deck_list(text.replace("Veteran Fighter", veteran), "miras9")
    assert deck.name == "ada-vanguard"
    assert deck.leader == "planet-kessra"
    assert sorted(deck.cards) == sorted(base.cards)


def test_every_kind_of_miras9_problem_with_its_line_M9_013_M9_014_M9_015_M9_016_M9_017() -> None:
    text = "\n".join(
        [
            "# a list with one problem of each kind a line",  # 1
            "Deck: broken",  # 2
            "Planet: Kessra",  # 3
            "Planet: Vael",  # 4  a second Planet line
            "3 Recruit",  # 5
            "Recruit",  # 6  no count
            "0 char-raider",  # 7  a count of 0
            "4 char-duelist",  # 8  4 copies of a Unit [M9-015]
            "3 Frontier Outpost",  # 9  3 copies of a Site [M9-016]
            "1 Drone",  # 10 a token [M9-013]
            "1 Orun",  # 11 a second paired card [M9-014]
            "2 Recrut",  # 12 unknown card, with a suggestion
            "Warden: Marzanna",  # 13 a MORANA mark
            "Sideboard: 3 Recruit",  # 14 an unknown mark
            "Deck: again",  # 15 a second Deck line
        ]
    )
    found = problems(text, "miras9")
    assert "a second 'Planet:' line" in found[4][0]
    assert "is not COUNT CARD NAME" in found[6][0]
    assert "count 0" in found[7][0]
    assert "4 copies of 'char-duelist'" in found[8][0] and "[M9-015]" in found[8][0]
    assert "3 copies of 'site-outpost'" in found[9][0] and "[M9-016]" in found[9][0]
    assert "token" in found[10][0] and "[M9-013]" in found[10][0]
    assert "second paired Planet/Spirit" in found[11][0]
    assert "unknown card 'Recrut'" in found[12][0] and "did you mean 'recruit'" in found[12][0].lower()
    assert "not a miras9 mark" in found[13][0]
    assert "unknown mark 'Sideboard:'" in found[14][0]
    assert "a second 'Deck:' line" in found[15][0]
    # the deck as a whole is too small: reported at the last line [M9-014], [M9-017]
    assert any("at least 30" in m and "[M9-017]" in m for m in found[15])
    assert set(found) == {4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}


def test_missing_planet_and_no_site_M9_014_M9_020() -> None:
    found = problems("30 Recruit\n", "miras9")
    messages = found[1]
    assert any("no 'Planet:' line" in m for m in messages)
    assert any("[M9-020]" in m for m in messages)  # no Site to start with
    assert any("30 copies of 'char-recruit'" in m for m in messages)  # still checked without a Planet
    found = problems("Planet: Recruit\n" + "\n".join(f"2 {s}" for s in ["site-outpost"] * 1) + "\n", "miras9")
    assert "not a paired Planet/Spirit card" in found[1][0]


def test_every_kind_of_morana_problem_with_its_line_MOR_35() -> None:
    text = "\n".join(
        [
            "Warden: Lada",  # 1
            "3 alkonost",  # 2  3 copies [MOR-35]
            "2 firebird",  # 3  2 copies of a Legendary (R-MOR-09)
            "1 Marzanna",  # 4  a Warden among the cards
            "1 no-such-spirit",  # 5 unknown
            "Planet: Kessra",  # 6 a Miras 9 mark
        ]
    )
    found = problems(text, "morana")
    assert "3 copies of 'alkonost'" in found[2][0] and "[MOR-35]" in found[2][0]
    assert "Legendary 'firebird'" in found[3][0]
    assert "Warden 'marzanna' among the cards" in found[4][0]
    assert "unknown card 'no-such-spirit'" in found[5][0]
    assert any("not a morana mark" in m for m in found[6])
    assert any("exactly 20 cards plus 1 Warden" in m for m in found[6])  # 7 cards: the whole deck, last line
    found = problems("Warden: Nobody\n" + "2 alkonost\n" * 10, "morana")
    assert "unknown card 'Nobody'" in found[1][0]
    assert "no 'Warden:' line" not in " ".join(m for ms in found.values() for m in ms)


def test_empty_and_non_utf8_files(tmp_path: Path) -> None:
    assert "no cards" in " ".join(problems("# nothing\n", "morana")[1])
    bad = tmp_path / "latin1.txt"
    bad.write_bytes(b"Warden: Lada\n2 alk\xf6nost\n")
    with pytest.raises(DeckListError, match="not UTF-8"):
        read_deck_list(bad, "morana")


def test_a_list_saved_with_a_byte_order_mark_reads_as_without(tmp_path: Path) -> None:
    """Windows Notepad starts a UTF-8 file with U+FEFF: it is no part of the first line ('Deck: ...')."""
    deck = get_ruleset("miras9").decks()["vanguard"]
    listed = tmp_path / "ada.txt"
    listed.write_bytes(b"\xef\xbb\xbf" + write_deck_list(deck, "miras9").replace("\n", "\r\n").encode())
    back = read_deck_list(listed, "miras9")
    assert (back.name, back.leader, sorted(back.cards)) == (deck.name, deck.leader, sorted(deck.cards))


def test_the_error_message_lists_every_problem_in_line_order() -> None:
    with pytest.raises(DeckListError) as info:
        parse_deck_list("Warden: Lada\nfoo bar\n0 alkonost\n", "morana")
    text = str(info.value)
    assert text.index("line 2:") < text.index("line 3:")
    assert [line for line, _ in info.value.problems] == sorted(line for line, _ in info.value.problems)


def test_the_examples_of_the_docs_page_read_as_it_says_M9_016() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "deck-lists.md").read_text()
    blocks = page.split("```text\n")[1:]
    example, broken, message = (b.split("```", 1)[0] for b in blocks[:3])
    found = problems(example, "miras9")
    assert "3 copies of 'site-outpost'" in found[6][0] and "[M9-016]" in found[6][0]  # 2 + 1 on two lines
    assert any("at least 30" in m for m in found[7])
    with pytest.raises(DeckListError) as info:
        parse_deck_list(broken, "miras9", where="ada.txt")
    assert f"error: DeckListError: {info.value}" == " ".join(message.split())


def test_a_deck_name_with_a_control_character_or_past_the_bound_is_a_problem_of_its_line() -> None:
    """The ``Deck:`` name is shown in reports and sent to the server's tables: an ESC recoloured the terminal,
    and a name past ``MAX_NAME`` the server refuses."""
    from annals.schemas.names import MAX_NAME

    body = "Warden: Lada\n2 alkonost\n"
    assert "control character" in " ".join(problems("Deck: glory\x1b[31m\n" + body, "morana")[1])
    assert f"up to {MAX_NAME}" in " ".join(problems(f"Deck: {'g' * (MAX_NAME + 1)}\n" + body, "morana")[1])
    with pytest.raises(DeckListError) as info:
        parse_deck_list(f"Deck: {'g' * MAX_NAME}\n" + body, "morana")
    assert all(line != 1 for line, _ in info.value.problems)  # the longest name is fine (the list is short)


def test_a_file_name_that_names_the_deck_holds_to_the_same_bound(tmp_path: Path) -> None:
    """Without a ``Deck:`` line the file's name is the deck's: past ``MAX_NAME`` it is a problem saying so (a
    'Deck:' line fixes it), and with one the file may be named anything."""
    from annals.schemas.names import MAX_NAME

    deck = get_ruleset("morana").decks()["glory"]
    text = write_deck_list(deck, "morana")
    unnamed = "\n".join(line for line in text.splitlines() if not line.startswith("Deck:")) + "\n"
    long = tmp_path / f"{'x' * (MAX_NAME + 1)}.txt"
    long.write_text(unnamed)
    with pytest.raises(DeckListError) as info:
        read_deck_list(long, "morana")
    [(line, message)] = info.value.problems
    assert line == 1 and f"up to {MAX_NAME}" in message and "'Deck: NAME' line" in message
    long.write_text(text)
    assert read_deck_list(long, "morana").name == deck.name
    fits = tmp_path / f"{'x' * MAX_NAME}.txt"
    fits.write_text(unnamed)
    assert read_deck_list(fits, "morana").name == "x" * MAX_NAME
