"""Deck list files (``schemas.decklist``) read against a ruleset: names looked up, construction rules checked.

The one reader of deck lists: ``annals play --deck-file`` and event registration both come here.

Every problem is collected, the syntax ones, the unknown names and each rule the ruleset's own ``deck_problems``
finds (the same checks as the engine's ``validate_deck``), and raised together as one ``DeckListError`` listing
each with its line number: a rule about one card points at that card's line, a rule about the whole deck (its
size, its starting Site) at the list's last line.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from pathlib import Path

import msgspec

from annals.engine.registry import get_ruleset
from annals.schemas.decklist import LEADER_MARKS, STAR, DeckListError, DeckProblem, parse_lines
from annals.schemas.errors import UnknownNameError
from annals.schemas.header import DeckList
from annals.schemas.inputs import read_bytes
from annals.schemas.names import name_problem
from annals.schemas.rulesets import UnknownRulesetError

MAX_DECK_BYTES = 256 << 10  # a deck list is a few hundred bytes; one annotated line by line, a few KiB


class CardBook(msgspec.Struct, frozen=True):
    """What a deck list needs of a ruleset: names to ids, which ids may lead, and the construction check."""

    ruleset: str
    mark: str  # the leader mark: "Planet" or "Warden"
    ids: dict[str, str]  # lower-case printed name or id -> card id, for deck cards and leaders alike
    leaders: frozenset[str]
    problems: Callable[[DeckList], list[DeckProblem]]


def _miras9() -> CardBook:
    from annals.engine.miras9.cards import SPIRIT_SUFFIX, deck_problems
    from annals.engine.miras9.pool import SHIPPED as POOL

    ids: dict[str, str] = {}
    for cid, card in POOL.items():
        if not cid.endswith(SPIRIT_SUFFIX):
            ids[cid.lower()] = cid
            ids[card.name.lower()] = cid
    leaders = frozenset(cid for cid, c in POOL.items() if c.type == "planet")
    return CardBook("miras9", "Planet", ids, leaders, lambda deck: deck_problems(deck, POOL.cards))


def _morana() -> CardBook:
    from annals.engine.morana.cards import deck_problems
    from annals.engine.morana.cards import shipped_pool as pool

    p = pool()
    ids: dict[str, str] = {}
    for cid, named in [*((c.id, c.name) for c in p.cards.values()), *((w.id, w.name) for w in p.wardens.values())]:
        ids[cid.lower()] = cid
        ids[named.lower()] = cid
    return CardBook("morana", "Warden", ids, frozenset(p.wardens), lambda deck: deck_problems(deck, p))


BOOKS: dict[str, Callable[[], CardBook]] = {"miras9": _miras9, "morana": _morana}


def card_book(ruleset: str) -> CardBook:
    make = BOOKS.get(ruleset)
    if make is None:
        raise UnknownRulesetError("ruleset with deck lists", ruleset, sorted(BOOKS))
    return make()


def _unknown(name: str, book: CardBook) -> str:
    close = difflib.get_close_matches(name.lower(), list(book.ids), n=1, cutoff=0.7)
    hint = f"did you mean {close[0]!r}?" if close else f"use a printed name or an id of the {book.ruleset} pool"
    return f"unknown card {name!r}: {hint}"


def parse_deck_list(text: str, ruleset: str, *, where: str = "deck list", default_name: str = "") -> DeckList:
    """The deck a list describes, or ``DeckListError`` with every problem and its line."""
    book = card_book(ruleset)
    parsed = parse_lines(text)
    problems = list(parsed.problems)
    lines: dict[str, int] = {}  # card id -> first line naming it
    cards: list[str] = []
    for entry in parsed.entries:
        cid = book.ids.get(entry.name.lower())
        if cid is None:
            problems.append((entry.line, _unknown(entry.name, book)))
            continue
        lines.setdefault(cid, entry.line)
        cards.extend([cid] * entry.count)
    leader, leader_line = "", 0
    for line, mark, named in parsed.leaders:
        if mark != STAR and LEADER_MARKS[mark.lower()] != ruleset:
            problems.append((line, f"'{mark}:' is not a {ruleset} mark; mark the deck's leader '{book.mark}: NAME'"))
            continue
        if leader:
            second = f"a second leader marked {STAR}" if mark == STAR else f"a second '{book.mark}:' line"
            problems.append((line, f"{second}; a deck has exactly one {book.mark}"))
            continue
        cid = book.ids.get(named.lower())
        if cid is None:
            problems.append((line, _unknown(named, book)))
            leader = "?"
            continue
        leader, leader_line = cid, line
    end = parsed.last_line or 1
    if not leader:
        how = f"name the deck's {book.mark} as '{book.mark}: NAME' (or '1 NAME {STAR}')"
        problems.append((end, f"no '{book.mark}:' line: {how}"))
    if not parsed.entries and not parsed.problems:
        problems.append((end, "no cards: write one 'COUNT CARD NAME' a line"))
    if not parsed.name and (wrong := name_problem(default_name, "the deck's name (the file's: no 'Deck:' line)")):
        problems.append((1, f"{wrong}; or add a 'Deck: NAME' line"))
    deck = DeckList(parsed.name or default_name or "deck", cards, leader if leader != "?" else "")
    # Without a usable leader the cards are still checked, against a stand-in (the missing leader is reported).
    checked = deck if leader not in ("", "?") else msgspec.structs.replace(deck, leader=min(book.leaders))
    for problem in book.problems(checked):
        if problem.leader:
            problems.append((leader_line, problem.message))
        else:
            problems.append((lines.get(problem.card, end) if problem.card else end, problem.message))
    if problems:
        raise DeckListError(where, problems)
    return deck


def read_deck_list(path: Path, ruleset: str) -> DeckList:
    """Read a deck list file; the deck's name is its ``Deck:`` line or else the file's stem. Only a regular file of
    at most ``MAX_DECK_BYTES`` is read (``schemas.inputs``): a FIFO or ``/dev/zero`` is refused at once."""
    raw = read_bytes(path, what="deck list", max_bytes=MAX_DECK_BYTES)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DeckListError(str(path), [(1, f"not UTF-8 text ({exc.reason} at byte {exc.start})")]) from None
    return parse_deck_list(text, ruleset, where=str(path), default_name=path.stem)


def shipped_deck(ruleset: str, name: str) -> DeckList:
    """One of the ruleset's shipped decks by name (``UnknownNameError``, with did-you-mean, otherwise)."""
    decks = get_ruleset(ruleset).decks()
    if name not in decks:
        raise UnknownNameError("deck", name, sorted(decks))
    return decks[name]


def write_deck_list(deck: DeckList, ruleset: str) -> str:
    """A deck as list text (card ids, sorted): what ``parse_deck_list`` reads back to the same deck."""
    book = card_book(ruleset)
    counts: dict[str, int] = {}
    for cid in deck.cards:
        counts[cid] = counts.get(cid, 0) + 1
    body = "".join(f"{n} {cid}\n" for cid, n in sorted(counts.items()))
    return f"Deck: {deck.name}\n{book.mark}: {deck.leader}\n{body}"
