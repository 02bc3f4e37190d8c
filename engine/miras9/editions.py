"""Does a log's header name the card pool its game was played with? Ruling R-M9-45 re-runs a log of an earlier
shipped pool by that pool's rules edition, so a header naming the wrong pool would re-run the game by the wrong
rules; ``check_log`` refuses it first, with a named error saying what does not fit and which hash would.

* An earlier pool's cards are its own shipped file, kept beside today's (``EARLIER_FILES``, by pool hash; its
  bytes hash to that name, checked by the tests). A deck card or an event's card id outside it:
  ``CardNotInPoolError``.
* Each edition only added: its event kinds and option kinds take tags from ``ADDED_TAGS[edition]`` on (edition 2:
  movement, crews, Blackwake, extra attacks, take back; edition 3: Ship-Sites), and edition 2 added the decision
  points ``EDITION_2_POINTS``. Any of them under the header of an earlier edition: ``EditionMismatchError``.
* The reverse: edition 2 and later ask a Move-phase decision every turn [M9-037]; a log of such a pool (today's, or
  an earlier one) whose Move phase passes with no decision was played by edition 1: ``EditionMismatchError``. And
  edition 3 puts a Ship-Site in play at a board position [M9-030]: a log of today's pool in which one went into a
  Site slot was played by edition 2 (ruling R-M9-56), and the reverse under an edition-2 header.
* A pool with embedded cards is built on a shipped pool (``pool.pool_base``: an errata replay of an earlier
  edition's game keeps its edition, ruling R-M9-61); the checks are that base's, its card ids those of the base and
  the embedded ones, and a re-stamped header (today's pool over an earlier edition's game) is named as such, with
  the hash the header should have named.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec

from annals.engine.miras9.cards import DATA
from annals.engine.miras9.pool import EARLIER_POOLS, SHIPPED, pool_base, with_cards
from annals.engine.miras9.state import EDITION, ZONE_LOC, ZONE_SITE
from annals.schemas import miras9 as ev
from annals.schemas.carddefs import extended_pool_hash
from annals.schemas.errors import CardNotInPoolError, CardPoolError, EditionMismatchError
from annals.schemas.logfile import GameLog
from annals.schemas.records import instance_id

EARLIER_FILES = {  # each earlier pool's cards.toml, by hash
    "cdbf1905cc74e766": DATA / "cards-edition1.toml",
    "ff31c769e9757719": DATA / "cards-edition2.toml",
    "0b0fc7bf2d3f4083": DATA / "cards-edition3.toml",  # edition 3 before the Ship-Site text cards (R-M9-62)
}
# edition -> (first event tag, first option tag) of the kinds it added: edition 2 UnitMoved (60) .. DestinationChosen
# (75) and MoveUnit (40) .. UseExtraAttack (52); edition 3 ShipSiteMoved (80) .. and MoveShipSite (60) ..
ADDED_TAGS = {2: (60, 40), 3: (80, 60)}
EDITION_2_POINTS = frozenset({"move", "blackwake", "extra_attack"})
EDITION_1 = "edition 1: before movement, crews, Blackwake and extra attacks"


class _Card(msgspec.Struct):
    id: str


class _Ids(msgspec.Struct):
    cards: list[_Card] = []


@cache
def earlier_cards(digest: str) -> frozenset[str] | None:
    """The card ids of the earlier shipped pool ``digest``; None without its file in ``EARLIER_FILES`` (the tests
    require one for every pool of ``pool.EARLIER_POOLS``)."""
    path = EARLIER_FILES.get(digest)
    if path is None:
        return None
    return frozenset(c.id for c in msgspec.toml.decode(path.read_bytes(), type=_Ids).cards)


def _tag(record: Any) -> int:
    tag = type(record).__struct_config__.tag
    return tag if type(tag) is int else 0


def check_log(log: GameLog, path: str) -> None:
    """Raise a ``CardPoolError`` when the header's pool does not fit the log's decks, events or decisions."""
    header = log.header
    if header.start_position:  # a position file's game: its state says what it holds, not its pool's edition
        return
    digest = header.card_pool_hash
    base = pool_base(digest, header.cards)
    earlier = base in EARLIER_POOLS
    edition = EARLIER_POOLS[base] if earlier else EDITION
    if edition >= 2:
        _check_current(log, path)
    ids = earlier_cards(base) if earlier else None
    if ids is None:  # today's pool (or today's plus embedded cards: the hash proves those)
        _check_ship_sites(log, path, edition)
        return
    ids = ids | {d.id for d in header.cards}
    embedded = " with the embedded cards" if header.cards else ""
    pool = f"card pool {digest!r} ({EDITION_1 if edition == 1 else f'edition {edition}'}{embedded})"
    fix = (
        "if the game was played with this engine's pool, the header's card_pool_hash must be "
        f"{_restamped(SHIPPED.digest, header)!r}; else the log was edited (R-M9-45)"
    )
    for p, deck in enumerate(header.decks):
        for cid in (deck.leader, *deck.cards):
            if cid not in ids:
                raise _error(CardNotInPoolError, log, path, "header: decks",
                             f"player {p}'s deck {deck.name!r} holds {cid!r}, which is not in the {pool} that the "
                             f"header names: {fix}")  # fmt: skip
    for e in log.events:
        named = getattr(e, "card_id", None)
        if type(named) is str and named and named not in ids:
            raise _error(CardNotInPoolError, log, path, f"event {e.n}: card_id",
                         f"{type(e).__name__} names {named!r}, which is not in the {pool} that the header names: "
                         f"{fix}")  # fmt: skip
        if _later(edition, _tag(e), 0):
            raise _error(EditionMismatchError, log, path, f"event {e.n}: kind",
                         f"{type(e).__name__} is an event the rules of the {pool} that the header names never "
                         f"make: {fix}")  # fmt: skip
    for d in log.decisions:
        later = [type(o).__name__ for o in d.offered if _later(edition, _tag(o), 1)]
        if (edition == 1 and d.point in EDITION_2_POINTS) or later:
            what = f"offers {later[0]}" if later else f"is asked at point {d.point!r}"
            raise _error(EditionMismatchError, log, path, f"decision {d.n}: point",
                         f"decision {d.n} {what}, which the rules of the {pool} that the header names never ask: "
                         f"{fix}")  # fmt: skip
    _check_ship_sites(log, path, edition)


def _later(edition: int, tag: int, which: int) -> bool:
    """Is an event (``which`` 0) or option (1) of this tag of a kind a later edition than ``edition`` added?"""
    added = ADDED_TAGS.get(edition + 1)
    return added is not None and tag >= added[which]


def _check_current(log: GameLog, path: str) -> None:
    """Today's edition asks a Move-phase decision right after every ``PhaseBegan`` "move" [M9-037]: a log whose
    Move phase goes straight on to Attune with none was played by edition 1."""
    asked = {d.at for d in log.decisions if d.point == "move"}
    events = log.events
    for i in range(len(events) - 1):
        e, after = events[i], events[i + 1]
        if type(e) is not ev.PhaseBegan or e.phase != "move" or type(after) is not ev.PhaseBegan:
            continue
        if after.phase == "attune" and i + 1 not in asked:
            header = log.header
            embedded = " with the embedded cards" if header.cards else ""
            earlier = ", ".join(f"{_restamped(h, header)!r} (edition {n}{embedded})"
                                for h, n in EARLIER_POOLS.items() if n == 1)  # fmt: skip
            raise _error(EditionMismatchError, log, path, f"event {i + 1}: kind",
                         f"the Move phase of turn {e.turn} passes with no Move-phase decision, which the rules of "
                         f"card pool {header.card_pool_hash!r} that the header names ask every turn [M9-037]: "
                         f"the game was played by an earlier edition{_today(header)}; its header's card_pool_hash "
                         f"must be that pool's ({earlier}), or the log was edited (R-M9-45, R-M9-61)")  # fmt: skip
        return  # the first Move phase decides it


def _restamped(base: str, header: Any) -> str:
    """The hash a header with these embedded cards names on shipped pool ``base`` (ruling R-M9-61)."""
    return extended_pool_hash(base, header.cards)


def _today(header: Any) -> str:
    """Says that the header names today's pool (re-stamped) when it does."""
    return (
        f" (its header is stamped with today's pool, edition {EDITION})"
        if pool_base(header.card_pool_hash, header.cards) == SHIPPED.digest
        else ""
    )


def _check_ship_sites(log: GameLog, path: str, edition: int) -> None:
    """Edition 3 puts a Ship-Site in play at a board position [M9-030]; edition 2 placed one in a Site slot (ruling
    R-M9-56). A Ship-Site moved the other edition's way says the header names the wrong edition."""
    header = log.header
    if edition < 2 or header.start_position:
        return
    pool = with_cards(tuple(header.cards))
    ships = {instance_id(p, i) for p, deck in enumerate(header.decks) for i, cid in enumerate(deck.cards)
             if cid in pool and pool[cid].type == "ship_site"}  # fmt: skip
    if not ships:
        return
    wrong = ZONE_SITE if edition >= 3 else ZONE_LOC
    for e in log.events:
        if type(e) is ev.CardMoved and e.card in ships and e.dst in wrong:
            played = 2 if edition >= 3 else 3
            where = "into a Site slot" if played == 2 else "into play at a board position"
            fits = [h for h, n in EARLIER_POOLS.items() if n == played] if played == 2 else [SHIPPED.digest]
            raise _error(EditionMismatchError, log, path, f"event {e.n}: dst",
                         f"a Ship-Site goes {where} ({e.dst}), as only the rules of edition {played} put one, not "
                         f"those of card pool {header.card_pool_hash!r} (edition {edition}) that the header names"
                         f"{_today(header) if edition >= 3 else ''}; its header's card_pool_hash must be "
                         f"{', '.join(repr(_restamped(h, header)) for h in fits)}, or the log was edited "
                         "(R-M9-56, R-M9-61)")  # fmt: skip


def _error(kind: type[CardPoolError], log: GameLog, path: str, field: str, message: str) -> CardPoolError:
    record = field.partition(":")[0]
    name, _, number = record.partition(" ")
    if name == "event":
        frame, offset = log.frame_of_event(int(number))
    elif name == "decision":
        frame, offset = log.frame_of_decision(int(number))
    else:
        frame, offset = 0, log.header_at
    return kind(path, message, frame=frame, offset=offset, field=field)


__all__ = ["ADDED_TAGS", "EARLIER_FILES", "check_log", "earlier_cards"]
