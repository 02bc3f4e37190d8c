"""A player's own deck list file, read into a ``DeckList`` of a ruleset (format: ``schemas.decklist``).

Cards are named by id or by name (any case); the leader is the line marked ``*``, or else the one card of a
leader type (a Miras 9 Planet, a MORANA Warden). Every unknown card and a missing or doubled leader are listed
together with their lines; the ruleset's construction check then runs on the whole deck (it names the first rule
broken, with its paragraph).
"""

from __future__ import annotations

import difflib
from pathlib import Path

from annals.schemas.decklist import LEADER_MARK, DeckFileError, parse_decklist
from annals.schemas.header import DeckList


class _Pool:
    def __init__(self, names: dict[str, str], leaders: set[str]):
        self.names = names  # card id -> name
        self.leaders = leaders  # ids of leader cards
        self.lookup = {cid.casefold(): cid for cid in names} | {n.casefold(): cid for cid, n in names.items()}


def _pool(ruleset: str) -> _Pool:
    if ruleset == "miras9":
        from annals.engine.miras9.pool import POOL

        cards = {cid: d.name for cid, d in POOL.items() if not cid.endswith("#spirit")}
        return _Pool(cards, {cid for cid, d in POOL.items() if d.type == "planet"})
    if ruleset == "morana":
        from annals.engine.morana.cards import pool

        p = pool()
        return _Pool(
            {**{c: d.name for c, d in p.cards.items()}, **{w: d.name for w, d in p.wardens.items()}}, set(p.wardens)
        )
    raise DeckFileError(ruleset, [(0, f"ruleset {ruleset!r} takes no deck list files (miras9 and morana do)")])


def validate(ruleset: str, deck: DeckList) -> None:
    """The ruleset's construction rules (``InvalidDeckError`` naming the first rule broken)."""
    if ruleset == "miras9":
        from annals.engine.miras9.cards import validate_deck as m9_validate
        from annals.engine.miras9.pool import POOL

        m9_validate(deck, POOL)
    elif ruleset == "morana":
        from annals.engine.morana.cards import pool
        from annals.engine.morana.cards import validate_deck as mor_validate

        mor_validate(deck, pool())


def deck_from_text(ruleset: str, text: str, name: str, source: str = "deck list") -> DeckList:
    pool = _pool(ruleset)
    lines = parse_decklist(text, source)
    problems: list[tuple[int, str]] = []
    cards: list[str] = []
    leaders: list[tuple[int, str]] = []
    marked = any(line.leader for line in lines)
    for line in lines:
        cid = pool.lookup.get(line.card.casefold())
        if cid is None:
            close = difflib.get_close_matches(line.card, [*pool.names.values(), *pool.names], n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            problems.append((line.line, f"no card {line.card!r} in the {ruleset} card pool{hint}"))
            continue
        if line.leader or (not marked and cid in pool.leaders):
            if cid not in pool.leaders:
                problems.append((line.line, f"{line.card!r} is marked {LEADER_MARK} but cannot lead a deck"))
                continue
            leaders.append((line.line, cid))
            if line.count != 1:
                problems.append((line.line, f"the leader {line.card!r} comes once: count 1, not {line.count}"))
            continue
        cards.extend([cid] * line.count)
    if len(leaders) > 1:
        first = leaders[0][0]
        problems.extend(
            (at, f"a second leader (the first is on line {first}): mark the one that leads with {LEADER_MARK}")
            for at, _ in leaders[1:]
        )
    if not leaders and not any("leader" in text for _, text in problems):
        problems.append((0, f"no leader: add the deck's leader on a line of its own, marked {LEADER_MARK}"))
    if problems:
        raise DeckFileError(source, sorted(problems))
    deck = DeckList(name, cards, leaders[0][1])
    validate(ruleset, deck)
    return deck


def deck_from_file(ruleset: str, path: Path) -> DeckList:
    """The deck list in ``path`` (named after the file), checked against the ruleset's pool and construction."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise DeckFileError(str(path), [(0, f"not UTF-8 text ({exc.reason} at byte {exc.start})")]) from None
    return deck_from_text(ruleset, text, path.stem, str(path))
