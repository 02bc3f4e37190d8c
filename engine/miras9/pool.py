"""The loaded card pool, shared by the rules modules (static data, never state)."""

from __future__ import annotations

from annals.engine.miras9.cards import DATA, load_decks, load_default_decks, load_pool, pool_hash
from annals.schemas.header import DeckList
from annals.schemas.miras9 import CardDef

POOL: dict[str, CardDef] = load_pool()
POOL_HASH: str = pool_hash()
DECKS: dict[str, DeckList] = load_decks(POOL)
DEFAULT_DECKS: tuple[str, str] = load_default_decks(DECKS)
SPIRIT: dict[str, CardDef] = {cid[: -len("#spirit")]: d for cid, d in POOL.items() if cid.endswith("#spirit")}
STATIC_CIDS: frozenset[str] = frozenset(cid for cid, d in POOL.items() if d.statics)
SPIRIT_STATIC: frozenset[str] = frozenset(cid for cid, d in SPIRIT.items() if d.statics)

__all__ = ["DATA", "DECKS", "DEFAULT_DECKS", "POOL", "POOL_HASH", "SPIRIT", "SPIRIT_STATIC", "STATIC_CIDS"]
