"""The loaded card pool, shared by the rules modules (static data, never state)."""

from __future__ import annotations

from annals.engine.miras9.cards import DATA, load_decks, load_default_decks, load_pool, pool_hash
from annals.schemas.header import DeckList
from annals.schemas.miras9 import CardDef

POOL: dict[str, CardDef] = load_pool()
POOL_HASH: str = pool_hash()
# The pools before this one, by hash, and the rules edition their games were played under (``M9State.edition``).
# Each later pool only adds cards, so the current POOL holds every card of theirs unchanged (ruling R-M9-53).
EARLIER_POOLS: dict[str, int] = {"cdbf1905cc74e766": 1}
DECKS: dict[str, DeckList] = load_decks(POOL)
DEFAULT_DECKS: tuple[str, str] = load_default_decks(DECKS)
SPIRIT: dict[str, CardDef] = {cid[: -len("#spirit")]: d for cid, d in POOL.items() if cid.endswith("#spirit")}
STATIC_CIDS: frozenset[str] = frozenset(cid for cid, d in POOL.items() if d.statics)
SPIRIT_STATIC: frozenset[str] = frozenset(cid for cid, d in SPIRIT.items() if d.statics)

__all__ = [
    "DATA", "DECKS", "DEFAULT_DECKS", "EARLIER_POOLS", "POOL", "POOL_HASH", "SPIRIT", "SPIRIT_STATIC", "STATIC_CIDS",
]  # fmt: skip
