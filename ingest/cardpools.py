"""Card definitions for the ``cards`` dimension: id, name, type and the whole definition as JSON.

A game's cards are described only when its header's card-pool hash is the pool this annals ships (the ruleset's
``card_pool_hash()``); games played with another pool keep their card ids with NULL name, type and data.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec

from annals.engine.registry import get_ruleset
from annals.schemas.errors import AnnalsError


def _miras9() -> dict[str, Any]:
    from annals.engine.miras9.cards import load_pool

    return dict(load_pool())


def _morana() -> dict[str, Any]:
    from annals.engine.morana.cards import shipped_pool

    p = shipped_pool()
    return {**p.cards, **p.wardens}


_SOURCES = {"miras9": _miras9, "morana": _morana}


def _type(definition: Any) -> str:
    for field in ("type", "kind"):
        value = getattr(definition, field, None)
        if value is not None:
            return str(value)
    return "warden" if hasattr(definition, "vigil") else ""


@cache
def definitions(ruleset: str, pool_hash: str) -> dict[str, tuple[str, str, str]]:
    """card id -> (name, type, definition JSON), or empty when the pool is not the one shipped."""
    source = _SOURCES.get(ruleset)
    if source is None:
        return {}
    try:
        if get_ruleset(ruleset).card_pool_hash() != pool_hash:
            return {}
    except AnnalsError:
        return {}
    return {
        card_id: (str(getattr(d, "name", "")), _type(d), msgspec.json.encode(d).decode())
        for card_id, d in sorted(source().items())
    }
