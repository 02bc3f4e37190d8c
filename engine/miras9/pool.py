"""Card pools as values: the shipped pool, and the shipped pool with extra or changed card definitions.

A ``Pool`` is the card definitions by id (``pool.cards``, read as ``pool[cid]``) with what the rules derive from
them: the awakened Spirit faces (``spirit``); the card ids the rules look for on the board, so that a scan skips
the other cards without reading their definitions: Ship-Sites (``ship_cids``), hosts (``host_cids``, Crew 1+),
cards with statics (``static_cids``; per value a static changes, ``modifying``), cards with activated abilities per
timing (``timed``), each with its Spirit-face counterpart where a Spirit can be one (``spirit_static``,
``spirit_modifying``, ``spirit_timed``, keyed by the Planet's id); whether any static lowers GRIT
(``lowers_grit``); its hash (``digest``: the shipped file's hash for the shipped pool) and the definitions it adds
to the shipped pool (``extra``, embedded in the header and state of a game played with them). The rules never read
a module global: each game's state carries its pool (``M9State.pool``), so a rule reads ``s.pool[cid]``.
``reaction_cids`` are the Reaction Events, looked for in a Hand.

A pool is built on a shipped pool (``base``): today's, or an earlier one whose games keep that edition's rules
(ruling R-M9-45). Its cards are today's either way (every earlier pool only lacks cards, and its one errata is its
edition's rule); what the base changes is the hash, so a game of an earlier edition played with extra or changed
cards (an errata replay, ruling R-M9-61) names ``extended_pool_hash(base, extra)`` and ``pool_base`` finds the
edition again from the header alone.
"""

from __future__ import annotations

from collections.abc import ItemsView, Iterator, KeysView, Sequence, ValuesView
from functools import cache

from annals.engine.miras9.cards import DATA, SPIRIT_SUFFIX, build_pool, decode_cards, load_decks, load_default_decks
from annals.engine.miras9.cards import pool_hash as file_hash
from annals.schemas.carddefs import CardDefinition, convert, extended_pool_hash
from annals.schemas.errors import CardDataError
from annals.schemas.header import DeckList
from annals.schemas.miras9 import CardDef

SECTIONS = ("cards",)  # the tables of a Miras 9 card file


class Pool:
    """The card definitions of a game by card id (``cards``, also read as ``pool[cid]``, ``cid in pool``), and what
    the rules derive from them (see the module). Not a dict subclass: compiled, this is a native class whose tables
    the rules read as C struct members, where a dict subclass keeps them in its ``__dict__``."""

    cards: dict[str, CardDef]
    spirit: dict[str, CardDef]
    static_cids: frozenset[str]
    spirit_static: frozenset[str]
    ship_cids: frozenset[str]
    host_cids: frozenset[str]
    reaction_cids: frozenset[str]
    modifying: dict[str, frozenset[str]]
    spirit_modifying: dict[str, frozenset[str]]
    timed: dict[str, frozenset[str]]
    spirit_timed: dict[str, frozenset[str]]
    lowers_grit: bool
    digest: str
    extra: tuple[CardDefinition, ...]
    base: str

    def __init__(self, cards: dict[str, CardDef], digest: str, extra: Sequence[CardDefinition] = (), base: str = ""):
        self.cards = dict(cards)
        self.spirit = {cid[: -len(SPIRIT_SUFFIX)]: d for cid, d in cards.items() if cid.endswith(SPIRIT_SUFFIX)}
        self.static_cids = frozenset(cid for cid, d in cards.items() if d.statics)
        self.spirit_static = frozenset(cid for cid, d in self.spirit.items() if d.statics)
        self.ship_cids = frozenset(cid for cid, d in cards.items() if d.type == "ship_site")
        self.host_cids = frozenset(cid for cid, d in cards.items() if d.crew > 0)  # a Spirit face never is one
        self.reaction_cids = frozenset(
            cid for cid, d in cards.items() if d.type == "event" and "reaction" in d.keywords
        )
        self.modifying = _modifying(cards)
        self.spirit_modifying = _modifying(self.spirit)
        self.timed = _timed(cards)
        self.lowers_grit = any(st.grit < 0 for d in cards.values() for st in d.statics)
        self.spirit_timed = _timed(self.spirit)
        self.digest = digest
        self.extra = tuple(extra)
        self.base = base or digest  # the shipped pool it is built on (its hash): today's or an earlier edition's

    def __getitem__(self, cid: str) -> CardDef:
        return self.cards[cid]

    def __contains__(self, cid: object) -> bool:
        return cid in self.cards

    def __iter__(self) -> Iterator[str]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def get(self, cid: str) -> CardDef | None:
        """The definition of ``cid``, or None for an id the pool lacks."""
        return self.cards.get(cid)

    def items(self) -> ItemsView[str, CardDef]:
        return self.cards.items()

    def values(self) -> ValuesView[CardDef]:
        return self.cards.values()

    def keys(self) -> KeysView[str]:
        return self.cards.keys()

    def with_cards(self, extra: Sequence[CardDefinition]) -> Pool:
        """The shipped pool with ``extra`` added (a new id) or put in place of the shipped card (the same id), on
        this pool's base."""
        return with_cards(tuple(extra), self.base)


STAT_FIELDS = ("atk", "grit", "echo", "ward", "move_cost")  # the values a ``Static`` adds to


def _modifying(cards: dict[str, CardDef]) -> dict[str, frozenset[str]]:
    """Per value a static may change, the cards with a static that changes it (the others add 0 to it)."""
    return {
        field: frozenset(cid for cid, d in cards.items() if any(getattr(st, field) for st in d.statics))
        for field in STAT_FIELDS
    }


def _timed(cards: dict[str, CardDef]) -> dict[str, frozenset[str]]:
    """Per timing (``Ability.timing``), the cards with an activated ability of that timing."""
    timings = {a.timing for d in cards.values() for a in d.abilities}
    return {
        timing: frozenset(cid for cid, d in cards.items() if any(a.timing == timing for a in d.abilities))
        for timing in timings
    }


_SHIPPED_CARDS: list[CardDef] = decode_cards(DATA / "cards.toml")
SHIPPED = Pool(build_pool(_SHIPPED_CARDS, str(DATA / "cards.toml")), file_hash())


@cache
def with_cards(extra: tuple[CardDefinition, ...], base: str = "") -> Pool:
    """The shipped pool with ``extra`` (cached: every state of a game shares its pool), on ``base`` (today's shipped
    pool by default, or an earlier one's hash: its games' edition, ruling R-M9-61)."""
    base = base or SHIPPED.digest
    if not extra:
        return SHIPPED if base == SHIPPED.digest else Pool(SHIPPED.cards, base)
    by_id = {c.id: c for c in _SHIPPED_CARDS}
    for d in extra:
        if d.section not in SECTIONS:
            raise CardDataError(f"card {d.id!r}: section {d.section!r} is not a Miras 9 card table; use [[cards]]")
        card = convert(d, CardDef, "card")
        if card.id.endswith(SPIRIT_SUFFIX):
            raise CardDataError(
                f"card {card.id!r}: a Spirit face is its Planet's [spirit] table, not a card of its own"
            )
        by_id[card.id] = card
    cards = build_pool(list(by_id.values()), "card definitions")
    return Pool(cards, extended_pool_hash(base, extra), extra, base)


# The shipped pools before this one, by hash, and the rules edition their games were played under
# (``M9State.edition``). Each later pool only adds cards, so the shipped pool holds every card of theirs unchanged
# (ruling R-M9-45). A pool that only added cards keeps its edition: 0b0fc7bf... is edition 3 before the Ship-Site
# text cards (ruling R-M9-62), its games replayed by today's rules.
EARLIER_POOLS: dict[str, int] = {"cdbf1905cc74e766": 1, "ff31c769e9757719": 2, "0b0fc7bf2d3f4083": 3}


def pool_base(digest: str, extra: Sequence[CardDefinition] = ()) -> str:
    """The shipped pool a header's pool (``card_pool_hash`` ``digest``, embedded cards ``extra``) is built on:
    today's, or the earlier one whose hash the embedded cards extend to ``digest`` (ruling R-M9-61). Today's when
    none fits (an unknown pool, or an embedded card edited: the checks that re-run a log name those)."""
    if not extra:
        return digest if digest in EARLIER_POOLS else SHIPPED.digest
    for base in (SHIPPED.digest, *EARLIER_POOLS):
        if extended_pool_hash(base, extra) == digest:
            return base
    return SHIPPED.digest


DECKS: dict[str, DeckList] = load_decks(SHIPPED.cards)
DEFAULT_DECKS: tuple[str, str] = load_default_decks(DECKS)

__all__ = ["DECKS", "DEFAULT_DECKS", "EARLIER_POOLS", "SHIPPED", "Pool", "pool_base", "with_cards"]
