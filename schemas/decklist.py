"""Plain-text deck list files: one ``COUNT CARD`` a line, ``#`` comments, the leader marked with ``*``.

::

    # Kessra aggro
    1 Kessra *          # the leader: the Miras 9 paired Planet/Spirit, or the MORANA Warden
    3 Recruit
    3 char-raider       # a card is named by its name or its id

A line is a count (a whole number from 1), then the card; a trailing ``*`` marks the leader (count 1). When no
line is marked, the leader is the one card of a leader type (``engine.decks`` knows the types). Every problem is
reported at once, each with its line number, so a player fixes the file in one go. This module reads the text
only; ``engine.decks.deck_from_file`` resolves the cards against a ruleset's pool and checks construction.

>>> [(x.line, x.count, x.card, x.leader) for x in parse_decklist("# mine\\n1 Kessra *\\n3 Recruit  # cheap\\n")]
[(2, 1, 'Kessra', True), (3, 3, 'Recruit', False)]
"""

from __future__ import annotations

import re
from typing import Final

import msgspec

from annals.schemas.errors import InvalidDeckError

LEADER_MARK: Final = "*"
MAX_COUNT: Final = 99
_LINE = re.compile(r"(?P<count>\S+)(?:\s+(?P<card>.*))?")


class DeckLine(msgspec.Struct, frozen=True):
    line: int
    count: int
    card: str
    leader: bool = False


class DeckFileError(InvalidDeckError):
    """A deck list file with problems; ``problems`` holds (line number, what is wrong) for every one of them."""

    def __init__(self, source: str, problems: list[tuple[int, str]]):
        self.source = source
        self.problems = problems
        where = "\n".join(f"  line {line}: {text}" if line else f"  {text}" for line, text in problems)
        super().__init__(f"{source}: {len(problems)} problem(s) in the deck list:\n{where}")


def parse_decklist(text: str, source: str = "deck list") -> list[DeckLine]:
    """The deck list's lines, or ``DeckFileError`` listing every malformed line."""
    lines: list[DeckLine] = []
    problems: list[tuple[int, str]] = []
    seen: dict[str, int] = {}
    leader_at = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        body = raw.split("#", 1)[0].strip()
        if not body:
            continue
        match = _LINE.fullmatch(body)
        assert match is not None  # any non-empty text matches
        count_text, card = match["count"], (match["card"] or "").strip()
        leader = card.endswith(LEADER_MARK)
        if leader:
            card = card.removesuffix(LEADER_MARK).strip()
        if not count_text.isdigit():
            problems.append((number, f"{body!r} does not start with a count: write COUNT CARD, e.g. 3 Recruit"))
            continue
        count = int(count_text)
        if not 1 <= count <= MAX_COUNT:
            problems.append((number, f"count {count} is out of range: a count is 1 to {MAX_COUNT}"))
            continue
        if not card:
            problems.append((number, f"no card after the count {count}: write COUNT CARD, e.g. 3 Recruit"))
            continue
        key = card.casefold()
        if key in seen:
            problems.append(
                (number, f"{card!r} is listed again (first on line {seen[key]}): one line per card, with its total")
            )
            continue
        seen[key] = number
        if leader:
            if leader_at:
                problems.append((number, f"a second leader is marked {LEADER_MARK} (the first is on line {leader_at})"))
                continue
            leader_at = number
            if count != 1:
                problems.append((number, f"the leader (marked {LEADER_MARK}) comes once: count 1, not {count}"))
                continue
        lines.append(DeckLine(number, count, card, leader))
    if not lines and not problems:
        problems.append((0, "no cards: write one COUNT CARD line per card"))
    if problems:
        raise DeckFileError(source, problems)
    return lines
