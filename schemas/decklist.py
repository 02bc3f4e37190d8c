"""The plain-text deck list a player registers with: its syntax, and the error that lists every problem by line.

One entry a line::

    # Ada's Vanguard (a comment: from "#" to the end of the line is ignored, blank lines too)
    Deck: vanguard            # optional: the deck's name, its archetype in the metagame reports
    Planet: Kessra            # Miras 9: the paired Planet/Spirit card, by its Planet side [M9-014]
    3 Recruit                 # COUNT CARD NAME: the printed name or the card id, any case
    3x char-raider            # "3x" reads as "3"

MORANA marks its Warden the same way: ``Warden: Marzanna`` [MOR-35]. ``1 Kessra *`` (a count line ending in
``*``) marks the leader too, for lists written by hand in the short form. A card named on two lines counts the sum.
This module reads the syntax only (no ruleset): ``engine.decks`` looks the names up in a ruleset's pool and
checks the construction rules, and every problem found, syntax or rules, is reported with its line. The format is
described once, for players, in docs/deck-lists.md.
"""

from __future__ import annotations

import re

import msgspec

from annals.schemas.errors import InvalidDeckError
from annals.schemas.inputs import BOM
from annals.schemas.names import name_problem

LEADER_MARKS = {"planet": "miras9", "warden": "morana"}  # "Planet: NAME" / "Warden: NAME", by ruleset
STAR = "*"  # "1 NAME *": the leader, whichever the ruleset
MAX_COUNT = 99
_ENTRY = re.compile(r"^(\d+)\s*[xX]?\s+(\S.*)$")
_MARK = re.compile(r"^([A-Za-z][A-Za-z ]*?)\s*:\s*(.*)$")


class DeckProblem(msgspec.Struct, frozen=True):
    """One construction rule broken: the card at fault ("" for the deck as a whole) and what to change."""

    card: str
    message: str
    leader: bool = False  # the problem is the leader itself (the Planet/Spirit, the Warden)


class Entry(msgspec.Struct, frozen=True):
    line: int
    count: int
    name: str  # as written: a printed name or a card id


class ParsedList(msgspec.Struct, frozen=True):
    """A deck list's lines read, not yet looked up: entries, the marked leader lines, and syntax problems."""

    entries: list[Entry]
    leaders: list[tuple[int, str, str]]  # (line, mark as written or STAR, name)
    name: str  # from a "Deck:" line, or ""
    name_line: int
    problems: list[tuple[int, str]]  # (line, message)
    last_line: int


class DeckListError(InvalidDeckError):
    """A deck list file has problems: every one is listed, each with its line number, in line order."""

    def __init__(self, path: str, problems: list[tuple[int, str]]):
        self.path = path
        self.problems = sorted(problems, key=lambda p: p[0])
        lines = "; ".join(f"line {line}: {message}" for line, message in self.problems)
        super().__init__(f"{path}: {len(self.problems)} problem{'s' if len(self.problems) != 1 else ''}: {lines}")


def parse_lines(text: str) -> ParsedList:
    """Split a deck list into entries and marks; a line that is neither is a problem, reported with its number."""
    entries: list[Entry] = []
    leaders: list[tuple[int, str, str]] = []
    problems: list[tuple[int, str]] = []
    name, name_line, last = "", 0, 0
    for number, raw in enumerate(text.removeprefix(BOM).splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        last = number
        mark = _MARK.match(line)
        if mark and not line[0].isdigit():
            key, value = mark.group(1).strip(), mark.group(2).strip()
            lower = key.lower()
            if lower == "deck":
                if name:
                    problems.append((number, f"a second 'Deck:' line (the first is line {name_line}): keep one"))
                elif not value:
                    problems.append((number, "'Deck:' without a name: write 'Deck: NAME' or remove the line"))
                elif problem := name_problem(value, "the deck's name"):  # the name reports and the server show
                    problems.append((number, problem))
                else:
                    name, name_line = value, number
            elif lower in LEADER_MARKS:
                counted = _ENTRY.match(value)
                if counted:  # "Planet: 1 Kessra" is accepted; any other count is a problem
                    if int(counted.group(1)) != 1:
                        problems.append((number, f"{key}: {counted.group(1)} copies; a deck has exactly one {key}"))
                    value = counted.group(2).strip()
                if not value:
                    problems.append((number, f"'{key}:' without a card name: write '{key}: NAME'"))
                else:
                    leaders.append((number, key, value))
            else:
                marks = ", ".join(f"'{m.capitalize()}:'" for m in (*LEADER_MARKS, "deck"))
                problems.append((number, f"unknown mark {key + ':'!r}; the marks are {marks}"))
            continue
        entry = _ENTRY.match(line)
        if entry is None:
            first = line.split()[0]
            hint = f"'{first}' is not a number" if not first.isdigit() else "no card name after the count"
            problems.append((number, f"{line!r} is not COUNT CARD NAME ({hint}): write it as e.g. '3 {line}'"))
            continue
        count, card = int(entry.group(1)), entry.group(2).strip()
        if card.endswith(STAR):
            card = card.removesuffix(STAR).strip()
            if count != 1:
                problems.append((number, f"{card!r} is marked {STAR} (the leader) with {count} copies: a deck has one"))
            elif not card:
                problems.append((number, f"no card name before the {STAR}: write '1 NAME {STAR}'"))
            else:
                leaders.append((number, STAR, card))
            continue
        if not 1 <= count <= MAX_COUNT:
            problems.append((number, f"count {count} for {card!r}: a count is 1 to {MAX_COUNT}"))
            continue
        entries.append(Entry(number, count, card))
    return ParsedList(entries, leaders, name, name_line, problems, last)
